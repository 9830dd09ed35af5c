// Every route of a quote, one module each: creating it, reading it, executing it, authorizing
// it under SCA, and funding it in the sandbox.
import type { Route } from "../../http/router.js";
import { authorizeRoutes } from "./authorize.js";
import { createQuoteRoute } from "./create.js";
import { executeQuoteRoute } from "./execute.js";
import { getQuoteRoute } from "./quote.js";
import { sandboxSendRoute } from "./sandboxSend.js";

/** Quote routes. */
export const quoteRoutes: Route[] = [
  createQuoteRoute,
  sandboxSendRoute,
  getQuoteRoute,
  executeQuoteRoute,
  ...authorizeRoutes,
];
