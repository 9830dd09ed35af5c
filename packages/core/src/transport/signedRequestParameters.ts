// What `runSignedRequest` takes and gives back, and the events it tells (docs/architecture.md "The
// signed-request engine", "Events": redacted by construction).
import type { SignedRequestErrorCode, SignetError } from "../errors/errors.js";
import type { Clock, Transport } from "./http.js";
import type { CheckPayload, PayloadEvent } from "./payloadCheck.js";
import type { RetryEvent, RetryOptions, RetryReason } from "./retry.js";

/** What the signer is told besides the payload. */
export type SignContext = {
  /** The leg the stamp is for: 2 for the first signed call; 1 in direct mode. */
  leg: number;
  /** The credential type from the challenge, where the service gives one (OTP verify, …). */
  type?: string;
  /** The challenge's request id (challenge mode). */
  requestId?: string;
  operation?: string;
  signal?: AbortSignal;
};

/**
 * Stamps `payloadToSign` byte for byte and returns the `Grid-Wallet-Signature` value. The
 * engine does not know keys: `(payload) => stampPayload(payload, sessionKey)` is typical.
 */
export type SignPayload = (payloadToSign: string, context: SignContext) => Promise<string> | string;

type CommonParameters<TBody> = {
  transport: Transport;
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** Relative to the relay URL: `/auth/sessions/Session:…`. */
  path: string;
  /**
   * The JSON body, serialised ONCE by the caller; these exact bytes go out on every leg and
   * every re-send. Omit for bodiless `DELETE`s.
   */
  body?: string | undefined;
  sign: SignPayload;
  /**
   * Reads a copy of each payload before `sign` sees it and throws `PAYLOAD_MISMATCH` unless it
   * binds this request (docs/protocol.md §11). Required: nothing is signed unchecked.
   */
  checkPayload: CheckPayload;
  /**
   * Sign payloads of an activity type core does not know (a newer service), reporting each as a
   * `payload` event with `action: "signedUnknown"`. Default false: they are refused.
   */
  allowUnknownPayloads?: boolean | undefined;
  /**
   * The terminal success status(es): 200 (verify, export, contact update, quote execute),
   * 201 (credential add, refresh, delegated key) or 204 (revocations).
   */
  expectedStatus: number | readonly number[];
  /**
   * For 200-success endpoints: whether a 200 body means "still processing". Default: an object
   * whose `status` is `"PROCESSING"` and which has no `id` (a Quote in PROCESSING is a success).
   * When 200 is not an expected status, every 200 means processing.
   */
  isProcessing?: ((body: unknown) => boolean) | undefined;
  /** Checks and narrows the success body; thrown non-Signet errors become `MALFORMED_RESPONSE`. */
  parseBody?: ((body: unknown) => TBody) | undefined;
  /** A name for events and error details: `"revokeSession"`, `"executeQuote"`. */
  operation?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Overall time limit from the start, in ms. Default 120 000. */
  timeoutMs?: number | undefined;
  /** Absolute overall deadline in epoch ms (the earlier of this and `timeoutMs` applies). */
  deadline?: number | undefined;
  /** Per-attempt time limit passed to the transport (capped by the overall deadline). */
  attemptTimeoutMs?: number | undefined;
  /**
   * The retry policy (docs/architecture.md "Retries"), the one knob of every wait: `retryCount`
   * (retries after a network failure, a timeout or a 5xx, and after a rate limit, each per leg;
   * restarts), `backoff` (PROCESSING re-sends and transient retries), `maxRetryAfterMs` (a longer
   * `Retry-After` is final) and `shouldRetry`. Default: the defaults (3 retries, 500 ms doubling
   * to 8 s, 30 s). Through a client it is already merged: defaults, client, action, call.
   */
  retry?: RetryOptions | undefined;
  /**
   * Asked when a signed send of the run (in any pass) may have been taken without a terminal
   * answer (no answer, a 5xx, a 503, PROCESSING) and the run then ended in an answer that leaves
   * the outcome open: no answer, a 5xx, a lapse, a 401 for a spent request id, or the relay's 403
   * for a resource it no longer lists (never after a definite refusal such as a wrong code or a
   * 400). It asks the service what happened and returns the success it found (`{ status, body }`),
   * `"restart"` to start over with a fresh challenge where repeating is safe (as often as the
   * retry policy allows), or `undefined` when it cannot tell. A retryable failure of its own is
   * asked again under the retry policy. When nothing settles the outcome, an answer that would say
   * something else (the 401, the 403) becomes `OUTCOME_UNKNOWN`; no answer stays as it was.
   */
  resolveAmbiguous?:
    | ((error: SignetError) => Promise<{ status: number; body: TBody } | "restart" | undefined>)
    | undefined;
  /** The service's time (challenge expiry). Default `Date.now`. */
  clock?: Clock | undefined;
  /**
   * Local elapsed time, for `timeoutMs`: unlike `clock`, it never jumps when the client learns
   * the service's clock mid-request. Default: `clock`.
   */
  timer?: Clock | undefined;
  /** Resolves after `ms`. Injected in tests to run on a fake clock. Default `setTimeout`. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /**
   * Hears the end of the operation a signed re-send is waiting on (the service's webhook, pushed
   * by the relay; docs/protocol.md "Webhooks"): resolves with it, or `undefined` when none will
   * come, and stops when `signal` aborts. Raced with the wait after a PROCESSING answer, once a
   * leg: when it wins, the wait ends and the next re-send collects the result, checked as every
   * answer is. Default: none (the wait is only the backoff).
   */
  waitForPush?:
    | ((
        requestId: string,
        signal: AbortSignal,
        request: { method: string; path: string },
      ) => Promise<WalletOperationPush | undefined>)
    | undefined;
  /** Uniform source in [0, 1) for jitter. Default `Math.random`. */
  random?: (() => number) | undefined;
  onEvent?: ((event: SignedRequestEvent | RetryEvent | PayloadEvent) => void) | undefined;
  /**
   * Called once when the request ends (`done` or `failed`), just before its terminal event: the
   * client hands its session store's `ended` here, so that a 401 clears the session that stamped
   * the request by a call, not by reading the event stream (docs/architecture.md "Sessions").
   */
  onEnd?: ((end: SignedRequestEnd) => void) | undefined;
  /**
   * Told before each wait after a PROCESSING answer (docs/protocol.md §2.5): in challenge mode
   * with what re-sends the stamped request, which the client may persist so that a reload or
   * another tab can carry the call to its end (`pending/`); in direct mode with the call's id
   * and attempt only (such a call is shown pending, never kept). Holds the stamp: never put in
   * an event or a log.
   */
  onStillProcessing?: ((stamped: StampedRequest | DirectProcessing) => void) | undefined;
  /**
   * Carries on a signed leg sent before (a reload's resume): the first send is this stamped
   * request, as it went, under its request id; nothing is signed and nothing starts over (a lapse
   * ends the run, as a 202 does: there is no key here to sign with).
   */
  resumeFrom?: ResumeFrom | undefined;
};

