// docs/protocol.md §4 (otpEncryptionTargetBundle, encryptedOtpBundle, legacy encryptedSessionSigningKey,
// export encryptedWalletCredentials): the enclave side of each bundle the service exchanges.
import { base58checkEncode, concatBytes, fromHex, toHex, utf8 } from "./encoding.js";
import { hpkeOpen, hpkeSeal, TURNKEY_HPKE_INFO } from "./hpke.js";
import {
  generateKeyPair,
  type P256KeyPair,
  parsePublicKey,
  requirePublicKey,
  signDer,
} from "./p256.js";

/** The envelope version the service writes. */
export const BUNDLE_VERSION = "v1.0.0";

/** A signed bundle envelope as it travels (a JSON string of this shape). */
export type SignedEnvelopeJson = {
  version: string;
  data: string;
  dataSignature: string;
  enclaveQuorumPublic: string;
};

// `data` is the hex of the UTF-8 JSON; the signature is over those bytes, not over the hex text.
function envelope(data: Record<string, string>, signer: P256KeyPair | null): string {
  const dataBytes = utf8(JSON.stringify(data));
  const json: SignedEnvelopeJson = {
    version: BUNDLE_VERSION,
    data: toHex(dataBytes),
    dataSignature: signer ? toHex(signDer(signer.privateKey, dataBytes)) : "",
    enclaveQuorumPublic: signer ? toHex(signer.publicKeyUncompressed) : "",
  };
  return JSON.stringify(json);
}

/**
 * An `otpEncryptionTargetBundle`: the JSON string
 * `{version:"v1.0.0", data, dataSignature, enclaveQuorumPublic}` where `data` is the hex of the
 * UTF-8 JSON `{"targetPublic":"<130 hex>"}`, signed (DER hex) by `attestationKey`, whose
 * uncompressed key is `enclaveQuorumPublic`.
 * @throws Error when `targetPublic` is not a valid point.
 * @example makeTargetBundle({ targetPublic: enclave.publicKeyUncompressed, attestationKey })
 */
export function makeTargetBundle(p: {
  targetPublic: Uint8Array;
  attestationKey: P256KeyPair;
}): string {
  const target = requirePublicKey(p.targetPublic, "targetPublic");
  return envelope({ targetPublic: toHex(target.uncompressed) }, p.attestationKey);
}

/** The result of {@link openOtpBundle}; `reason` never holds the code or key material. */
export type OpenOtpBundleResult =
  | { ok: true; otpCode: string; publicKey: string }
  | { ok: false; reason: string };

function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Opens an `encryptedOtpBundle` (the JSON text `{"encappedPublic":"<hex>","ciphertext":"<hex>"}`)
 * with the enclave target key: HPKE base mode, info `turnkey_hpke`, AAD = uncompressed enc ‖
 * uncompressed target public key. The plaintext must be `{"otp_code":"…","public_key":"<hex>"}`
 * with `public_key` a valid P-256 point. Never throws.
 * @returns the code as typed and the TEK public key (lowercase hex, in the form sent).
 * @example const opened = openOtpBundle(body.encryptedOtpBundle, enclaveTarget)
 */
