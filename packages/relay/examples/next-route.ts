// Next.js App Router: save as app/api/grid/[...path]/route.ts. Each method is the relay itself.
import { createRelay } from "@signet/relay";
import { userFromSessionCookie } from "./session.js";

const relay = createRelay({
  baseUrl: process.env.GRID_BASE_URL ?? "",
  tokenId: process.env.GRID_CLIENT_ID ?? "",
  clientSecret: process.env.GRID_CLIENT_SECRET ?? "",
  resolveUser: userFromSessionCookie,
});

export const GET = relay;
export const POST = relay;
export const PATCH = relay;
export const DELETE = relay;
// The relay uses only web-standard APIs: "edge" works too.
export const runtime = "nodejs";
// Never cache relay answers.
export const dynamic = "force-dynamic";
