// The events a client emits, for hooks, devtools and the demo's event log. Redacted by
// construction: no body, payload, stamp, key, OTP, mnemonic or header value but a request id.
import type { BundleWarning } from "../crypto/bundles.js";
import type { PendingEvent } from "../pending/pendingCalls.js";
import type { RequestEvent } from "../transport/http.js";
import type { PayloadEvent } from "../transport/payloadCheck.js";
import type { RetryEvent, RetryOptions } from "../transport/retry.js";
import type { SignedRequestEvent } from "../transport/signedRequestParameters.js";

// This file imports transport's event types; transport, a layer below, never imports it (it
// delivers through `transport/deliver.ts`), so the two never import each other. It sits in the
// session layer: the highest whose events it names (its own `session` event).
export { deliver } from "../transport/deliver.js";

/**
 * A session was stored, removed, refreshed or found expired; `lost` when its key could not be read
 * back at start (the browser evicted or corrupted the key store: sign in again); `rejected` when
 * the service answered 401 to a call it stamped (revoked, or ended elsewhere). The session is
 * already removed; the next signed call for its account fails with `NO_SESSION`, not a crash.
 * `expiring` (with `expiresAt`) is a warning only: the session is held and usable until then.
 */
export type SessionEvent = {
  type: "session";
  action:
    | "created"
    | "refreshed"
    | "revoked"
    | "expired"
    | "lost"
    | "rejected"
    | "expiring"
    | "signedOut";
  accountId: string;
  sessionId: string;
  expiresAt?: string;
};

/** A bundle was accepted without a trusted signature (`allowUnsignedBundles`): never silent. */
export type BundleWarningEvent = { type: "bundleWarning" } & BundleWarning;

/** Everything a client's `onEvent` receives. */
export type SignetEvent =
  | RequestEvent
  | RetryEvent
  | SignedRequestEvent
  | PayloadEvent
  | SessionEvent
  | PendingEvent
  | BundleWarningEvent;

/** Receives events; whatever it throws is ignored, so a broken sink never breaks a flow. */
export type EventSink = (event: SignetEvent) => void;

/** What every action that makes requests accepts besides its own fields. */
export type CallOptions = {
  /** Cancels the call: it rejects with `ABORTED` and sends nothing more. */
  signal?: AbortSignal | undefined;
  /**
   * Receives this call's events only (its HTTP legs, retries and waits, signed-request stages `challenge` →
   * `signing` → `submitting` → `processing` → `done`/`failed`, session changes, bundle
   * warnings), in addition to the client's `onEvent`. Redacted like those.
   */
  onEvent?: EventSink | undefined;
  /**
   * This call's retry options, over the client's `retry` (docs/architecture.md "Retries"):
   * `{ retryCount, backoff, maxRetryAfterMs, timeoutMs, shouldRetry }`, or `false` for none.
   */
  retry?: RetryOptions | undefined;
};