export function openOtpBundle(
  encryptedOtpBundle: string,
  target: P256KeyPair,
): OpenOtpBundleResult {
  const bundle =
    typeof encryptedOtpBundle === "string" ? parseJsonObject(encryptedOtpBundle) : null;
  if (!bundle) return { ok: false, reason: "encryptedOtpBundle is not a JSON object text" };
  const { encappedPublic, ciphertext } = bundle;
  if (typeof encappedPublic !== "string" || typeof ciphertext !== "string") {
    return { ok: false, reason: "encryptedOtpBundle needs string encappedPublic and ciphertext" };
  }
  const enc = parsePublicKey(encappedPublic);
  if (!enc) return { ok: false, reason: "encappedPublic is not a valid P-256 public key" };
  const ct = fromHex(ciphertext);
  if (!ct) return { ok: false, reason: "ciphertext is not hex" };
  let plaintext: Uint8Array;
  try {
    plaintext = hpkeOpen({
      enc: enc.uncompressed,
      ciphertext: ct,
      recipient: target,
      info: TURNKEY_HPKE_INFO,
      aad: concatBytes(enc.uncompressed, target.publicKeyUncompressed),
    });
  } catch {
    return { ok: false, reason: "encryptedOtpBundle does not decrypt with the current target key" };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
  } catch {
    return { ok: false, reason: "OTP plaintext is not UTF-8" };
  }
  const inner = parseJsonObject(text);
  if (!inner) return { ok: false, reason: "OTP plaintext is not a JSON object" };
  const { otp_code: otpCode, public_key: publicKey } = inner;
  if (typeof otpCode !== "string") return { ok: false, reason: "OTP plaintext lacks otp_code" };
  if (typeof publicKey !== "string") return { ok: false, reason: "OTP plaintext lacks public_key" };
  if (!parsePublicKey(publicKey)) {
    return { ok: false, reason: "OTP plaintext public_key is not a valid P-256 public key" };
  }
  return { ok: true, otpCode, publicKey: publicKey.toLowerCase() };
}

// The service's bundle seal: the AAD binds both keys, so the ephemeral key is chosen before sealing.
function sealTurnkey(plaintext: Uint8Array, recipientPublicKey: Uint8Array) {
  const recipient = requirePublicKey(recipientPublicKey, "recipientPublicKey").uncompressed;
  const ephemeral = generateKeyPair();
  return hpkeSeal({
    plaintext,
    recipientPublicKey: recipient,
    info: TURNKEY_HPKE_INFO,
    aad: concatBytes(ephemeral.publicKeyUncompressed, recipient),
    ephemeral,
  });
}

/**
 * A legacy `encryptedSessionSigningKey`: base58check of compressed enc (33) ‖ ciphertext with tag
 * (48), sealing the 32-byte session scalar to `recipientPublicKey` with info `turnkey_hpke` and
 * AAD = uncompressed enc ‖ uncompressed recipient key.
 * @throws Error when the scalar is not 32 bytes or the recipient is not a valid point.
 * @example sealLegacySessionKey({ sessionPrivateKey: session.privateKey, recipientPublicKey })
 */
export function sealLegacySessionKey(p: {
  sessionPrivateKey: Uint8Array;
  recipientPublicKey: Uint8Array;
}): string {
  if (p.sessionPrivateKey.length !== 32) {
    throw new Error(`"sessionPrivateKey" expected 32 bytes, got ${p.sessionPrivateKey.length}`);
  }
  const { enc, ciphertext } = sealTurnkey(p.sessionPrivateKey, p.recipientPublicKey);
  return base58checkEncode(concatBytes(requirePublicKey(enc, "enc").compressed, ciphertext));
}

/**
 * An export `encryptedWalletCredentials`: the JSON string
 * `{version:"v1.0.0", data, dataSignature, enclaveQuorumPublic}` where `data` is the hex of the
 * UTF-8 JSON `{encappedPublic:"<130 hex>", ciphertext:"<hex>", organizationId}`, the mnemonic
 * sealed as the other bundles are (info `turnkey_hpke`, AAD = enc ‖ recipient). With a `signer`,
 * `dataSignature` is its DER signature over the data bytes and `enclaveQuorumPublic` its
 * uncompressed key; with `signer: null` (sandbox style) both are empty strings.
 * @throws Error when the recipient is not a valid point.
 * @example makeExportBundle({ mnemonic, recipientPublicKey, organizationId, signer })
 */
export function makeExportBundle(p: {
  mnemonic: string;
  recipientPublicKey: Uint8Array;
  organizationId: string;
  signer: P256KeyPair | null;
}): string {
  const { enc, ciphertext } = sealTurnkey(utf8(p.mnemonic), p.recipientPublicKey);
  return envelope(
    { encappedPublic: toHex(enc), ciphertext: toHex(ciphertext), organizationId: p.organizationId },
    p.signer,
  );
}
