import { defineConfig, type Plugin } from "vite";

// @hpke/common falls back to Node's `crypto` module only where the page has no Web Crypto; in the
// browser it never gets there. Its `import("crypto")` gets a module of the page's own Web Crypto
// (no polyfill), so Vite has nothing to externalise and warn about.
const HPKE_CRYPTO = "\0signet-demo:hpke-crypto";
const hpkeCrypto: Plugin = {
  name: "signet-demo-hpke-crypto",
  enforce: "pre",
  resolveId(id, importer) {
    if ((id === "crypto" || id === "node:crypto") && importer?.includes("@hpke"))
      return HPKE_CRYPTO;
    return null;
  },
  load(id) {
    if (id === HPKE_CRYPTO)
      return "export const webcrypto = globalThis.crypto;\nexport default { webcrypto };\n";
    return null;
  },
};

// The app builds to dist/app; the demo server (server/) serves it with the relay on one origin.
export default defineConfig({
  root: "src",
  publicDir: false,
  plugins: [hpkeCrypto],
  oxc: { jsx: { runtime: "automatic" } },
  build: {
    outDir: "../dist/app",
    emptyOutDir: true,
    // No inline script or style: the page's Content-Security-Policy allows only 'self'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: {
      // @signet/react marks its modules "use client" for React Server Components; a client-only
      // bundle has nothing to do with the directive.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
});
