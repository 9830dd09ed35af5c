// docs/protocol.md §3–§4 (OTP credentials): the enclave target key per challenge, its signed target
// bundle, opening `encryptedOtpBundle` and the verification token the client stamps.
import { isoTime } from "../clock.js";
import {
  base64urlEncode,
  makeTargetBundle,
  openOtpBundle,
  type P256KeyPair,
  parsePublicKey,
  sha256,
  signJwtEs256,
  toHex,
} from "../crypto/index.js";
import { invalidInput, ServiceError } from "../http/errors.js";
import { assertUnderLimit, recordEvent } from "../rateLimit.js";
import type { Runtime } from "../runtime.js";
import type { CredentialRecord } from "../state.js";

/**
 * Gives the credential a new enclave target key (the previous one dies, so older bundles no longer
 * open) and returns the `otpEncryptionTargetBundle` signed by the emulator's attestation key.
 */
export function issueOtpTarget(rt: Runtime, credential: CredentialRecord): string {
  const target = rt.ids.keyPair("otp-target");
  credential.otpTarget = target;
  rt.state.otpFailures.delete(credential.id);
  return makeTargetBundle({
    targetPublic: target.publicKeyUncompressed,
    attestationKey: rt.keys.attestation,
  });
}

/** 429 when the credential has had too many failed OTP verifies lately. */
export function assertOtpAttemptsLeft(rt: Runtime, credential: CredentialRecord): void {
  assertUnderLimit(
    rt.state.otpFailures,
    credential.id,
    rt.clock.now(),
    rt.options.otpFailureLimit,
    "Too many failed OTP attempts; wait and request a new code.",
    "OTP_ATTEMPTS_EXCEEDED",
  );
}

function fail(rt: Runtime, credential: CredentialRecord, reason: string, message: string): never {
  recordEvent(rt.state.otpFailures, credential.id, rt.clock.now());
  throw new ServiceError(401, "UNAUTHORIZED", message, { reason });
}

/** What a valid OTP bundle proves: the code was right and this TEK will sign. */
export type OpenedOtp = {
  /** The target key the bundle was sealed to (the retry checks it is still current). */
  target: P256KeyPair;
  /** The TEK public key as the client sent it. */
  tekPublicKey: string;
  /** The TEK public key, compressed lowercase hex (the stamp key and session key). */
  tekCompressed: string;
};

/**
 * Opens `encryptedOtpBundle` with the credential's current target key and checks the code.
 * - 400 `INVALID_INPUT` when the value is not the JSON text `{encappedPublic, ciphertext}` of hex;
 * - 401 `UNAUTHORIZED`, `details.reason` `OTP_NOT_ISSUED` (no live challenge),
 *   `OTP_BUNDLE_UNDECRYPTABLE` (sealed to another or a dead target key) or `OTP_CODE_INVALID`;
 * - 429 `RATE_LIMITED` after too many failures.
 */
export function openOtp(
  rt: Runtime,
  credential: CredentialRecord,
  encryptedOtpBundle: string,
): OpenedOtp {
  let shape: unknown;
  try {
    shape = JSON.parse(encryptedOtpBundle);
  } catch {
    shape = null;
  }
  const fields = shape as Record<string, unknown> | null;
  if (
    typeof fields !== "object" ||
    fields === null ||
    Array.isArray(fields) ||
    typeof fields.encappedPublic !== "string" ||
    typeof fields.ciphertext !== "string" ||
    !/^[0-9a-fA-F]+$/.test(fields.ciphertext) ||
    !/^[0-9a-fA-F]+$/.test(fields.encappedPublic)
  ) {
    throw invalidInput([
      {
        field: "encryptedOtpBundle",
        message: 'must be the JSON text {"encappedPublic":"<hex>","ciphertext":"<hex>"}',
      },
    ]);
  }
  assertOtpAttemptsLeft(rt, credential);
  const target = credential.otpTarget;
  if (!target)
    fail(rt, credential, "OTP_NOT_ISSUED", "No OTP challenge is live for this credential.");
  const opened = openOtpBundle(encryptedOtpBundle, target);
  if (!opened.ok) {
    fail(
      rt,
      credential,
      "OTP_BUNDLE_UNDECRYPTABLE",
      "The OTP bundle does not open with the current challenge.",
    );
  }
  if (opened.otpCode !== rt.options.otpCode) {
    fail(rt, credential, "OTP_CODE_INVALID", "The OTP code is not correct.");
  }
  const point = parsePublicKey(opened.publicKey);
  if (!point)
    fail(rt, credential, "OTP_BUNDLE_UNDECRYPTABLE", "The OTP bundle names no valid key.");
  return { target, tekPublicKey: opened.publicKey, tekCompressed: toHex(point.compressed) };
}

/**
 * The OTP verification token (the 202 `payloadToSign`): a compact ES256 JWT signed by the
 * emulator's token key. Its first claims are the service's example's, in its order (`sub`, `iat`,
 * `exp`; `sub` here the base64url SHA-256 of the TEK, 43 characters as the example's is); the
 * claims after them name the TEK public key as Turnkey's verification tokens do. Claim order is not
 * alphabetical.
 */
export function otpVerificationToken(
  rt: Runtime,
  credential: CredentialRecord,
  opened: OpenedOtp,
  requestId: string,
  expiresAt: number,
): string {
  const now = rt.clock.now();
  return signJwtEs256(
    {
      sub: base64urlEncode(sha256(opened.tekPublicKey.toLowerCase())),
      iat: Math.floor(now / 1000),
      exp: Math.floor(expiresAt / 1000),
      verification_type: credential.type === "EMAIL_OTP" ? "OTP_TYPE_EMAIL" : "OTP_TYPE_SMS",
      public_key: opened.tekPublicKey,
      id: requestId,
      credential_id: credential.id,
      expires_at: isoTime(expiresAt),
    },
    rt.keys.token,
    "signet-emulator-otp",
  );
}
