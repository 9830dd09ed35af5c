// docs/protocol.md §2 and §4 (Stamp): verifying a Grid-Wallet-Signature value over the exact payload bytes.
import { base64urlDecode, equalBytes, fromHex, toHex, utf8 } from "./encoding.js";
import { parseDerSignature, parsePublicKey, verifyDer } from "./p256.js";

/** The only stamp scheme the service accepts. */
export const STAMP_SCHEME = "SIGNATURE_SCHEME_TK_API_P256";

/** The outcome of {@link verifyStamp}; `reason` is safe to log (no key material, no payload). */
export type StampCheck =
  | { ok: true; publicKey: string }
  | { ok: false; code: "WALLET_SIGNATURE_MALFORMED" | "WALLET_SIGNATURE_INVALID"; reason: string };

const malformed = (reason: string): StampCheck => ({
  ok: false,
  code: "WALLET_SIGNATURE_MALFORMED",
  reason,
});
const invalid = (reason: string): StampCheck => ({
  ok: false,
  code: "WALLET_SIGNATURE_INVALID",
  reason,
});

/**
 * Parses a `Grid-Wallet-Signature` value (base64url without padding of the UTF-8 JSON
 * `{publicKey, scheme, signature}`) and verifies it over the UTF-8 bytes of `payload`, as given.
 *
 * - `WALLET_SIGNATURE_MALFORMED`: not strict base64url, not a JSON object, a missing or non-string
 *   field, a scheme other than `SIGNATURE_SCHEME_TK_API_P256`, a `publicKey` that is not a
 *   compressed (66 hex) valid point, or a `signature` that is not strict DER hex.
 * - `WALLET_SIGNATURE_INVALID`: the stamp key is not one of `allowedPublicKeys` (compared as points;
 *   entries may be compressed or uncompressed hex; invalid entries are ignored), or the signature
 *   does not verify (high-S signatures are accepted).
 *
 * Never throws.
 * @returns on success, the stamp's key as compressed lowercase hex.
 * @example verifyStamp(request.headers.get("Grid-Wallet-Signature"), payloadToSign, [session.publicKey])
 */
export function verifyStamp(
  headerValue: string,
  payload: string,
  allowedPublicKeys: readonly string[],
): StampCheck {
  const raw = typeof headerValue === "string" ? base64urlDecode(headerValue.trim()) : null;
  if (!raw || raw.length === 0) return malformed("stamp is not base64url without padding");
  let stamp: unknown;
  try {
    stamp = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    return malformed("stamp is not UTF-8 JSON");
  }
  if (typeof stamp !== "object" || stamp === null || Array.isArray(stamp)) {
    return malformed("stamp is not a JSON object");
  }
  const { publicKey, scheme, signature } = stamp as Record<string, unknown>;
  if (typeof publicKey !== "string") return malformed("stamp publicKey is missing");
  if (typeof scheme !== "string") return malformed("stamp scheme is missing");
  if (typeof signature !== "string") return malformed("stamp signature is missing");
  if (scheme !== STAMP_SCHEME) return malformed(`stamp scheme must be ${STAMP_SCHEME}`);
  const point = publicKey.length === 66 ? parsePublicKey(publicKey) : null;
  if (!point) return malformed("stamp publicKey is not a compressed P-256 public key");
  const der = fromHex(signature);
  if (!der || !parseDerSignature(der)) return malformed("stamp signature is not DER hex");

  const allowed = allowedPublicKeys.some((key) => {
    const candidate = parsePublicKey(key);
    return candidate !== null && equalBytes(candidate.compressed, point.compressed);
  });
  if (!allowed) return invalid("stamp key is not an active key for this request");
  if (!verifyDer(point.uncompressed, utf8(payload), der)) {
    return invalid("stamp signature does not verify over the payload");
  }
  return { ok: true, publicKey: toHex(point.compressed) };
}
