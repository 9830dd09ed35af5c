// RFC 9180 A.3.1 (DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-128-GCM, base mode): Signet's own
// HPKE (./hpke.ts) on noble and on WebCrypto primitives (./webCryptoPrimitives.ts), and
// @hpke/core (the browser build's HPKE, and an independent implementation).
import { Aes128Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core";
import { gcm } from "@noble/ciphers/aes.js";
import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "../../src/crypto/encoding.js";
import {
  type HpkePrimitives,
  hpkeOpenWith,
  hpkeSealWith,
  kemSharedSecret,
  keySchedule,
} from "../../src/crypto/hpke.js";
import { createNobleHpkePrimitives } from "../../src/crypto/noble.js";
import { createWebCryptoHpkePrimitives } from "./webCryptoPrimitives.js";

const nobleHpkePrimitives = createNobleHpkePrimitives();

import { loadVector, type Rfc9180Vector } from "../../../test/src/vectors.js";

const v = loadVector<Rfc9180Vector>("rfc9180-p256-sha256-aes128gcm-base.json");
const h = hexToBytes;
const ab = (bytes: Uint8Array) => new Uint8Array(bytes) as Uint8Array<ArrayBuffer>;

// WebCrypto primitives (keys held as non-extractable CryptoKeyPairs), driven with the vector's
// scalars imported as JWK: the composition on a second, asynchronous substrate.
const subtle = globalThis.crypto.subtle;
const production = createWebCryptoHpkePrimitives();
async function pairFromScalar(scalar: Uint8Array): Promise<CryptoKeyPair> {
  const point = nobleHpkePrimitives.publicKey(scalar) as Uint8Array;
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: Buffer.from(point.subarray(1, 33)).toString("base64url"),
    y: Buffer.from(point.subarray(33)).toString("base64url"),
  };
  const ecdh = { name: "ECDH", namedCurve: "P-256" };
  return {
    privateKey: await subtle.importKey(
      "jwk",
      { ...jwk, d: Buffer.from(scalar).toString("base64url") },
      ecdh,
      false,
      ["deriveBits"],
    ),
    publicKey: await subtle.importKey("jwk", jwk, ecdh, true, []),
  };
}
const webPrimitives: HpkePrimitives = {
  dh: async (scalar, publicKey) => production.dh(await pairFromScalar(scalar), publicKey),
  publicKey: async (scalar) => production.publicKey(await pairFromScalar(scalar)),
  hmacSha256: production.hmacSha256,
  aesGcmSeal: production.aesGcmSeal,
  aesGcmOpen: production.aesGcmOpen,
};

describe.each([
  ["noble primitives", nobleHpkePrimitives],
  ["WebCrypto primitives", webPrimitives],
])("rfc9180-p256-sha256-aes128gcm-base.json with Signet's HPKE on %s", (_name, primitives) => {
  it("KEM: pkEm from skEm, shared_secret from dh and enc ‖ pkRm", async () => {
    expect(bytesToHex(await primitives.publicKey(h(v.skEm)))).toBe(v.pkEm);
    expect(bytesToHex(await primitives.publicKey(h(v.skRm)))).toBe(v.pkRm);
    const dh = await primitives.dh(h(v.skEm), h(v.pkRm));
    const shared = await kemSharedSecret(primitives, dh, h(v.enc + v.pkRm));
    expect(bytesToHex(shared)).toBe(v.shared_secret);
  });

  it("key schedule: key and base_nonce", async () => {
    const { key, baseNonce } = await keySchedule(primitives, h(v.shared_secret), h(v.info), 0x0001);
    expect(bytesToHex(key)).toBe(v.key);
    expect(bytesToHex(baseNonce)).toBe(v.base_nonce);
  });

  it("encryptions[0]: single-shot seal with skEm gives enc and ct; open recovers pt", async () => {
    const e = v.encryptions[0]!;
    const sealed = await hpkeSealWith(primitives, {
      recipientPublicKey: h(v.pkRm),
      ephemeralKey: h(v.skEm),
      plaintext: h(e.pt),
      info: h(v.info),
      aad: h(e.aad),
      aead: 0x0001,
    });
    expect(bytesToHex(sealed.enc)).toBe(v.enc);
    expect(bytesToHex(sealed.ciphertext)).toBe(e.ct);
    const opened = await hpkeOpenWith(primitives, {
      recipientKey: h(v.skRm),
      enc: h(v.enc),
      ciphertext: h(e.ct),
      info: h(v.info),
      aad: h(e.aad),
      aead: 0x0001,
    });
    expect(bytesToHex(opened)).toBe(e.pt);
  });

  it("encryptions[1]: sequence 1 uses base_nonce XOR 1 (single shot never gets there; checked on the schedule)", async () => {
    const e = v.encryptions[1]!;
    const { key, baseNonce } = await keySchedule(primitives, h(v.shared_secret), h(v.info), 0x0001);
    const nonce = baseNonce.slice();
    nonce[11]! ^= e.sequence;
    expect(bytesToHex(nonce)).toBe(e.nonce);
    expect(bytesToHex(gcm(key, nonce, h(e.aad)).encrypt(h(e.pt)))).toBe(e.ct);
  });

  it("a flipped ciphertext bit is DECRYPTION_FAILED", async () => {
    const ct = h(v.encryptions[0]!.ct);
    ct[0]! ^= 1;
    await expect(
      hpkeOpenWith(primitives, {
        recipientKey: h(v.skRm),
        enc: h(v.enc),
        ciphertext: ct,
        info: h(v.info),
        aad: h(v.encryptions[0]!.aad),
        aead: 0x0001,
      }),
    ).rejects.toMatchObject({ code: "DECRYPTION_FAILED" });
  });
});

describe("rfc9180-p256-sha256-aes128gcm-base.json with @hpke/core (an independent implementation)", () => {
  const suite = new CipherSuite({
    kem: new DhkemP256HkdfSha256(),
    kdf: new HkdfSha256(),
    aead: new Aes128Gcm(),
  });

  it("every encryption opens in sequence with skRm", async () => {
    const recipientKey = await suite.kem.importKey("raw", h(v.skRm).buffer as ArrayBuffer, false);
    const recipient = await suite.createRecipientContext({
      recipientKey,
      enc: h(v.enc).buffer as ArrayBuffer,
      info: h(v.info).buffer as ArrayBuffer,
    });
    for (const e of v.encryptions) {
      expect(bytesToHex(new Uint8Array(await recipient.open(ab(h(e.ct)), ab(h(e.aad)))))).toBe(
        e.pt,
      );
    }
  });

  it("seal with ekm = (skEm, pkEm) reproduces enc and every ct", async () => {
    const ekm = {
      privateKey: await suite.kem.importKey("raw", h(v.skEm).buffer as ArrayBuffer, false),
      publicKey: await suite.kem.importKey("raw", h(v.pkEm).buffer as ArrayBuffer, true),
    };
    const sender = await suite.createSenderContext({
      recipientPublicKey: await suite.kem.importKey("raw", h(v.pkRm).buffer as ArrayBuffer, true),
      info: h(v.info).buffer as ArrayBuffer,
      ekm,
    });
    expect(bytesToHex(new Uint8Array(sender.enc))).toBe(v.enc);
    for (const e of v.encryptions) {
      expect(bytesToHex(new Uint8Array(await sender.seal(ab(h(e.pt)), ab(h(e.aad)))))).toBe(e.ct);
    }
  });
});
