// docs/protocol.md §4 (OTP verification token, a compact ES256 JWT) and §6 (sandbox OIDC tokens, JWT-shaped).
import { base64urlDecode, base64urlEncode, utf8 } from "./encoding.js";
import { type P256KeyPair, signRaw } from "./p256.js";

function decodeJsonObject(part: string): Record<string, unknown> | null {
  const bytes = base64urlDecode(part);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * Decodes a sandbox-style OIDC token: three base64url parts, the first two JSON objects. The
 * signature is NOT checked (the sandbox does not check it either); callers check issuer,
 * audience, freshness and nonce. Returns `null` when the token is not JWT-shaped.
 * @example decodeJwt(body.oidcToken)?.payload.nonce
 */
export function decodeJwt(
  token: string,
): { header: Record<string, unknown>; payload: Record<string, unknown> } | null {
  if (typeof token !== "string") return null;
  const parts = token.split(".");
  if (parts.length !== 3 || base64urlDecode(parts[2]!) === null) return null;
  const header = decodeJsonObject(parts[0]!);
  const payload = decodeJsonObject(parts[1]!);
  return header && payload ? { header, payload } : null;
}

/**
 * Signs a compact ES256 JWS (header `{"alg":"ES256","typ":"JWT"}` plus `kid` when given); the
 * signature is raw r ‖ s (64 bytes) as JOSE requires, not DER.
 * @throws Error when the key is invalid.
 * @example signJwtEs256({ sub: credentialId, iat, exp }, enclaveKey, "emulator")
 */
export function signJwtEs256(
  payload: Record<string, unknown>,
  key: P256KeyPair,
  kid?: string,
): string {
  const header =
    kid === undefined ? { alg: "ES256", typ: "JWT" } : { alg: "ES256", typ: "JWT", kid };
  const signingInput = `${base64urlEncode(JSON.stringify(header))}.${base64urlEncode(JSON.stringify(payload))}`;
  return `${signingInput}.${base64urlEncode(signRaw(key.privateKey, utf8(signingInput)))}`;
}
