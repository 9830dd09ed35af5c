// The events of a signed request (docs/architecture.md "Events"): redacted by construction.
import type { RetryReason } from "./retry.js";

/** Where a signed request is, as shown to hooks and devtools. */
export type SignedRequestStage =
  | "challenge"
  | "signing"
  | "submitting"
  | "processing"
  | "done"
  | "failed";

/**
 * One step of a signed request. Redacted by construction: it never holds a body, a
 * `payloadToSign`, a stamp or a header value other than the request id.
 */
export type SignedRequestEvent = {
  type: "signedRequest";
  /** The caller's name for the flow, e.g. `"revokeSession"`. */
  operation?: string;
  mode: "challenge" | "direct";
  method: string;
  path: string;
  stage: SignedRequestStage;
  /** 1 for the unsigned first call, 2 for the first signed call, 3 on delegated keys. */
  leg: number;
  /** Sends of the current leg so far, 1-based (on `processing`: PROCESSING answers so far). */
  attempt: number;
  status?: number;
  requestId?: string;
  /** The error code, on `failed`. */
  code?: string;
  /** The wait before the next send, on `processing` and retries. */
  delayMs?: number;
  /** Why this send is a re-send (after the `retry` event that announced its wait). */
  retryReason?: RetryReason;
};
