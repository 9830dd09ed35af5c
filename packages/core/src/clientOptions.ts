// createClient's options (docs/architecture.md "One client carries every seam") and the checks
// that make a configuration mistake fail at creation.

import type { StepUpAction } from "./catalog/stepUpActions.js";
import type { CryptoApi } from "./crypto/api.js";
import { assertArgument } from "./errors/errors.js";
import type { KeyStore } from "./keys/key-store.js";
import type { PendingStore } from "./pending/pendingStore.js";
import type { AppStateSource } from "./session/appState.js";
import type { SignetEvent } from "./session/events.js";
import type { Clock, FetchFunction } from "./transport/http.js";
import type { BackoffOptions, RetryOptions } from "./transport/retry.js";
import type { WebAuthnProvider } from "./webauthn/types.js";

/** `createClient`'s `stepUp`: which actions need a recent sign-in, and how recent. */
export type StepUpOptions = {
  /**
   * The actions to guard, or `"sensitive"`: every action whose catalog row is marked sensitive
   * (export, adding or removing credentials, contact changes, delegated keys, SCA factor changes,
   * trusting a beneficiary).
   */
  actions: readonly StepUpAction[] | "sensitive";
  /** How long a sign-in by passkey or code counts, in ms. Default 15 minutes. */
  maxAgeMs?: number | undefined;
};

/** Parameters of `createClient`. Every seam is optional but `relayUrl`. */
export type CreateClientParameters = {
  /** Where the app's `@signet/relay` is mounted: `/api/grid` or `https://app.example/api/grid`. */
  relayUrl: string;
  /** Default `globalThis.fetch`, looked up per request. */
  fetch?: FetchFunction | undefined;
  /**
   * `fetch`'s `credentials` for every relay request. Leave it out for a relay on the page's own
   * origin (cookies go by default); `"include"` for a relay on another origin that authenticates
   * the user by cookie (the relay must then answer CORS with credentials).
   */
  credentials?: RequestCredentials | undefined;
  /**
   * Time limit of one HTTP attempt in ms, reading the body included; a slower attempt fails as
   * `TIMEOUT` and the retry policy decides what follows. Default 30 000.
   */
  requestTimeoutMs?: number | undefined;
  /** Headers for every relay request (the app's own auth), or a function returning them. */
  headers?:
    | Record<string, string>
    | (() => Record<string, string> | Promise<Record<string, string>>)
    | undefined;
  /**
   * Where session keys live. Browser default: IndexedDB with a memory fallback (see
   * `persistence`). React Native: pass `createStringKeyStore` over a secure store.
   */
  keyStore?: KeyStore | undefined;
  /** Passkey ceremonies. Browser default: `navigator.credentials`; React Native: an adapter. */
  webauthn?: WebAuthnProvider | undefined;
  /** The crypto implementation. Default: WebCrypto (browser, Node), noble (`react-native`). */
  crypto?: CryptoApi | undefined;
  /** Time source. Default `Date.now`. */
  clock?: Clock | undefined;
  /** Waits between retries; injectable for tests. Default `setTimeout`. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: (() => number) | undefined;
  /** Receives every event (HTTP legs, signed-request stages, sessions, bundle warnings), redacted. */
  onEvent?: ((event: SignetEvent) => void) | undefined;
  /**
   * Trusted signers of OTP target bundles and export bundles (uncompressed hex). Default: the
   * pinned production keys. For the emulator, from its `GET /_emulator/keys`:
   * `{ otpTargetBundle: [attestationPublicKey], exportBundle: [signerPublicKey] }`.
   */
  trustedKeys?:
    | { otpTargetBundle?: readonly string[]; exportBundle?: readonly string[] }
    | undefined;
  /**
   * Sign a `payloadToSign` whose activity type this version of core does not know (a newer
   * service), reporting each one as a `payload` event (`action: "signedUnknown"`). Default false:
   * such payloads are refused with `PAYLOAD_MISMATCH`, like any payload that does not bind the
   * device's own request (a payload core knows is always checked, whatever this says).
   */
  allowUnknownPayloads?: boolean | undefined;
  /**
   * How `changeContact` changes the email or phone number: `"patch"`, the `PATCH /customers/{id}`
   * contact fields (deprecated by the service but working; the default until it ships the
   * resource), or `"resource"`, the contact-change resource of the service's pull request #853
   * (`POST /customers/{id}/contact-changes`, then a signed submit). The relay forwards both.
   */
  contactChanges?: "patch" | "resource" | undefined;
  /**
   * Hear the end of a PROCESSING wallet operation as soon as the service's webhook reaches the
   * relay (a credential added or removed, a session revoked, a wallet exported; the service's
   * #802), instead of only at the next backoff re-send. Needs the relay's `webhooks` option; the
   * client then long-polls `GET {relayUrl}/wallet-operations/{requestId}` while it waits, and the
   * push only ends the wait: one re-send collects the result, checked as always. Default false
   * (polling alone). The listener is a chunk of its own, loaded only when this is on.
   */
  push?: boolean | undefined;
  /**
   * Where a call the service still answers PROCESSING for is kept, so that a reload or another
   * tab carries it to its end (core README "Calls still processing"). Default: IndexedDB where the
   * key store is IndexedDB (a browser), else memory (a reload loses the call).
   */
  pendingStore?: PendingStore | undefined;
  /**
   * Carry kept calls on when the client is made (wagmi's reconnect-on-mount): default `true`.
   * `false`: only when the app calls `client.pending.resume()`.
   */
  resumePending?: boolean | undefined;
  /**
   * Step-up before sensitive actions (docs/security.md "Step-up"): an action it names, called when
   * the account's user last signed in by passkey or by code (`Session.verifiedAt`; a refresh keeps
   * the time, an OAuth sign-in gives none) longer than `maxAgeMs` ago, fails with
   * `STEP_UP_REQUIRED` before anything is signed or sent; `stepUp` verifies again. Off by default,
   * so that an app that upgrades keeps working as it did (its users are not asked for a passkey or
   * a code it never asked for); we recommend `{ actions: "sensitive" }`, which asks for a sign-in
   * within 15 minutes before an export, a credential, contact or SCA factor change, a delegated
   * key or a trusted beneficiary.
   */
  stepUp?: StepUpOptions | undefined;
  /** Accept unsigned bundles (sandbox, emulator); each acceptance emits a `bundleWarning`. Default false. */
  allowUnsignedBundles?: boolean | undefined;
  /**
   * Refresh a held session this long before it expires, while the client is alive (`true`: one
   * minute). Default off. A margin of 15 minutes or more would loop and is refused.
   */
  autoRefresh?: { marginMs?: number } | boolean | undefined;
  /**
   * Warn this long before a held session expires: a `session` event with `action: "expiring"`,
   * and `expiring` in `useSession`. Default one minute; `false`: no warning. A margin of 15
   * minutes or more is refused.
   */
  sessionWarning?: { marginMs?: number } | boolean | undefined;
  /**
   * Tells when the app returns to the foreground, to check held sessions again after a sleep.
   * Browser default: `visibilitychange`, `focus`, `pageshow`, subscribed to on first use. React
   * Native: pass one over `AppState` (see `AppStateSource`).
   */
  appState?: AppStateSource | undefined;
  /**
   * The retry policy of every request (docs/architecture.md "Retries"): `retryCount` (default 3),
   * `backoff` (500 ms doubling to 8 s, full jitter), `maxRetryAfterMs` (30 s), `timeoutMs` of an
   * unsigned call with its retries (120 s) and `shouldRetry`. Each call may override it
   * (`{ retry }` beside `signal`); `false` turns retries off.
   */
  retry?: RetryOptions | undefined;
  /**
   * Defaults for signed requests: the overall timeout (default 120 s until a challenge is held,
   * then the challenge's `expiresAt`).
   */
  signedRequests?:
    | {
        timeoutMs?: number;
        /**
         * @deprecated Use `retry: { backoff }`, the one policy of every wait. Still honoured,
         * for every request, as the client's `retry.backoff` (the client's `retry` wins).
         */
        backoff?: Partial<BackoffOptions>;
      }
    | undefined;
};

