// The events a client emits, for hooks, devtools and the demo's event log. Redacted by
// construction: no body, payload, stamp, key, OTP, mnemonic or header value but a request id.
import type { BundleWarning } from "./crypto/bundles.js";
import type { RequestEvent } from "./transport/http.js";
import type { SignedRequestEvent } from "./transport/signedRequest.js";

/** A session was stored, removed, refreshed or found expired. */
export type SessionEvent = {
  type: "session";
  action: "created" | "refreshed" | "revoked" | "expired" | "signedOut";
  accountId: string;
  sessionId: string;
  expiresAt?: string;
};

/** A bundle was accepted without a trusted signature (`allowUnsignedBundles`): never silent. */
export type BundleWarningEvent = { type: "bundleWarning" } & BundleWarning;

/** Everything a client's `onEvent` receives. */
export type SignetEvent = RequestEvent | SignedRequestEvent | SessionEvent | BundleWarningEvent;
