// Every service route the emulator serves, in one table.
import type { Route } from "./http/router.js";
import { accountRoutes } from "./resources/accounts.js";
import { credentialRoutes } from "./resources/credentials.js";
import { customerRoutes } from "./resources/customers.js";
import { sessionRoutes } from "./resources/sessions.js";
import { signInRoutes } from "./resources/signIn.js";

/** The service routes (paths relative to the versioned base URL). */
export const serviceRoutes: readonly Route[] = [
  ...customerRoutes,
  ...accountRoutes,
  ...credentialRoutes,
  ...signInRoutes,
  ...sessionRoutes,
];
