// What the WebCrypto backend (./webcrypto.ts) and its HPKE chunk (./hpke-webcrypto.ts) share:
// `crypto.subtle` looked up per call, its failures typed, and the JWK of an imported scalar.
import { SignetError, type SignetErrorCode } from "../errors/errors.js";
import { base64UrlEncode } from "./encoding.js";

/** `globalThis.crypto.subtle`, looked up per call (SSR-safe). */
export function getSubtle(): SubtleCrypto {
  const subtle = (globalThis as { crypto?: Partial<Crypto> }).crypto?.subtle;
  if (!subtle)
    throw new SignetError("CRYPTO_UNAVAILABLE", "WebCrypto (crypto.subtle) is not available here");
  return subtle;
}

/** Runs a WebCrypto operation; what it throws (DOMException, TypeError) becomes `code`. */
export async function attempt<T>(
  code: SignetErrorCode,
  message: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (cause instanceof SignetError) throw cause;
    throw new SignetError(code, message, { cause });
  }
}

export const bytes = (buffer: ArrayBuffer): Uint8Array => new Uint8Array(buffer);
// TS 5.9 types BufferSource as ArrayBuffer-backed views; a copy satisfies that for any input.
export const source = (data: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(data);

/** The 65-byte public key d·G of a checked 32-byte scalar. */
export type PublicKeyOfScalar = (scalar: Uint8Array) => Promise<Uint8Array>;

/**
 * WebCrypto cannot import a bare scalar: a JWK needs the public point too (a rare path: legacy
 * session keys, imported decryption keys and tests).
 */
export async function jwkFromScalar(
  scalar: Uint8Array,
  publicKeyOf: PublicKeyOfScalar,
): Promise<{ jwk: JsonWebKey; publicKeyRaw: Uint8Array }> {
  const publicKeyRaw = await publicKeyOf(scalar);
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: base64UrlEncode(publicKeyRaw.subarray(1, 33)),
    y: base64UrlEncode(publicKeyRaw.subarray(33)),
    d: base64UrlEncode(scalar),
  };
  return { jwk, publicKeyRaw };
}
