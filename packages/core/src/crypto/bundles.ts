// docs/protocol.md §4 (signed envelopes, otpEncryptionTargetBundle, encryptedOtpBundle; the export and
// legacy bundles build on these in ./export-bundle.ts and ./legacy-session-key.ts) over RFC 9180 base mode with info "turnkey_hpke" and
// AAD = enc (65) ‖ recipient public key (65).
import { SignetError } from "../errors/errors.js";
import type { CryptoBackend } from "./backend.js";
import { concatBytes } from "./bytes.js";
import { bytesToHex, hexToBytes, utf8Decode, utf8Encode } from "./encoding.js";
import { decodePoint, normalizePublicKey } from "./p256.js";
import { PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY } from "./pinned-keys.js";
import { verifySignature } from "./signature.js";

// ASCII, so its bytes are its char codes: nothing runs a codec (TextEncoder) at import time.
export const INFO = Uint8Array.from("turnkey_hpke", (c) => c.charCodeAt(0));

/** Which bundle a warning is about. */
export type BundleKind = "otpEncryptionTargetBundle" | "encryptedWalletCredentials";

/**
 * Reported when `allowUnsigned` let a bundle through without a trusted signature (sandbox,
 * emulator). Production code should never see one.
 */
export type BundleWarning = {
  /** `BUNDLE_UNSIGNED`: no signature at all; `BUNDLE_SIGNER_UNTRUSTED`: signed by a key not in `trustedKeys`. */
  code: "BUNDLE_UNSIGNED" | "BUNDLE_SIGNER_UNTRUSTED";
  bundle: BundleKind;
  message: string;
};

/** Options shared by functions that check a signed bundle envelope. */
export type BundleTrustOptions = {
  /**
   * Uncompressed hex keys allowed to sign the bundle. Default: the pinned production key
   * for the bundle kind (`PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY` or `PRODUCTION_SIGNER_SIGN_PUBLIC_KEY`).
   */
  trustedKeys?: readonly string[] | undefined;
  /**
   * Accept a bundle with no signature, or signed by a key outside `trustedKeys` (sandbox and
   * emulator only). Each such acceptance is reported through `onWarning`. A signature that is
   * present but does not verify is always rejected. Default `false`.
   */
  allowUnsigned?: boolean | undefined;
  /**
   * Receives a {@link BundleWarning} whenever `allowUnsigned` was needed. Without it the warning
   * goes to `console.warn`: an unsigned bundle is never accepted silently.
   */
  onWarning?: ((warning: BundleWarning) => void) | undefined;
};

type Envelope = { data: Uint8Array; dataSignature: string; enclaveQuorumPublic: string };

export function malformed(kind: string, why: string, cause?: unknown): SignetError {
  return new SignetError("BUNDLE_MALFORMED", `"${kind}" ${why}`, { cause });
}

export function parseJsonObject(text: string, kind: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw malformed(kind, "is not JSON", cause);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw malformed(kind, "is not a JSON object");
  return value as Record<string, unknown>;
}

export function hexField(object: Record<string, unknown>, field: string, kind: string): Uint8Array {
  const value = object[field];
  if (typeof value !== "string") throw malformed(kind, `has no string "${field}"`);
  try {
    return hexToBytes(value, `${kind}.${field}`);
  } catch (cause) {
    throw malformed(kind, `has a "${field}" that is not hex`, cause);
  }
}

function parseEnvelope(text: string, kind: BundleKind): Envelope {
  if (typeof text !== "string") throw malformed(kind, `expected a string, got ${typeof text}`);
  // Some spec examples wrap the bundle in single quotes.
  let body = text.startsWith("'") ? text.slice(1) : text;
  body = body.endsWith("'") ? body.slice(0, -1) : body;
  const object = parseJsonObject(body, kind);
  if (object.version !== "v1.0.0") throw malformed(kind, `has an unsupported version`);
  const { dataSignature = "", enclaveQuorumPublic = "" } = object;
  if (typeof dataSignature !== "string" || typeof enclaveQuorumPublic !== "string") {
    throw malformed(kind, "has non-string signature fields");
  }
  return { data: hexField(object, "data", kind), dataSignature, enclaveQuorumPublic };
}

