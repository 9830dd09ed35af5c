// Express: mount the Node adapter BEFORE any body parser, so the raw body bytes reach the relay.
import { type RelayHandler, toNodeHandler } from "@signet/relay";
import express, { type Express } from "express";

export function createExpressApp(relay: RelayHandler): Express {
  const app = express();
  // The adapter reads req.originalUrl, so the full /api/grid/… path reaches the relay.
  app.use("/api/grid", toNodeHandler(relay));
  app.use(express.json());
  app.post("/api/profile", (req, res) => {
    res.json({ received: req.body });
  });
  return app;
}
