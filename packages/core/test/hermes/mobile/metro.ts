// Test-only: bundles the mobile app's code (apps/mobile) with the app's own Metro configuration
// (apps/mobile/metro.config.js: Expo's defaults, its workspace resolution, one React) and Expo's
// Metro and Babel preset, as `expo export` does for a release build, with these differences, each
// because the Linux `hermes` CLI of hermes-engine-cli (Hermes 0.12) is not a phone:
// - the entry is ./app.ts (the app's journeys module and Signet client), not expo-router's entry:
//   no screen renders here (the jest-expo journeys drive the screens);
// - native modules with no JavaScript are the harness's stand-ins (expo-secure-store,
//   react-native-passkeys, react-native-get-random-values, expo-constants), and so is the
//   `Platform` and `Settings` of react-native that the secure-store adapter reads;
// - nothing runs before the entry: React Native's InitializeCore and Expo's runtime set up what
//   the flow prelude (../flow-prelude.js) supplies instead (fetch, timers, AbortController);
// - the transform profile is `default` (Babel's hermes-v0 settings, which lower classes and block
//   scoping) where the device build uses `hermes-stable` for React Native 0.85's Hermes;
// - the helpers of what only that profile lowers (destructuring, …) come from the @babel/runtime
//   that babel-preset-expo itself depends on: the app declares none of its own;
// - the output is source for the CLI, not the bytecode `expo export` compiles with hermesc.
// `EXPO_PUBLIC_SIGNET_SERVER` is inlined at build time, as for a phone run.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const HARNESS = join(here, "..");
const ROOT = join(here, "..", "..", "..", "..", "..");
export const MOBILE_APP = join(ROOT, "apps", "mobile");
/** The entry this harness bundles: the app's journeys, driven as its screens would. */
export const MOBILE_ENTRY = join(here, "app.ts");

/** Native modules → their stand-ins (the flow harness's, plus expo-constants). */
const STAND_INS: Record<string, string> = {
  "expo-secure-store": join(HARNESS, "app/native/expo-secure-store.ts"),
  "react-native": join(HARNESS, "app/native/react-native.ts"),
  "react-native-passkeys": join(HARNESS, "app/native/react-native-passkeys.ts"),
  "react-native-get-random-values": join(HARNESS, "app/native/react-native-get-random-values.ts"),
  "expo-constants": join(here, "native/expo-constants.ts"),
};

type Resolution = { type: "sourceFile"; filePath: string } | { type: string };
type ResolutionContext = { originModulePath: string; resolveRequest: ResolveRequest };
type ResolveRequest = (
  context: ResolutionContext,
  name: string,
  platform: string | null,
) => Resolution;
type MetroConfig = {
  resolver: Record<string, unknown> & { resolveRequest?: ResolveRequest };
  serializer: Record<string, unknown>;
  [key: string]: unknown;
};
type Metro = {
  runBuild(config: MetroConfig, options: Record<string, unknown>): Promise<{ code: string }>;
};

export type MobileBundle = {
  code: string;
  /** Path (relative to the repository root, node_modules folded to the package) of each module. */
  modules: string[];
  ms: number;
};

/**
 * Bundles `entry` with apps/mobile/metro.config.js for iOS, release mode, not minified, with the
 * app's server address inlined.
 * @throws when Metro cannot resolve or transform a module.
 */
export async function bundleMobileApp(parameters: {
  server: string;
  entry?: string;
}): Promise<MobileBundle> {
  const started = performance.now();
  const appRequire = createRequire(join(MOBILE_APP, "package.json"));
  // Expo's Metro (the one `expo export` runs), found from the app's own `expo`.
  const expoRequire = createRequire(appRequire.resolve("expo/package.json"));
  const Metro = expoRequire("@expo/metro/metro") as Metro;
  const presetRequire = createRequire(appRequire.resolve("babel-preset-expo/package.json"));
  const previous = process.env.EXPO_PUBLIC_SIGNET_SERVER;
  process.env.EXPO_PUBLIC_SIGNET_SERVER = parameters.server;
  try {
    const base = appRequire(join(MOBILE_APP, "metro.config.js")) as MetroConfig;
    const upstream = base.resolver.resolveRequest;
    const ids = new Map<string, number>();
    const config: MetroConfig = {
      ...base,
      // No cache on disk: every run transforms what is there now.
      cacheStores: [],
      maxWorkers: 2,
      reporter: { update() {} },
      resolver: {
        ...base.resolver,
        useWatchman: false,
        resolveRequest(context: ResolutionContext, name: string, platform: string | null) {
          const standIn = STAND_INS[name];
          if (standIn !== undefined) return { type: "sourceFile", filePath: standIn };
          if (name.startsWith("@babel/runtime/"))
            return { type: "sourceFile", filePath: presetRequire.resolve(name) };
          // The harness's TypeScript imports its siblings as `./x.js` (Node16 resolution).
          if (
            name.startsWith(".") &&
            name.endsWith(".js") &&
            context.originModulePath.startsWith(HARNESS)
          ) {
            const ts = join(dirname(context.originModulePath), name.replace(/\.js$/, ".ts"));
            if (existsSync(ts)) return { type: "sourceFile", filePath: ts };
          }
          return (upstream ?? context.resolveRequest)(context, name, platform);
        },
      },
      serializer: {
        ...base.serializer,
        // A phone runs React Native's InitializeCore and Expo's runtime first; the prelude stands in.
        getModulesRunBeforeMainModule: () => [],
        createModuleIdFactory: () => (path: string) => {
          let id = ids.get(path);
          if (id === undefined) {
            id = ids.size;
            ids.set(path, id);
          }
          return id;
        },
      },
    };
    const bundle = await Metro.runBuild(config, {
      entry: parameters.entry ?? MOBILE_ENTRY,
      platform: "ios",
      dev: false,
      minify: false,
      unstable_transformProfile: "default",
    });
    const modules = [...ids.keys()].map((path) =>
      (path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path).replace(
        /^node_modules\/\.pnpm\/[^/]+\/node_modules\//,
        "",
      ),
    );
    return { code: bundle.code, modules, ms: performance.now() - started };
  } finally {
    if (previous === undefined) delete process.env.EXPO_PUBLIC_SIGNET_SERVER;
    else process.env.EXPO_PUBLIC_SIGNET_SERVER = previous;
  }
}
