// Emulator options and their defaults, resolved in one place.

/** WebAuthn relying-party settings the emulator verifies passkeys against. */
export type WebAuthnOptions = {
  /** RP ID expected in authenticator data. Default `"localhost"` (WebAuthn rejects IP addresses). */
  rpId?: string;
  /** Origins accepted in `clientDataJSON`. Default `["http://localhost:5173"]` (the demo). */
  origins?: readonly string[];
};

/** Sandbox-style OIDC settings (token signatures are not checked, as in the sandbox). */
export type OidcOptions = {
  /** Accepted `iss` values. Default: Google (`https://accounts.google.com`, `accounts.google.com`) and Apple. */
  issuers?: readonly string[];
  /** Accepted `aud` values; when omitted any audience is accepted at registration. */
  audiences?: readonly string[];
};

import type { WebhookOptions } from "./webhooks.js";

/** Options of {@link createEmulator}; every one is optional. */
export type EmulatorOptions = {
  /** Basic auth username (API token id). Default `"emulator"`. */
  clientId?: string;
  /** Basic auth password (client secret). Default `"emulator"`. */
  clientSecret?: string;
  /** Makes every key and id deterministic: the same seed and the same requests give the same output. */
  seed?: string;
  /** The OTP code accepted by OTP verify. Default `"000000"` (the sandbox code). */
  otpCode?: string;
  /** WebAuthn relying party. */
  webauthn?: WebAuthnOptions;
  /** Sandbox OIDC issuers and audiences. */
  oidc?: OidcOptions;
  /** Session lifetime. Default 15 minutes. */
  sessionTtlMs?: number;
  /** Signed-retry and passkey challenge lifetime. Default 5 minutes. */
  challengeTtlMs?: number;
  /** Quote lifetime. Default 5 minutes. */
  quoteTtlMs?: number;
  /** Time for a transaction to move from `PROCESSING` to `COMPLETED`. Default 2 seconds. */
  settlementDelayMs?: number;
  /**
   * Time an SCA factor reset's liveness review takes (`INITIATED`, then `PENDING_REVIEW` for the
   * second half, then `LIVENESS_PASSED`): the emulator has no liveness vendor. Default 2 seconds.
   */
  livenessDelayMs?: number;
  /** The organization id written into export bundles. Default derived from the seed, or random. */
  organizationId?: string;
  /** Sign export bundles with the emulator signer key (default `true`); `false` gives sandbox-style empty signatures. */
  signExports?: boolean;
  /** OTP challenge re-issue limit per credential. Default 5 per 60 s of emulator time. */
  challengeRateLimit?: { max: number; windowMs: number };
  /** Failed OTP verifies per credential before 429. Default 5 per 5 minutes of emulator time. */
  otpFailureLimit?: { max: number; windowMs: number };
  /** Time source in epoch milliseconds. Default `Date.now`; the clock control adds an offset. */
  now?: () => number;
  /**
   * The service's wallet-operation webhooks (its #802), signed with the emulator's webhook key
   * (`keys.webhookPublicKey`) and POSTed to `webhooks.url` with retries. None sent without a URL.
   */
  webhooks?: WebhookOptions;
  /** How long an SCA login (`/sca/login/complete`) lasts. Default 15 minutes. */
  scaSessionTtlMs?: number;
  /**
   * Whether `POST /quotes/{id}/authorize` needs an SCA session (409 `SCA_SESSION_REQUIRED`
   * without one). Default `true`, as the service; `false` restores the old shortcut.
   */
  requireScaLogin?: boolean;
  /**
   * Whether `POST /quotes/{id}/execute` of an SCA customer's wallet quote needs an SCA session
   * too: without one it answers 409 `SCA_SESSION_REQUIRED`, judged after the stamp, with nothing
   * executed and nothing remembered under the `Idempotency-Key` (the same execute goes through
   * after a login). The service's `Error409` lists the code for any call and its
   * `ScaLoginComplete.sessionExpiresAt` says money movement is refused once the session passes;
   * it does not say whether execute itself checks. Default `false`.
   */
  requireScaSessionAtExecute?: boolean;
  /**
   * Host names, besides `localhost`, `127.0.0.1` and `[::1]`, whose `Host` the `/_emulator`
   * controls answer (an emulator reached by another name on purpose, a LAN address say). Any
   * other `Host` is refused with 403 `CROSS_ORIGIN_FORBIDDEN`: a DNS-rebound page names its own.
   */
  controlHosts?: readonly string[];
  /**
   * The shape of the opaque WebAuthn options the emulator hands out (a quote challenge's
   * `passkeyAssertionOptions`, an SCA login's `passkeyOptions`, an SCA enrolment's `options`):
   * `"json"` (default) the standard `PublicKeyCredential…OptionsJSON`, `"publicKey"` the same
   * wrapped as `{ publicKey: {...} }`, as `navigator.credentials` takes it.
   */
  passkeyOptionsShape?: "json" | "publicKey";
  /**
   * The factor of a beneficiary trust's or untrust's SCA challenge. The OpenAPI says a challenge's
   * `factor` "Defaults to `SMS_OTP`" and names no way for the start to ask for another:
   * `"SMS_OTP"` (default), or `"PASSKEY"` for a customer with an SCA passkey enrolled (an
   * assertion by it, with `passkeyAssertionOptions`; others still get SMS_OTP).
   */
  trustChallengeFactor?: "SMS_OTP" | "PASSKEY";
  /**
   * The share, in [0, 1], of the signed retries that the service's #850 and #854 say may answer
   * 200 `{ status: "PROCESSING" }` (credential add, challenge, verify, refresh, credential and
   * session revoke, export) that answer it unprompted, leaving the request id usable, as an armed
   * `processing` fault does. Drawn from `seed` when one is given (the same requests answer
   * PROCESSING every run). Default 0: only armed faults answer PROCESSING. The reliability suites
   * set it.
   */
  processingRate?: number;
};