/**
 * Configuration mistakes fail at creation, never as a retryable `NETWORK` error later: a
 * `relayUrl` that is neither an http(s) URL nor a path, `trustedKeys` of another shape. (A path
 * where no page origin exists fails on the first request instead, so that creating a client
 * during server-side rendering still works.)
 */
export function checkOptions(parameters: CreateClientParameters): void {
  const { relayUrl, trustedKeys, credentials, requestTimeoutMs, contactChanges, stepUp } =
    parameters ?? {};
  // A misspelt action would leave it unguarded without a word: refused at creation (entry.ts
  // checks each name against the lazy actions, which this layer does not see).
  assertArgument(
    stepUp === undefined ||
      ((stepUp.actions === "sensitive" || Array.isArray(stepUp.actions)) &&
        (stepUp.maxAgeMs === undefined ||
          (typeof stepUp.maxAgeMs === "number" &&
            Number.isFinite(stepUp.maxAgeMs) &&
            stepUp.maxAgeMs > 0))),
    "stepUp",
    '{ actions: "sensitive" or StepUpAction names, maxAgeMs?: ms > 0 }',
    JSON.stringify(stepUp) ?? String(stepUp),
  );
  assertArgument(
    contactChanges === undefined || contactChanges === "patch" || contactChanges === "resource",
    "contactChanges",
    '"patch" or "resource"',
    String(contactChanges),
  );
  assertArgument(
    typeof relayUrl === "string" && /^(https?:\/\/[^/?#]|\/(?!\/))/i.test(relayUrl),
    "relayUrl",
    "an http(s) URL, or a path in a page",
    JSON.stringify(relayUrl) ?? "undefined",
  );
  // An array, a string or a misspelt kind would otherwise fail later as BUNDLE_SIGNER_UNTRUSTED.
  for (const [kind, keys] of Object.entries(trustedKeys ?? {}))
    assertArgument(
      !Array.isArray(trustedKeys) &&
        /^(otpTargetBundle|exportBundle)$/.test(kind) &&
        Array.isArray(keys),
      "trustedKeys",
      "{ otpTargetBundle?, exportBundle? }, arrays of hex public keys",
      kind,
    );
  assertArgument(
    credentials === undefined || /^(omit|same-origin|include)$/.test(String(credentials)),
    "credentials",
    '"omit", "same-origin" or "include"',
    String(credentials),
  );
  assertArgument(
    requestTimeoutMs === undefined ||
      (typeof requestTimeoutMs === "number" &&
        Number.isFinite(requestTimeoutMs) &&
        requestTimeoutMs > 0),
    "requestTimeoutMs",
    "a positive number of ms",
    String(requestTimeoutMs),
  );
}
