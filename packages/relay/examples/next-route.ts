// Next.js App Router: save as app/api/grid/[...path]/route.ts. Each method is the relay itself.
// The options are read on the first request, so `next build` (which imports this module) needs
// no platform credentials; `catchAllParam` drops the `?path=` Next appends for `[...path]`. Under
// `cacheComponents` (create-next-app's default) export neither `runtime` nor `dynamic`: a route
// handler that reads the request is dynamic already. examples/next runs this on both runtimes.
import { createRelay } from "@signet/relay";
import { userFromSessionCookie } from "./session.js";

const relay = createRelay(() => ({
  baseUrl: process.env.GRID_BASE_URL ?? "",
  tokenId: process.env.GRID_CLIENT_ID ?? "",
  clientSecret: process.env.GRID_CLIENT_SECRET ?? "",
  resolveUser: userFromSessionCookie,
  catchAllParam: "path",
}));

export const GET = relay;
export const POST = relay;
export const PATCH = relay;
export const DELETE = relay;
