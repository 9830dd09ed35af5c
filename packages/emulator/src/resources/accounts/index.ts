// Every route on accounts, one module each: the lists of internal accounts, a wallet's privacy,
// sandbox funding, and external accounts.
import type { Route } from "../../http/router.js";
import { externalAccountRoutes } from "./external.js";
import { fundAccountRoute } from "./fund.js";
import { internalAccountRoutes } from "./internal.js";
import { updateInternalAccountRoute } from "./privacy.js";
import { trustRoutes } from "./trust.js";

/** Account routes. */
export const accountRoutes: Route[] = [
  ...internalAccountRoutes,
  updateInternalAccountRoute,
  fundAccountRoute,
  ...externalAccountRoutes,
  ...trustRoutes,
];
