import type { NextConfig } from "next";

// `SIGNET_NEXT_EDGE=1 next build` builds the edge variant into .next-edge: without
// cacheComponents, which refuses every `runtime` segment config (edge included), and with the
// edge-runtime relay of app/api/grid-edge/[...path]/route.edge.ts (a page extension that only
// this variant reads).
const edge = process.env.SIGNET_NEXT_EDGE === "1";

const nextConfig: NextConfig = {
  // As create-next-app 16 sets it: `dynamic` and `runtime` segment config are refused, and
  // whatever is read per request needs <Suspense>.
  cacheComponents: !edge,
  partialPrefetching: !edge,
  pageExtensions: edge ? ["edge.ts", "tsx", "ts"] : ["tsx", "ts"],
  distDir: edge ? ".next-edge" : ".next",
  turbopack: {
    // @hpke/common (under @signet/core) keeps a Node 18 fallback, `await import("crypto")`, that
    // no browser reaches (globalThis.crypto is always there), yet Turbopack bundles a
    // crypto-browserify polyfill for it (137 KiB gzip) into every build. An empty module stands
    // in for it, in the browser bundle only.
    resolveAlias: { crypto: { browser: "./lib/empty.ts" } },
  },
};

export default nextConfig;
