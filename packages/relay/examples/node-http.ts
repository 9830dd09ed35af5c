// Node's http server: the relay under /api/grid/, the rest of the app beside it.
import { createServer, type Server } from "node:http";
import { type RelayHandler, toNodeHandler } from "@signet/relay";

export function createAppServer(relay: RelayHandler): Server {
  const relayListener = toNodeHandler(relay);
  return createServer((req, res) => {
    if (req.url?.startsWith("/api/grid/")) {
      void relayListener(req, res);
      return;
    }
    res.statusCode = 404;
    res.end("not found");
  });
}

// In production:
// const relay = createRelay({
//   baseUrl: process.env.GRID_BASE_URL!,
//   tokenId: process.env.GRID_CLIENT_ID!,
//   clientSecret: process.env.GRID_CLIENT_SECRET!,
//   resolveUser: userFromSessionCookie,
// });
// createAppServer(relay).listen(3000);
