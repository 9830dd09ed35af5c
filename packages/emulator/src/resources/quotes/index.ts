// Quotes (docs/protocol.md §2–§3, §12). From an EMBEDDED_WALLET source: create with a
// `payloadToSign` in the EMBEDDED_WALLET payment instruction, and execute with a stamp header only
// (no 202, no Request-Id), idempotent by `Idempotency-Key`. From a platform internal account:
// execute without a stamp (or `immediatelyExecute`). From an external account or real-time
// funding: the quote waits PENDING for the funds its payment instructions ask for, which
// `POST /sandbox/send` delivers in the sandbox. One module per route: creating a quote, reading
// it, executing it, authorizing it under SCA, and funding it in the sandbox.
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