/** A signed leg to send again as it went: its request id, its stamp, its challenge's expiry. */
export type ResumeFrom = {
  requestId: string;
  /** The `Grid-Wallet-Signature` value. Secret. */
  signature: string;
  /** The challenge's expiry, epoch ms on the service's clock. */
  expiresAtMs: number;
};

/** The signed leg being re-sent while the service answers PROCESSING, for `onStillProcessing`. */
export type StampedRequest = ResumeFrom & {
  method: string;
  path: string;
  body: string | undefined;
  expectedStatus: number | readonly number[];
  /** PROCESSING answers to this leg so far (1 on the first). */
  attempt: number;
};

/**
 * A direct-mode call (quote execute, a contact-change submit) answered PROCESSING, for
 * `onStillProcessing`: no `Request-Id`, no challenge, so nothing a reload could re-send under
 * the service's signed-retry rules. `requestId` names the call: its `Idempotency-Key`, or, where
 * none is sent, an id made on the device for the call (never sent).
 */
export type DirectProcessing = {
  mode: "direct";
  requestId: string;
  /** PROCESSING answers so far (1 on the first). */
  attempt: number;
};

/** The 202 → stamp → re-send protocol of every signed endpoint but quote execute. */
export type ChallengeModeParameters = {
  mode?: "challenge" | undefined;
  /**
   * Legs allowed, the unsigned one included. Default 2; delegated keys need 3. A further 202 is
   * refused: nothing the backend answers makes the device sign more than its operation signs.
   */
  maxLegs?: number | undefined;
  /**
   * Start over from leg 1 with a fresh challenge when the challenge lapses (locally, or a 401 for
   * an expired request id), as often as the retry policy's `retryCount` allows (at least once).
   * Default (`undefined`): when no signed send of the lapsed leg may have been taken (none went
   * unanswered, got a 5xx or PROCESSING), which proves that nothing happened. `true`: always,
   * for flows that are safe to repeat with the same body. `false`: never.
   */
  restartOnExpiry?: boolean | undefined;
};