/** Options with every default applied. */
export type ResolvedOptions = {
  webhooks: WebhookOptions | undefined;
  clientId: string;
  clientSecret: string;
  seed: string | undefined;
  otpCode: string;
  rpId: string;
  origins: string[];
  oidcIssuers: string[];
  oidcAudiences: string[] | undefined;
  sessionTtlMs: number;
  challengeTtlMs: number;
  quoteTtlMs: number;
  settlementDelayMs: number;
  livenessDelayMs: number;
  organizationId: string | undefined;
  signExports: boolean;
  challengeRateLimit: { max: number; windowMs: number };
  otpFailureLimit: { max: number; windowMs: number };
  now: () => number;
  scaSessionTtlMs: number;
  requireScaLogin: boolean;
  requireScaSessionAtExecute: boolean;
  controlHosts: string[];
  passkeyOptionsShape: "json" | "publicKey";
  trustChallengeFactor: "SMS_OTP" | "PASSKEY";
  processingRate: number;
};

/** The sandbox's accepted OIDC issuers (docs/protocol.md §6). */
export const DEFAULT_OIDC_ISSUERS: readonly string[] = [
  "https://accounts.google.com",
  "accounts.google.com",
  "https://appleid.apple.com",
];

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`"${name}" expected a non-negative number, got ${value}`);
  }
  return value;
}

function trustChallengeFactor(value: string | undefined): "SMS_OTP" | "PASSKEY" {
  if (value === undefined || value === "SMS_OTP" || value === "PASSKEY") return value ?? "SMS_OTP";
  throw new RangeError(`"trustChallengeFactor" expected "SMS_OTP" or "PASSKEY", got ${value}`);
}

function rate(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new RangeError(`"${name}" expected a number from 0 to 1, got ${value}`);
  }
  return value;
}

function passkeyOptionsShape(value: string | undefined): "json" | "publicKey" {
  if (value === undefined || value === "json" || value === "publicKey") return value ?? "json";
  throw new RangeError(`"passkeyOptionsShape" expected "json" or "publicKey", got ${value}`);
}

/**
 * Applies the defaults.
 * @throws RangeError when a duration is negative or not finite, or a rate is outside [0, 1].
 */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  return {
    clientId: options.clientId ?? "emulator",
    clientSecret: options.clientSecret ?? "emulator",
    seed: options.seed,
    otpCode: options.otpCode ?? "000000",
    rpId: options.webauthn?.rpId ?? "localhost",
    origins: [...(options.webauthn?.origins ?? ["http://localhost:5173"])],
    oidcIssuers: [...(options.oidc?.issuers ?? DEFAULT_OIDC_ISSUERS)],
    oidcAudiences: options.oidc?.audiences ? [...options.oidc.audiences] : undefined,
    sessionTtlMs: positive("sessionTtlMs", options.sessionTtlMs, 15 * 60_000),
    challengeTtlMs: positive("challengeTtlMs", options.challengeTtlMs, 5 * 60_000),
    quoteTtlMs: positive("quoteTtlMs", options.quoteTtlMs, 5 * 60_000),
    settlementDelayMs: positive("settlementDelayMs", options.settlementDelayMs, 2_000),
    livenessDelayMs: positive("livenessDelayMs", options.livenessDelayMs, 2_000),
    organizationId: options.organizationId,
    signExports: options.signExports ?? true,
    challengeRateLimit: options.challengeRateLimit ?? { max: 5, windowMs: 60_000 },
    otpFailureLimit: options.otpFailureLimit ?? { max: 5, windowMs: 5 * 60_000 },
    now: options.now ?? Date.now,
    scaSessionTtlMs: positive("scaSessionTtlMs", options.scaSessionTtlMs, 15 * 60_000),
    requireScaLogin: options.requireScaLogin ?? true,
    requireScaSessionAtExecute: options.requireScaSessionAtExecute ?? false,
    controlHosts: (options.controlHosts ?? []).map((name) => name.toLowerCase()),
    passkeyOptionsShape: passkeyOptionsShape(options.passkeyOptionsShape),
    trustChallengeFactor: trustChallengeFactor(options.trustChallengeFactor),
    webhooks: options.webhooks,
    processingRate: rate("processingRate", options.processingRate),
  };
}
