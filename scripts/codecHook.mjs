// A module resolution hook for scripts that load core's sources with tsx (scripts/catalog.ts):
// core's `#codec` import resolves to its source for the default condition, as vitest.config.ts maps
// it, instead of to package.json's built `dist/` file.
const CODEC = new URL("../packages/core/src/crypto/codec-web.ts", import.meta.url).href;

/** Node's resolve hook: `#codec` from core's sources is the web codec's source. */
export async function resolve(specifier, context, next) {
  return next(specifier === "#codec" ? CODEC : specifier, context);
}
