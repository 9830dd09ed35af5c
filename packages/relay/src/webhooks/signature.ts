// X-Grid-Signature (the service's `WebhookSignature` scheme): a P-256 ECDSA signature over the
// SHA-256 of the raw request body, base64 in the header, checked with the public key the service
// gives at integration. The service's document names neither the signature's encoding nor the
// key's: both common ones are accepted (DER or 64-byte r‖s; SEC1 hex or SPKI PEM). Web Crypto
// only, so the relay keeps no runtime dependency.

import { fromHex as hexBytes, toHex } from "../hex.js";

/** The header carrying the service's webhook signature. */
export const WEBHOOK_SIGNATURE_HEADER = "X-Grid-Signature";

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;
const SIGN = { name: "ECDSA", hash: "SHA-256" } as const;

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  const normal = text.trim().replaceAll("-", "+").replaceAll("_", "/");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(normal)) return undefined;
  try {
    const binary = atob(normal.padEnd(Math.ceil(normal.length / 4) * 4, "="));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

const SEC1_HEX = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
const SPKI_PEM = /^-----BEGIN PUBLIC KEY-----([A-Za-z0-9+/=\s]+)-----END PUBLIC KEY-----$/;

/** Whether `text` has the form of a key {@link importWebhookKey} reads (checked at creation). */
export function isWebhookKeyText(text: unknown): text is string {
  if (typeof text !== "string") return false;
  const trimmed = text.trim();
  return SEC1_HEX.test(trimmed) || SPKI_PEM.test(trimmed);
}

// P-256 (SEC 2, FIPS 186-4 D.1.2.3): y² = x³ − 3x + b over the field of p. Web Crypto imports a
// key only asynchronously, and `createRelay` is synchronous: the point is checked here, so a key
// that is not one fails at creation, not at the first delivery.
const P = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

function powMod(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let square = base % P;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * square) % P;
    square = (square * square) % P;
  }
  return result;
}

/** x³ − 3x + b, the curve's right-hand side at `x`. */
const curveY2 = (x: bigint) => (((x * x * x - 3n * x + B) % P) + P) % P;

const bigintOf = (bytes: Uint8Array) => BigInt(`0x${toHex(bytes) || "0"}`);

/**
 * Whether `sec1` (compressed `02|03 ‖ x` or uncompressed `04 ‖ x ‖ y`) is a point on P-256:
 * coordinates below p, and y² = x³ − 3x + b (for a compressed point: x³ − 3x + b has a square
 * root, p ≡ 3 mod 4 giving it as (x³ − 3x + b)^((p+1)/4)).
 */
export function isP256Point(sec1: Uint8Array): boolean {
  const prefix = sec1[0];
  if (sec1.length === 33 && (prefix === 2 || prefix === 3)) {
    const x = bigintOf(sec1.subarray(1));
    if (x >= P) return false;
    const y2 = curveY2(x);
    const y = powMod(y2, (P + 1n) / 4n);
    return (y * y) % P === y2;
  }
  if (sec1.length === 65 && prefix === 4) {
    const x = bigintOf(sec1.subarray(1, 33));
    const y = bigintOf(sec1.subarray(33));
    return x < P && y < P && (y * y) % P === curveY2(x);
  }
  return false;
}

// An SPKI of a P-256 key: SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING point }.
// The DER prefix before the point is fixed by the point's length (65 or 33 bytes).
const SPKI_PREFIX = {
  65: "3059301306072a8648ce3d020106082a8648ce3d030107034200",
  33: "3039301306072a8648ce3d020106082a8648ce3d030107032200",
} as const;

/** The SEC1 point a key text carries (hex, or an SPKI PEM of a P-256 key), or `undefined`. */
function keyPoint(text: string): Uint8Array | undefined {
  const trimmed = text.trim();
  if (SEC1_HEX.test(trimmed)) return hexBytes(trimmed);
  const pem = SPKI_PEM.exec(trimmed);
  const der = pem ? base64Bytes(pem[1]!.replace(/\s+/g, "")) : undefined;
  if (der === undefined) return undefined;
  for (const size of [65, 33] as const) {
    const prefix = SPKI_PREFIX[size];
    if (der.length !== prefix.length / 2 + size) continue;
    const head = toHex(der.subarray(0, prefix.length / 2));
    if (head === prefix) return der.subarray(prefix.length / 2);
  }
  return undefined;
}

/**
 * Whether `text` is a P-256 public key {@link importWebhookKey} reads: SEC1 hex or an SPKI PEM of
 * a P-256 key, whose point is on the curve (checked at creation).
 */
export function isWebhookKey(text: unknown): text is string {
  if (!isWebhookKeyText(text)) return false;
  const point = keyPoint(text);
  return point !== undefined && isP256Point(point);
}

/**
 * Imports the service's webhook public key: SEC1 hex (66 characters compressed, 130
 * uncompressed) or an SPKI PEM (`-----BEGIN PUBLIC KEY-----`).
 * @throws {TypeError} when the text is neither, or not a P-256 point.
 */
export async function importWebhookKey(text: string): Promise<CryptoKey> {
  if (typeof text !== "string") throw new TypeError(`"webhooks.publicKey" expected a string`);
  const trimmed = text.trim();
  try {
    if (SEC1_HEX.test(trimmed)) {
      return await crypto.subtle.importKey("raw", hexBytes(trimmed), ALGORITHM, false, ["verify"]);
    }
    const pem = SPKI_PEM.exec(trimmed);
    const der = pem ? base64Bytes(pem[1]!.replace(/\s+/g, "")) : undefined;
    if (der) return await crypto.subtle.importKey("spki", der, ALGORITHM, false, ["verify"]);
  } catch {
    // Falls through to the one error below: a malformed point says no more than a malformed text.
  }
  throw new TypeError(
    `"webhooks.publicKey" expected the service's P-256 public key as SEC1 hex or an SPKI PEM`,
  );
}

/** A DER `SEQUENCE { INTEGER r, INTEGER s }` as 64 bytes r‖s, or `undefined` when malformed. */
export function derToRaw(der: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const raw = new Uint8Array(64);
  let at = 2;
  for (const offset of [0, 32]) {
    if (der[at] !== 0x02) return undefined;
    const length = der[at + 1]!;
    let start = at + 2;
    let size = length;
    if (length === 0 || length > 33 || start + length > der.length) return undefined;
    // A leading zero only where the next byte has its high bit set (DER's minimal form).
    if (der[start] === 0 && length > 1) {
      if ((der[start + 1]! & 0x80) === 0) return undefined;
      start++;
      size--;
    } else if ((der[start]! & 0x80) !== 0) return undefined;
    if (size > 32) return undefined;
    raw.set(der.subarray(start, start + size), offset + 32 - size);
    at += 2 + length;
  }
  return at === der.length ? raw : undefined;
}

/**
 * Whether `header` is the service's signature over `body` under `key`. Never throws: a missing,
 * malformed or wrong signature is `false`.
 */
export async function verifyWebhookSignature(
  key: CryptoKey,
  header: string | null,
  body: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  if (header === null || header.length > 200) return false;
  const bytes = base64Bytes(header);
  if (bytes === undefined) return false;
  const raw = bytes.length === 64 ? bytes : derToRaw(bytes);
  if (raw === undefined) return false;
  try {
    return await crypto.subtle.verify(SIGN, key, raw, body);
  } catch {
    return false;
  }
}
