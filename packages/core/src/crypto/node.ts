// Node's own crypto (OpenSSL) for ECDSA P-256 / SHA-256 signing (FIPS 186-5), behind the `node`
// export condition: servers that stamp with delegated keys sign synchronously through a held
// `KeyObject` instead of WebCrypto's promise round trip. Keys are still created and stored as
// WebCrypto `CryptoKey`s, so records and key stores are the same as in the default entry; HPKE,
// verification and hashing stay on the WebCrypto backend. The public key of an imported scalar
// (legacy session keys) comes from OpenSSL too.
import { createECDH, createPublicKey, KeyObject, sign } from "node:crypto";
import { SignetError } from "../errors/errors.js";
import type { CryptoBackend, SigningKey } from "./backend.js";
import { base64UrlEncode, hexToBytes } from "./encoding.js";
import { webCryptoBackendWith } from "./webcrypto.js";

/** d·G of an imported scalar through OpenSSL (SEC 1 §3.2.1), not JavaScript arithmetic. */
const opensslPublicKey = async (scalar: Uint8Array): Promise<Uint8Array> => {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(scalar);
  return new Uint8Array(ecdh.getPublicKey());
};

/** Whether OpenSSL derives `publicKeyUncompressed` (hex) from a private `KeyObject`. */
function hasPublicKey(keyObject: KeyObject, publicKeyUncompressed: string): boolean {
  const { x, y } = createPublicKey(keyObject).export({ format: "jwk" });
  const point = hexToBytes(publicKeyUncompressed);
  return x === base64UrlEncode(point.subarray(1, 33)) && y === base64UrlEncode(point.subarray(33));
}

/**
 * Re-binds a WebCrypto-held key's `sign` to its `KeyObject` (same key, same DER output form).
 * `restored`: a key restored from a record, whose public key OpenSSL proves here, at once (the
 * WebCrypto key would prove it on its first signature, which the `KeyObject` now makes).
 */
function withKeyObject(key: SigningKey, restored = false): SigningKey {
  const record = key.toRecord();
  if (record.type !== "webcrypto") return key;
  let keyObject: KeyObject;
  try {
    keyObject = KeyObject.from(record.privateKey);
  } catch {
    return key; // A CryptoKey from another realm: keep WebCrypto signing.
  }
  if (restored && !hasPublicKey(keyObject, key.publicKeyUncompressed))
    throw new SignetError("KEY_INVALID", `"record" public key does not match its private key`);
  return {
    publicKey: key.publicKey,
    publicKeyUncompressed: key.publicKeyUncompressed,
    extractable: key.extractable,
    toRecord: key.toRecord,
    async sign(message) {
      try {
        return new Uint8Array(sign("sha256", message, { key: keyObject, dsaEncoding: "der" }));
      } catch (cause) {
        throw new SignetError("KEY_INVALID", "signing failed", { cause });
      }
    },
  };
}

/**
 * Creates the Node backend: the WebCrypto backend with signing through `node:crypto` `KeyObject`s
 * (about 3–4× the stamps per second of `crypto.subtle.sign` on a held key). The `node` export
 * condition of `@signet/core` uses it; browsers and React Native never load this module.
 *
 * @returns A {@link CryptoBackend} named `"node"`.
 * @example
 * ```ts
 * import { createCryptoApi } from "@signet/core";
 * const api = createCryptoApi(createNodeCryptoBackend());
 * ```
 */
export function createNodeCryptoBackend(): CryptoBackend {
  const web = webCryptoBackendWith(opensslPublicKey);
  return {
    ...web,
    name: "node",
    generateSigningKey: async (options) => withKeyObject(await web.generateSigningKey(options)),
    importSigningKey: async (scalar, options) =>
      withKeyObject(await web.importSigningKey(scalar, options)),
    restoreSigningKey: async (record) => withKeyObject(await web.restoreSigningKey(record), true),
  };
}
