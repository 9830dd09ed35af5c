// Hono (Node, Bun, Deno, Cloudflare Workers): the relay is already a fetch handler.
import type { RelayHandler } from "@signet/relay";
import { Hono } from "hono";

export function createHonoApp(relay: RelayHandler): Hono {
  const app = new Hono();
  // c.req.raw is the untouched web Request: its body has not been read.
  app.all("/api/grid/*", (c) => relay(c.req.raw));
  app.get("/", (c) => c.text("app"));
  return app;
}
