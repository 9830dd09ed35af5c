// Every service route the emulator serves, in one table.
import type { Route } from "./http/router.js";
import { accountRoutes } from "./resources/accounts/index.js";
import { cardRoutes } from "./resources/cards.js";
import { contactChangeRoutes } from "./resources/contactChanges.js";
import { credentialRoutes } from "./resources/credentials.js";
import { customerRoutes } from "./resources/customers.js";
import { delegatedKeyRoutes } from "./resources/delegatedKeys.js";
import { exportRoutes } from "./resources/export.js";
import { quoteRoutes } from "./resources/quotes/index.js";
import { scaLoginRoutes } from "./resources/scaLogin.js";
import { scaResetRoutes } from "./resources/scaReset.js";
import { sessionRoutes } from "./resources/sessions.js";
import { signInRoutes } from "./resources/signIn.js";
import { transactionRoutes } from "./resources/transactions.js";

/** The service routes (paths relative to the versioned base URL). */
export const serviceRoutes: readonly Route[] = [
  ...customerRoutes,
  ...contactChangeRoutes,
  ...accountRoutes,
  ...credentialRoutes,
  ...signInRoutes,
  ...sessionRoutes,
  ...delegatedKeyRoutes,
  ...exportRoutes,
  ...quoteRoutes,
  ...scaLoginRoutes,
  ...scaResetRoutes,
  ...transactionRoutes,
  ...cardRoutes,
];