/** Quote execute: one signed request, signature header only, no 202, no `Request-Id`. */
export type DirectModeParameters = {
  mode: "direct";
  /** The payload to stamp before sending (the quote's `payloadToSign`). */
  payloadToSign: string;
  /**
   * The `Idempotency-Key` for this execute. Default: generated once with `generateId` and
   * reused on every retry of this call. `false`: none is sent, for an endpoint whose path
   * correlates the re-sends (a contact-change submit, whose `changeId` does).
   */
  idempotencyKey?: string | false | undefined;
  /** Makes the key. Default `generateIdempotencyKey()` (`crypto.getRandomValues`); a client passes its crypto backend's source. */
  generateId?: (() => string) | undefined;
};

/** Parameters of `runSignedRequest`. `TBody` is the success body's type. */
export type RunSignedRequestParameters<TBody = unknown> = CommonParameters<TBody> &
  (ChallengeModeParameters | DirectModeParameters);

/** What `runSignedRequest` resolves to. */
export type RunSignedRequestReturnType<TBody = unknown> = {
  /** The terminal success status. */
  status: number;
  /** Parsed JSON (through `parseBody` when given); `undefined` for 204 or an empty body. */
  body: TBody;
  /** The request id of the leg that succeeded (challenge mode). */
  requestId?: string;
  /** The `Idempotency-Key` sent (direct mode). */
  idempotencyKey?: string;
  /** Legs sent in the final run (2 for most endpoints, 3 for delegated keys, 1 in direct mode). */
  legs: number;
  /** HTTP requests sent in total, re-sends and restarts included. */
  attempts: number;
  /** Fresh starts with a new challenge (a lapse, or `resolveAmbiguous`). */
  restarts: number;
  /** `true` when `resolveAmbiguous` found the outcome instead of the service's answer. */
  resolved?: true;
};

/** Errors `runSignedRequest` throws: always a `SignetError` (see its TSDoc for the codes). */
export type RunSignedRequestErrorType = SignetError<SignedRequestErrorCode>;

/** Where a signed request is, as shown to hooks and devtools. */
export type SignedRequestStage =
  | "challenge"
  | "signing"
  | "submitting"
  | "processing"
  | "pushed"
  | "done"
  | "failed";

/**
 * The end of a wallet operation as the service's webhook tells it (its #802:
 * `WALLET_OPERATION.COMPLETED` / `.FAILED`), pushed to the waiting device by the relay. It only
 * ends the wait: the result is what the next re-send answers, checked as every answer is.
 */
export type WalletOperationPush = {
  /** The signed request's `Request-Id` the operation ran under. */
  requestId: string;
  operationType:
    | "auth_credential.create"
    | "auth_credential.delete"
    | "session.revoke"
    | "wallet.export";
  status: "completed" | "failed";
  /** The resource it affected; for `auth_credential.create`, the new credential's id. */
  resourceId: string;
  /** The service's failure code, on `failed`. */
  errorCode?: string;
};

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
  /** On `pushed`: the operation's end as the service's webhook told it, before the re-send that collects it. */
  push?: WalletOperationPush;
};

/** How a signed request ended: the fields of its terminal event that say which request and why. */
export type SignedRequestEnd = Pick<
  SignedRequestEvent,
  "mode" | "operation" | "requestId" | "status" | "code"
> & { stage: "done" | "failed" };
