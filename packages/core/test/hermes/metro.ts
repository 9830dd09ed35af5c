// Test-only: bundles app-side code with Metro (React Native's bundler, from npm) as a release
// build of a React Native app would: @react-native/metro-config's defaults (its Babel
// transformer and preset, its polyfills), package exports on with the `react-native` condition,
// and `@signet/core` resolved from node_modules through its package.json like an installed
// package (so its built `dist`, never its sources). The React Native native modules the
// adapters import are replaced by the stand-ins in ./app/native.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
/** The repository root: Metro's project root, where `node_modules/@signet/core` links the package. */
const ROOT = join(here, "..", "..", "..", "..");

/** Native modules → their stand-ins. */
const STAND_INS: Record<string, string> = {
  "expo-secure-store": join(here, "app/native/expo-secure-store.ts"),
  "react-native-keychain": join(here, "app/native/react-native-keychain.ts"),
  "react-native-passkeys": join(here, "app/native/react-native-passkeys.ts"),
  "react-native-get-random-values": join(here, "app/native/react-native-get-random-values.ts"),
  "expo-crypto": join(here, "app/native/expo-crypto.ts"),
  "react-native": join(here, "app/native/react-native.ts"),
};

type Resolution = { type: "sourceFile"; filePath: string };
type ResolutionContext = {
  originModulePath: string;
  resolveRequest: (context: ResolutionContext, name: string, platform: string | null) => Resolution;
};
type MetroModule = {
  runBuild(
    config: unknown,
    options: Record<string, unknown>,
  ): Promise<{ code: string; map?: string }>;
};
type MetroConfigModule = {
  getDefaultConfig(root: string): Record<string, unknown>;
  mergeConfig(...configs: Record<string, unknown>[]): Record<string, unknown>;
};

export type MetroBundle = {
  code: string;
  /** Module id → path relative to the repository root, for every module in the bundle. */
  modules: Map<number, string>;
  ms: number;
};

/**
 * Bundles `entry` with Metro for iOS, release mode (`dev: false`, not minified).
 * @throws when Metro cannot resolve or transform a module (a Node built-in import fails here).
 */
export async function bundleWithMetro(entry: string): Promise<MetroBundle> {
  const started = performance.now();
  const Metro = require("metro") as MetroModule;
  const { getDefaultConfig, mergeConfig } =
    require("@react-native/metro-config") as MetroConfigModule;
  const paths = new Map<string, number>();
  const config = mergeConfig(getDefaultConfig(ROOT), {
    projectRoot: ROOT,
    watchFolders: [ROOT],
    // No cache on disk: every run transforms what is there now.
    cacheStores: [],
    maxWorkers: 2,
    reporter: { update() {} },
    resolver: {
      unstable_enablePackageExports: true,
      useWatchman: false,
      sourceExts: ["ts", "tsx", "js", "jsx", "json", "cjs", "mjs"],
      resolveRequest(context: ResolutionContext, name: string, platform: string | null) {
        const standIn = STAND_INS[name];
        if (standIn !== undefined) return { type: "sourceFile", filePath: standIn };
        // The test's own TypeScript imports its siblings as `./x.js` (Node16 resolution).
        if (
          name.startsWith(".") &&
          name.endsWith(".js") &&
          context.originModulePath.startsWith(join(ROOT, "packages/core/test"))
        ) {
          const ts = join(dirname(context.originModulePath), name.replace(/\.js$/, ".ts"));
          if (existsSync(ts)) return { type: "sourceFile", filePath: ts };
        }
        return context.resolveRequest(context, name, platform);
      },
    },
    serializer: {
      // A real app runs React Native's InitializeCore first; the prelude stands in for it.
      getModulesRunBeforeMainModule: () => [],
      createModuleIdFactory: () => (path: string) => {
        let id = paths.get(path);
        if (id === undefined) {
          id = paths.size;
          paths.set(path, id);
        }
        return id;
      },
    },
  });
  const bundle = await Metro.runBuild(config, {
    entry,
    platform: "ios",
    dev: false,
    minify: false,
    // Hermes 0.12 (hermes-engine-cli) needs classes and block scoping lowered: the `default`
    // profile, not the `hermes-stable` one that assumes a current Hermes.
    unstable_transformProfile: "default",
  });
  const modules = new Map<number, string>();
  for (const [path, id] of paths)
    modules.set(id, path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path);
  return { code: bundle.code, modules, ms: performance.now() - started };
}

/**
 * The source text of each module of a Metro bundle, by path: every `__d(factory, id, deps)`
 * definition cut at the next one.
 */
export function modulesOf(bundle: MetroBundle): Map<string, string> {
  const out = new Map<string, string>();
  const ends = [...bundle.code.matchAll(/^\},(\d+)(?:,\[[\d,]*\])?\);$/gm)];
  let start = bundle.code.indexOf("__d(");
  for (const end of ends) {
    const id = Number(end[1]);
    const path = bundle.modules.get(id) ?? `#${id}`;
    out.set(path, bundle.code.slice(start, (end.index ?? 0) + end[0].length));
    start = (end.index ?? 0) + end[0].length;
  }
  return out;
}
