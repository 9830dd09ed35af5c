// Issue #39: `@signet/core/jest`, the jest-expo preset for an app's own tests. Its full proof is
// test/expo-app (a fresh template app whose journey passes with only the preset, run by
// scripts/expo-app.mjs); these check its parts: what it changes in jest-expo's preset, the
// cookie-keeping fetch against a real local server, the in-memory native stores, and that no
// entry point an app bundles reaches it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withSignet } from "../../src/jest/config.js";
import {
  createCookieFetch,
  createMemorySecureStore,
  createMemorySettingsManager,
  SIGNET_PACKAGES,
} from "../../src/jest/index.js";

// jest-expo 57's preset, in the parts withSignet reads (its transform and ignore patterns as
// jest-expo/jest-preset.js writes them).
const expoPreset = {
  transform: {
    "\\.[jt]sx?$": ["babel-jest", { caller: { name: "metro", bundler: "metro", platform: "ios" } }],
    "^.+\\.(bmp|png)$": "/x/jest-expo/src/preset/assetFileTransformer.js",
  },
  transformIgnorePatterns: [
    "/node_modules/(?!(.pnpm|react-native|@react-native|expo|@expo))",
    "/node_modules/react-native-reanimated/plugin/",
  ],
  testEnvironment: "/x/@react-native/jest-preset/jest/react-native-env.js",
  setupFiles: ["/x/@react-native/jest-preset/jest/setup.js", "/x/jest-expo/src/preset/setup.js"],
} as const;

describe("withSignet: jest-expo's preset with what Signet needs", () => {
  const preset = withSignet(structuredClone(expoPreset) as never);

  it("lets Signet and its ES-module-only libraries through the node_modules pattern, keeping jest-expo's", () => {
    const [pattern, reanimated] = preset.transformIgnorePatterns ?? [];
    const ignored = (path: string) => new RegExp(pattern!).test(path);
    for (const name of [...SIGNET_PACKAGES, "expo", "react-native"])
      expect(ignored(`/app/node_modules/${name}/dist/index.js`), name).toBe(false);
    expect(ignored("/app/node_modules/lodash/index.js")).toBe(true);
    expect(reanimated).toBe("/node_modules/react-native-reanimated/plugin/");
  });

  it("adds @babel/plugin-transform-dynamic-import to babel-jest only, keeping its options", () => {
    const [name, options] = preset.transform!["\\.[jt]sx?$"] as [string, Record<string, unknown>];
    expect(name).toBe("babel-jest");
    expect(options.caller).toEqual({ name: "metro", bundler: "metro", platform: "ios" });
    expect(options.plugins).toEqual([
      expect.stringMatching(/@babel[\\/]plugin-transform-dynamic-import[\\/]/),
    ]);
    expect(preset.transform?.["^.+\\.(bmp|png)$"]).toBe(expoPreset.transform["^.+\\.(bmp|png)$"]);
  });

  it("wraps the preset's environment and runs its setup after the preset's own", () => {
    expect(preset.testEnvironment).toBe(
      fileURLToPath(new URL("../../src/jest/environment.js", import.meta.url)),
    );
    expect(preset.testEnvironmentOptions?.signetBaseEnvironment).toBe(expoPreset.testEnvironment);
    expect(preset.setupFiles?.slice(0, 2)).toEqual(expoPreset.setupFiles);
    expect(preset.setupFiles?.[2]).toMatch(/jest[\\/]setup\.js$/);
  });
});

describe("createCookieFetch against a real server", () => {
  let server: Server;
  let origin: string;
  const seen: (string | undefined)[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.headers.cookie);
      if (request.url === "/login") response.setHeader("set-cookie", ["sid=abc; HttpOnly", "t=1"]);
      if (request.url === "/logout") response.setHeader("set-cookie", "sid=; Max-Age=0");
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("sends back what the server set, per host, and forgets a cookie set to expire", async () => {
    const device = createCookieFetch(fetch);
    await device(`${origin}/before`);
    await device(`${origin}/login`);
    await device(`${origin}/me`, { headers: { accept: "application/json" } });
    await device(`${origin}/logout`);
    await device(`${origin}/after`);
    // Another device (another jar) and another host name have none.
    await createCookieFetch(fetch)(`${origin}/other-device`);
    await device(`${origin.replace("127.0.0.1", "localhost")}/other-host`);
    expect(seen).toEqual([
      undefined,
      undefined,
      "sid=abc; t=1",
      "sid=abc; t=1",
      "t=1",
      undefined,
      undefined,
    ]);
  });
});

describe("the in-memory native stores", () => {
  it("expo-secure-store's item calls, kept apart by keychainService", async () => {
    const store = createMemorySecureStore();
    await store.setItemAsync("k", "a");
    await store.setItemAsync("k", "b", { keychainService: "other" });
    expect(await store.getItemAsync("k")).toBe("a");
    expect(store.getItem("k", { keychainService: "other" })).toBe("b");
    await store.deleteItemAsync("k");
    expect(await store.getItemAsync("k")).toBeNull();
    expect(await store.isAvailableAsync()).toBe(true);
  });

  it("React Native's SettingsManager: values read back through getConstants, deletable", () => {
    const settings = createMemorySettingsManager();
    settings.setValues({ "signet.installed": "1" });
    expect(settings.getConstants().settings).toEqual({ "signet.installed": "1" });
    settings.deleteValues(["signet.installed"]);
    expect(settings.getConstants().settings).toEqual({});
  });
});

describe("what an app ships", () => {
  it("no entry point an app imports reaches the jest entry", async () => {
    const entries = [
      "index.native.ts",
      "index.ts",
      "react-native/expo-secure-store.ts",
      "react-native/react-native-keychain.ts",
      "react-native/react-native-passkeys.ts",
    ].map((entry) => fileURLToPath(new URL(`../../src/${entry}`, import.meta.url)));
    const result = await build({
      entryPoints: entries,
      bundle: true,
      write: false,
      metafile: true,
      splitting: true,
      format: "esm",
      // Nothing is written (`write: false`); esbuild only needs a directory to name the chunks.
      outdir: join(tmpdir(), "signet-jest-entry-check"),
      platform: "neutral",
      external: [
        "react-native",
        "expo-secure-store",
        "react-native-keychain",
        "react-native-passkeys",
      ],
      alias: { "#codec": fileURLToPath(new URL("../../src/crypto/codec.ts", import.meta.url)) },
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.length).toBeGreaterThan(50);
    expect(inputs.filter((input) => input.includes("/jest/"))).toEqual([]);
  });
});
