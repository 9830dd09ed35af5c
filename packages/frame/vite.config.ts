// The frame page: a static page built into dist/page/, served from the signer's own origin.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  build: { outDir: "dist/page", emptyOutDir: true, target: "es2022" },
});
