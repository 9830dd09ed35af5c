import { defineConfig } from "vite";

// The app builds to dist/app; the demo server (server/) serves it with the relay on one origin.
export default defineConfig({
  root: "src",
  publicDir: false,
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
