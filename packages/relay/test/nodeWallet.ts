// Test-only helpers shared by the relay's emulator-backed suites: P-256 keys and stamps made with
// node:crypto alone (independent of @signet/core), and the app-session cookie the tests' resolveUser reads.
import { createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";

/** A P-256 key made and used with node:crypto only. */
export interface TestKey {
  privateKey: KeyObject;
  compressed: string;
  uncompressed: string;
}

export function newKey(): TestKey {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  const prefix = (y[31]! & 1) === 1 ? "03" : "02";
  return {
    privateKey,
    compressed: prefix + x.toString("hex"),
    uncompressed: `04${x.toString("hex")}${y.toString("hex")}`,
  };
}

/** The Grid-Wallet-Signature value: ECDSA P-256 SHA-256, DER, over the payload's UTF-8 bytes. */
export function stamp(payload: string, key: TestKey): string {
  const signature = sign("sha256", Buffer.from(payload, "utf8"), {
    key: key.privateKey,
    dsaEncoding: "der",
  }).toString("hex");
  const json = `{"publicKey":"${key.compressed}","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"${signature}"}`;
  return Buffer.from(json, "utf8").toString("base64url");
}

export interface Wallet {
  customerId: string;
  wallet: string;
  credential: string;
  session: string;
  sessionKey: TestKey;
}

export const as = (w: { customerId: string }, headers: Record<string, string> = {}) => ({
  Cookie: `user=${encodeURIComponent(w.customerId)}`,
  ...headers,
});

/** {@link as} for a call that changes state: the relay wants the JSON type on every one. */
export const json = (w: { customerId: string }, headers: Record<string, string> = {}) =>
  as(w, { "Content-Type": "application/json", ...headers });
