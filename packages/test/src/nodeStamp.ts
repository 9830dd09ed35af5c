// Test-only, independent of @signet/core (node:crypto / OpenSSL only): parses and verifies
// `Grid-Wallet-Signature` stamps (docs/protocol.md §4) — exact JSON layout, strict DER ECDSA P-256
// SHA-256 signatures — and converts P-256 keys. Shared by the core tests, the Hermes test and e2e.
import { createPublicKey, ECDH, type KeyObject, verify } from "node:crypto";

/** The parts of a `Grid-Wallet-Signature` value, after checking its exact JSON layout. */
export type ParsedStamp = { publicKey: string; scheme: string; signature: string };

/** Decodes a stamp; throws unless it is unpadded base64url of `{"publicKey","scheme","signature"}` in that order. */
export function parseStamp(stamp: string): ParsedStamp {
  if (!/^[A-Za-z0-9_-]+$/.test(stamp)) throw new Error(`stamp is not unpadded base64url: ${stamp}`);
  const json = Buffer.from(stamp, "base64url").toString("utf8");
  const parsed = JSON.parse(json) as ParsedStamp;
  const expected = JSON.stringify({
    publicKey: parsed.publicKey,
    scheme: parsed.scheme,
    signature: parsed.signature,
  });
  if (json !== expected) throw new Error(`stamp JSON has another layout: ${json}`);
  return parsed;
}

/**
 * Throws unless `der` is a strict DER ECDSA-Sig-Value: a SEQUENCE of two minimal positive INTEGERs
 * of at most 33 bytes. (Usually 70–72 bytes in all; about 1 in 128 is shorter, when r or s is.)
 */
export function assertStrictDer(der: Buffer): void {
  const fail = (why: string): never => {
    throw new Error(`signature is not strict DER (${why}): ${der.toString("hex")}`);
  };
  if (der[0] !== 0x30 || der[1] !== der.length - 2 || der.length > 72) fail("SEQUENCE header");
  let offset = 2;
  for (const name of ["r", "s"]) {
    const length = der[offset + 1] ?? 0;
    if (der[offset] !== 0x02 || length < 1 || length > 33) fail(`${name} INTEGER header`);
    const first = der[offset + 2] ?? 0;
    const second = der[offset + 3] ?? 0;
    if (first & 0x80) fail(`${name} negative`);
    if (first === 0 && (length === 1 || !(second & 0x80))) fail(`${name} not minimal`);
    offset += 2 + length;
  }
  if (offset !== der.length) fail("trailing bytes");
}

/** An OpenSSL public key object for an uncompressed P-256 point (hex, `04 ‖ x ‖ y`). */
export function p256PublicKeyNode(uncompressedHex: string): KeyObject {
  const point = Buffer.from(uncompressedHex, "hex");
  return createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
    },
    format: "jwk",
  });
}

/** ECDSA P-256 SHA-256 over `data` with a DER signature, checked by OpenSSL. */
export function verifyDerNode(publicKey: KeyObject, data: Buffer, der: Buffer): boolean {
  return verify("sha256", data, { key: publicKey, dsaEncoding: "der" }, der);
}

/** ECDSA P-256 SHA-256 over the UTF-8 bytes of `payload`, strict DER signature, checked by OpenSSL. */
export function verifyStampNode(
  stamp: string,
  payload: string,
  publicKeyUncompressed: string,
): boolean {
  const { signature } = parseStamp(stamp);
  if (!/^([0-9a-f]{2})+$/.test(signature))
    throw new Error(`signature is not lowercase hex: ${signature}`);
  assertStrictDer(Buffer.from(signature, "hex"));
  return verifyDerNode(
    p256PublicKeyNode(publicKeyUncompressed),
    Buffer.from(payload, "utf8"),
    Buffer.from(signature, "hex"),
  );
}

/** Compressed form of an uncompressed P-256 key (hex), by OpenSSL. */
export const compressNode = (uncompressed: string): string =>
  ECDH.convertKey(uncompressed, "prime256v1", "hex", "hex", "compressed") as string;