function trustedSet(trustedKeys: readonly string[]): Set<string> {
  if (!Array.isArray(trustedKeys)) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"trustedKeys" expected an array, got ${typeof trustedKeys}`,
    );
  }
  return new Set(
    trustedKeys.map((key, i) => normalizePublicKey(key, `trustedKeys[${i}]`).uncompressed),
  );
}

function warn(options: BundleTrustOptions, warning: BundleWarning): void {
  if (options.onWarning) options.onWarning(warning);
  else globalThis.console?.warn?.(`[signet] ${warning.code}: ${warning.message}`);
}

async function checkEnvelope(
  backend: CryptoBackend,
  envelope: Envelope,
  kind: BundleKind,
  defaultKey: string,
  options: BundleTrustOptions,
): Promise<void> {
  const trusted = trustedSet(options.trustedKeys ?? [defaultKey]);
  const allowUnsigned = options.allowUnsigned === true;
  if (envelope.dataSignature === "" || envelope.enclaveQuorumPublic === "") {
    if (!allowUnsigned)
      throw new SignetError("BUNDLE_SIGNATURE_INVALID", `"${kind}" is not signed`);
    warn(options, {
      code: "BUNDLE_UNSIGNED",
      bundle: kind,
      message: `${kind} has no signature; accepted because allowUnsigned is set`,
    });
    return;
  }
  let signer: string;
  try {
    signer = normalizePublicKey(
      envelope.enclaveQuorumPublic,
      `${kind}.enclaveQuorumPublic`,
    ).uncompressed;
  } catch (cause) {
    throw new SignetError("BUNDLE_SIGNATURE_INVALID", `"${kind}" names an invalid signing key`, {
      cause,
    });
  }
  const isTrusted = trusted.has(signer);
  // Checking a signature against the key the bundle itself carries proves nothing unless that key is pinned.
  if (!isTrusted && !allowUnsigned) {
    throw new SignetError(
      "BUNDLE_SIGNER_UNTRUSTED",
      `"${kind}" is signed by a key that is not trusted`,
    );
  }
  try {
    await verifySignature(backend, {
      publicKey: signer,
      message: envelope.data,
      signature: hexToBytes(envelope.dataSignature, `${kind}.dataSignature`),
      format: "der",
    });
  } catch (cause) {
    throw new SignetError("BUNDLE_SIGNATURE_INVALID", `"${kind}" signature does not verify`, {
      cause,
    });
  }
  if (!isTrusted) {
    warn(options, {
      code: "BUNDLE_SIGNER_UNTRUSTED",
      bundle: kind,
      message: `${kind} is signed by a key outside trustedKeys; accepted because allowUnsigned is set`,
    });
  }
}

/**
 * Parses a signed envelope, checks its signer and signature, and returns its data as a JSON object.
 * @throws {SignetError} `BUNDLE_MALFORMED`, `BUNDLE_SIGNATURE_INVALID`, `BUNDLE_SIGNER_UNTRUSTED`.
 */
export async function openSignedEnvelope(
  backend: CryptoBackend,
  bundle: string,
  kind: BundleKind,
  pinnedKey: string,
  trust: BundleTrustOptions,
): Promise<Record<string, unknown>> {
  const envelope = parseEnvelope(bundle, kind);
  await checkEnvelope(backend, envelope, kind, pinnedKey, trust);
  try {
    return parseJsonObject(utf8Decode(envelope.data, `${kind}.data`), `${kind}.data`);
  } catch (cause) {
    throw cause instanceof SignetError && cause.code === "BUNDLE_MALFORMED"
      ? cause
      : malformed(kind, "data is not UTF-8 JSON", cause);
  }
}

/** Parameters of {@link sealOtpBundle}. */
export type SealOtpBundleParameters = BundleTrustOptions & {
  /** The `otpEncryptionTargetBundle` string from the credential or its challenge. */
  targetBundle: string;
  /** The code exactly as the user typed it. */
  otpCode: string;
  /** The TEK's public key (hex, either form); the bundle carries it uncompressed. */
  publicKey: string;
};

/**
 * Seals an OTP code and the TEK's public key to the enclave named by a verified target bundle.
 * @throws {SignetError} `BUNDLE_MALFORMED`, `BUNDLE_SIGNATURE_INVALID`, `BUNDLE_SIGNER_UNTRUSTED`,
 * `INVALID_ARGUMENT` (OTP), `ENCODING_INVALID`, `POINT_INVALID`.
 */
export async function sealOtpBundle(
  backend: CryptoBackend,
  parameters: SealOtpBundleParameters,
): Promise<string> {
  const { targetBundle, otpCode, publicKey } = parameters ?? ({} as SealOtpBundleParameters);
  if (typeof otpCode !== "string" || otpCode.length === 0 || otpCode.length > 128) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"otpCode" expected a non-empty string of at most 128 characters`,
    );
  }
  if (typeof publicKey !== "string") {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"publicKey" expected a hex string, got ${typeof publicKey}`,
    );
  }
  utf8Encode(otpCode, "otpCode"); // refuse lone surrogates (JSON.stringify would escape them)
  const tek = normalizePublicKey(publicKey, "publicKey").uncompressed;
  const kind = "otpEncryptionTargetBundle";
  const data = await openSignedEnvelope(
    backend,
    targetBundle,
    kind,
    PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY,
    parameters,
  );
  const targetPublic = hexField(data, "targetPublic", `${kind}.data`);
  if (targetPublic.length !== 65)
    throw malformed(kind, `targetPublic expected 65 bytes, got ${targetPublic.length}`);
  decodePoint(targetPublic, "targetPublic");
  const plaintext = utf8Encode(JSON.stringify({ otp_code: otpCode, public_key: tek }), "otpCode");
  const { enc, ciphertext } = await backend.hpkeSeal({
    recipientPublicKey: targetPublic,
    plaintext,
    info: INFO,
    aad: (enc) => concatBytes(enc, targetPublic),
  });
  return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) });
}
