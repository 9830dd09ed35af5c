// The demo endpoints, one handler per route ("METHOD /path"): the route table the server looks
// requests up in.
import type { DemoRoute } from "../context.js";
import { accountRoutes } from "./account.js";
import { contactRoutes } from "./contact.js";
import { moneyRoutes } from "./money.js";
import { walletRoutes } from "./wallet.js";

export const DEMO_ROUTES: Readonly<Record<string, DemoRoute>> = Object.freeze({
  ...accountRoutes,
  ...moneyRoutes,
  ...contactRoutes,
  ...walletRoutes,
});
