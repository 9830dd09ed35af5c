// RFC 9180 §6.1 single-shot base mode with the suite of docs/protocol.md §4 (DHKEM(P-256, HKDF-SHA256),
// HKDF-SHA256, AES-256-GCM): each backend's hpkeSeal / hpkeOpen against @hpke/core configured for
// AES-256-GCM, in both directions, with arbitrary plaintext, info and AAD; then the failures an
// attacker can cause (any flipped bit of AAD, info, enc or ciphertext, a wrong recipient, an invalid
// enc) and the freshness of the ephemeral key.
import {
  Aes128Gcm,
  Aes256Gcm,
  CipherSuite,
  DhkemP256HkdfSha256,
  HkdfSha256,
  OpenError,
} from "@hpke/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CryptoBackend, DecryptionKey } from "../../src/crypto/backend.js";
import { concatBytes } from "../../src/crypto/bytes.js";
import { bytesToHex, hexToBytes } from "../../src/crypto/encoding.js";
import { hpkeSealWith, keySchedule } from "../../src/crypto/hpke.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import { decodePoint, encodePoint, P } from "../../src/crypto/p256.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";
import { isSignetError } from "../../src/errors/errors.js";
import { createWebCryptoHpkePrimitives } from "./webCryptoPrimitives.js";

const ab = (bytes: Uint8Array): ArrayBuffer => new Uint8Array(bytes).buffer as ArrayBuffer;
const TURNKEY_INFO = new TextEncoder().encode("turnkey_hpke");

const aes256 = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes256Gcm(),
});
const aes128 = new CipherSuite({
  kem: new DhkemP256HkdfSha256(),
  kdf: new HkdfSha256(),
  aead: new Aes128Gcm(),
});

/** A recipient @hpke/core holds: its private key stays inside @hpke/core. */
async function hpkeCoreRecipient() {
  const pair = await aes256.kem.generateKeyPair();
  const publicKey = new Uint8Array(await aes256.kem.serializePublicKey(pair.publicKey));
  return { pair, publicKey };
}

async function hpkeCoreOpen(
  suite: CipherSuite,
  recipientKey: CryptoKeyPair,
  sealed: { enc: Uint8Array; ciphertext: Uint8Array },
  info: Uint8Array,
  aad: Uint8Array,
): Promise<Uint8Array> {
  return new Uint8Array(
    await suite.open(
      { recipientKey, enc: ab(sealed.enc), info: ab(info) },
      ab(sealed.ciphertext),
      ab(aad),
    ),
  );
}

async function hpkeCoreSeal(
  recipientPublicKey: Uint8Array,
  plaintext: Uint8Array,
  info: Uint8Array,
  aad: (enc: Uint8Array) => Uint8Array,
) {
  const sender = await aes256.createSenderContext({
    recipientPublicKey: await aes256.kem.deserializePublicKey(ab(recipientPublicKey)),
    info: ab(info),
  });
  const enc = new Uint8Array(sender.enc);
  const ciphertext = new Uint8Array(await sender.seal(ab(plaintext), ab(aad(enc))));
  return { enc, ciphertext };
}

async function codeOf(run: () => unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (!isSignetError(error)) throw new Error(`expected a SignetError, got ${String(error)}`);
    return error.code;
  }
  throw new Error("expected a failure");
}

const bytesArbitrary = (maxLength: number) => fc.uint8Array({ maxLength });
const flip = (bytes: Uint8Array, bit: number): Uint8Array => {
  const out = bytes.slice();
  out[bit >> 3]! ^= 1 << (bit & 7);
  return out;
};

const backends: [string, CryptoBackend][] = [
  ["webcrypto", createWebCryptoBackend()],
  ["noble", createNobleBackend()],
];

describe.each(backends)("HPKE (AES-256-GCM) on %s", (_name, backend) => {
  const sealTo = (recipient: Uint8Array, plaintext: Uint8Array, info: Uint8Array) =>
    backend.hpkeSeal({
      recipientPublicKey: recipient,
      plaintext,
      info,
      aad: (enc) => concatBytes(enc, recipient),
    });
  const openWith = (
    key: DecryptionKey,
    enc: Uint8Array,
    ciphertext: Uint8Array,
    info: Uint8Array,
  ) =>
    key.hpkeOpen({
      enc,
      ciphertext,
      info,
      aad: concatBytes(enc, hexToBytes(key.publicKeyUncompressed)),
    });

  it("sealed here → @hpke/core (Aes256Gcm) opens, for any plaintext, info and AAD; Aes128Gcm does not", async () => {
    const recipient = await hpkeCoreRecipient();
    await fc.assert(
      fc.asyncProperty(
        bytesArbitrary(300),
        bytesArbitrary(64),
        bytesArbitrary(200),
        async (plaintext, info, extra) => {
          let seen: Uint8Array | undefined;
          const sealed = await backend.hpkeSeal({
            recipientPublicKey: recipient.publicKey,
            plaintext,
            info,
            aad: (enc) => {
              seen = enc;
              return concatBytes(enc, extra);
            },
          });
          // The AAD callback saw exactly the enc that was returned.
          expect(seen && bytesToHex(seen)).toBe(bytesToHex(sealed.enc));
          expect(sealed.ciphertext.length).toBe(plaintext.length + 16);
          const aad = concatBytes(sealed.enc, extra);
          const opened = await hpkeCoreOpen(aes256, recipient.pair, sealed, info, aad);
          expect(bytesToHex(opened)).toBe(bytesToHex(plaintext));
          // The suite id carries AEAD 0x0002 and the key is 32 bytes: an AES-128 suite cannot open.
          await expect(
            hpkeCoreOpen(aes128, recipient.pair, sealed, info, aad),
          ).rejects.toBeInstanceOf(OpenError);
        },
      ),
      { numRuns: 40, seed: 9180 },
    );
  });

  it("@hpke/core (Aes256Gcm) seals → opened here, for any plaintext, info and AAD", async () => {
    const key = await backend.generateDecryptionKey();
    const recipient = hexToBytes(key.publicKeyUncompressed);
    await fc.assert(
      fc.asyncProperty(
        bytesArbitrary(300),
        bytesArbitrary(64),
        bytesArbitrary(200),
        async (plaintext, info, extra) => {
          const sealed = await hpkeCoreSeal(recipient, plaintext, info, (enc) =>
            concatBytes(enc, extra),
          );
          const opened = await key.hpkeOpen({
            enc: sealed.enc,
            ciphertext: sealed.ciphertext,
            info,
            aad: concatBytes(sealed.enc, extra),
          });
          expect(bytesToHex(opened)).toBe(bytesToHex(plaintext));
        },
      ),
      { numRuns: 40, seed: 9181 },
    );
  });

  it("@hpke/core seals with the docs/protocol.md §4 AAD (enc ‖ recipient) → an imported decryption key opens", async () => {
    const scalar = "a86e9ab4cda2b0d2c4ef1d5be1a0bb1f7aa4cbc8f1b5c1e2b3a4d5e6f7081921";
    const key = await backend.importDecryptionKey(hexToBytes(scalar));
    const recipient = hexToBytes(key.publicKeyUncompressed);
    const plaintext = new TextEncoder().encode('{"otp_code":"000000","public_key":"04"}');
    const sealed = await hpkeCoreSeal(recipient, plaintext, TURNKEY_INFO, (enc) =>
      concatBytes(enc, recipient),
    );
    const opened = await openWith(key, sealed.enc, sealed.ciphertext, TURNKEY_INFO);
    expect(new TextDecoder().decode(opened)).toBe(new TextDecoder().decode(plaintext));
  });

  it("a fresh ephemeral key per seal: 20 seals of one message give 20 distinct valid enc values", async () => {
    const key = await backend.generateDecryptionKey();
    const recipient = hexToBytes(key.publicKeyUncompressed);
    const plaintext = new TextEncoder().encode("same message");
    const encs = new Set<string>();
    const ciphertexts = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { enc, ciphertext } = await sealTo(recipient, plaintext, TURNKEY_INFO);
      expect(enc.length).toBe(65);
      expect(enc[0]).toBe(0x04);
      decodePoint(enc, "enc"); // on the curve
      expect(bytesToHex(enc)).not.toBe(key.publicKeyUncompressed);
      encs.add(bytesToHex(enc));
      ciphertexts.add(bytesToHex(ciphertext));
      expect(bytesToHex(await openWith(key, enc, ciphertext, TURNKEY_INFO))).toBe(
        bytesToHex(plaintext),
      );
    }
    expect(encs.size).toBe(20);
    expect(ciphertexts.size).toBe(20);
  });

  it("any flipped bit of the AAD, the info or the ciphertext fails with DECRYPTION_FAILED", async () => {
    const key = await backend.generateDecryptionKey();
    const recipient = hexToBytes(key.publicKeyUncompressed);
    const plaintext = new TextEncoder().encode("abandon ability able about above absent");
    const { enc, ciphertext } = await sealTo(recipient, plaintext, TURNKEY_INFO);
    const aad = concatBytes(enc, recipient);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("aad", "info", "ciphertext"), fc.nat(), async (part, n) => {
        const parts = { aad, info: TURNKEY_INFO, ciphertext };
        const target = parts[part];
        const changed = { ...parts, [part]: flip(target, n % (target.length * 8)) };
        const code = await codeOf(() =>
          key.hpkeOpen({
            enc,
            ciphertext: changed.ciphertext,
            info: changed.info,
            aad: changed.aad,
          }),
        );
        expect(code).toBe("DECRYPTION_FAILED");
      }),
      { numRuns: 60, seed: 9182 },
    );
    // Every bit of the AAD, exhaustively (both 65-byte halves: enc and recipient key).
    for (let bit = 0; bit < aad.length * 8; bit += 7) {
      expect(
        await codeOf(() =>
          key.hpkeOpen({ enc, ciphertext, info: TURNKEY_INFO, aad: flip(aad, bit) }),
        ),
      ).toBe("DECRYPTION_FAILED");
    }
    // Unchanged, it still opens.
    expect(bytesToHex(await openWith(key, enc, ciphertext, TURNKEY_INFO))).toBe(
      bytesToHex(plaintext),
    );
  });

  it("a truncated or empty ciphertext fails with DECRYPTION_FAILED", async () => {
    const key = await backend.generateDecryptionKey();
    const recipient = hexToBytes(key.publicKeyUncompressed);
    const { enc, ciphertext } = await sealTo(recipient, Uint8Array.of(1, 2, 3), TURNKEY_INFO);
    for (const cut of [new Uint8Array(0), ciphertext.subarray(0, 15), ciphertext.subarray(1)]) {
      expect(await codeOf(() => openWith(key, enc, cut, TURNKEY_INFO))).toBe("DECRYPTION_FAILED");
    }
  });

  it("a wrong recipient fails with DECRYPTION_FAILED, whichever AAD it uses", async () => {
    const right = await backend.generateDecryptionKey();
    const wrong = await backend.generateDecryptionKey();
    const recipient = hexToBytes(right.publicKeyUncompressed);
    const { enc, ciphertext } = await sealTo(recipient, Uint8Array.of(42), TURNKEY_INFO);
    // Its own AAD (enc ‖ its key) and the sender's AAD (enc ‖ the right key): the KEM context
    // binds pkRm, so neither opens.
    expect(await codeOf(() => openWith(wrong, enc, ciphertext, TURNKEY_INFO))).toBe(
      "DECRYPTION_FAILED",
    );
    expect(
      await codeOf(() =>
        wrong.hpkeOpen({ enc, ciphertext, info: TURNKEY_INFO, aad: concatBytes(enc, recipient) }),
      ),
    ).toBe("DECRYPTION_FAILED");
  });

  it("enc: another valid point fails with DECRYPTION_FAILED; an invalid one with POINT_INVALID", async () => {
    const key = await backend.generateDecryptionKey();
    const recipient = hexToBytes(key.publicKeyUncompressed);
    const { enc, ciphertext } = await sealTo(recipient, Uint8Array.of(7), TURNKEY_INFO);
    const aad = concatBytes(enc, recipient);
    // −enc (same x, other y) is a valid point with the same x coordinate, hence the same DH
    // output: only kem_context = enc ‖ pkRm tells it apart.
    const point = decodePoint(enc);
    const negated = encodePoint({ x: point.x, y: P - point.y }, false);
    expect(
      await codeOf(() => key.hpkeOpen({ enc: negated, ciphertext, info: TURNKEY_INFO, aad })),
    ).toBe("DECRYPTION_FAILED");
    const other = hexToBytes((await backend.generateDecryptionKey()).publicKeyUncompressed);
    expect(
      await codeOf(() => key.hpkeOpen({ enc: other, ciphertext, info: TURNKEY_INFO, aad })),
    ).toBe("DECRYPTION_FAILED");
    const offCurve = enc.slice();
    offCurve[64]! ^= 1;
    const outOfRange = concatBytes(
      Uint8Array.of(4),
      new Uint8Array(32).fill(0xff),
      enc.subarray(33),
    );
    const infinityLike = concatBytes(Uint8Array.of(4), new Uint8Array(64));
    const wrongPrefix = concatBytes(Uint8Array.of(3), enc.subarray(1));
    for (const bad of [offCurve, outOfRange, infinityLike, wrongPrefix]) {
      expect(
        await codeOf(() => key.hpkeOpen({ enc: bad, ciphertext, info: TURNKEY_INFO, aad })),
      ).toBe("POINT_INVALID");
    }
    // Compressed enc (33 bytes) is not the serialisation RFC 9180 uses for P-256.
    const compressed = encodePoint(point, true);
    expect(
      await codeOf(() => key.hpkeOpen({ enc: compressed, ciphertext, info: TURNKEY_INFO, aad })),
    ).toBe("POINT_INVALID");
  });

  it("seal to an invalid recipient key: POINT_INVALID, and the plaintext is in no message", async () => {
    const secret = new TextEncoder().encode("leaf lady secret mnemonic");
    const good = hexToBytes((await backend.generateDecryptionKey()).publicKeyUncompressed);
    const offCurve = good.slice();
    offCurve[64]! ^= 1;
    for (const bad of [offCurve, good.subarray(0, 33), new Uint8Array(65)]) {
      let error: unknown;
      try {
        await sealTo(bad, secret, TURNKEY_INFO);
      } catch (e) {
        error = e;
      }
      expect(isSignetError(error) && error.code).toBe("POINT_INVALID");
      expect(String((error as Error).message)).not.toContain("leaf lady");
    }
  });
});

describe("src/crypto/hpke.ts on WebCrypto primitives (a second substrate for the React Native composition)", () => {
  const p = createWebCryptoHpkePrimitives();

  it("the key schedule picks a 32-byte key for AES-256-GCM (0x0002) and 16 for AES-128-GCM (0x0001)", async () => {
    const shared = new Uint8Array(32).fill(7);
    const k256 = await keySchedule(p, shared, TURNKEY_INFO, 0x0002);
    const k128 = await keySchedule(p, shared, TURNKEY_INFO, 0x0001);
    expect(k256.key.length).toBe(32);
    expect(k128.key.length).toBe(16);
    expect(k256.baseNonce.length).toBe(12);
    // Different suite ids, so different keys and nonces, not a prefix of one another.
    expect(bytesToHex(k256.key).startsWith(bytesToHex(k128.key))).toBe(false);
    expect(bytesToHex(k256.baseNonce)).not.toBe(bytesToHex(k128.baseNonce));
  });

  it("dh is the X coordinate of the shared point (as node:crypto ECDH computes it)", async () => {
    const { createECDH } = await import("node:crypto");
    const subtle = globalThis.crypto.subtle;
    const pair = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, [
      "deriveBits",
    ]);
    const mine = await p.publicKey(pair);
    const peer = createECDH("prime256v1");
    const peerPublic = new Uint8Array(peer.generateKeys());
    const dh = await p.dh(pair, peerPublic);
    expect(dh.length).toBe(32);
    expect(bytesToHex(dh)).toBe(peer.computeSecret(mine).toString("hex"));
  });

  it("hmacSha256 handles the empty-salt substitute, short and long keys (RFC 4231 cases 1 and 6)", async () => {
    const case1 = await p.hmacSha256(
      new Uint8Array(20).fill(0x0b),
      new TextEncoder().encode("Hi There"),
    );
    expect(bytesToHex(case1)).toBe(
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    );
    const case6 = await p.hmacSha256(
      new Uint8Array(131).fill(0xaa),
      new TextEncoder().encode("Test Using Larger Than Block-Size Key - Hash Key First"),
    );
    expect(bytesToHex(case6)).toBe(
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    );
    // HMAC with an empty key equals HMAC with HashLen zero bytes (RFC 2104 pads the key with
    // zeros), which is why Extract may substitute them for WebCrypto, which refuses empty keys.
    const { createHmac } = await import("node:crypto");
    const zeros = await p.hmacSha256(new Uint8Array(32), Uint8Array.of(0));
    expect(bytesToHex(zeros)).toBe(
      createHmac("sha256", Buffer.alloc(0)).update(Buffer.of(0)).digest("hex"),
    );
  });

  it("hpkeSealWith with a WebCrypto CryptoKeyPair as skE → @hpke/core opens", async () => {
    const recipient = await hpkeCoreRecipient();
    const ephemeralKey = await globalThis.crypto.subtle.generateKey(
      { name: "ECDH", namedCurve: "P-256" },
      false,
      ["deriveBits"],
    );
    expect(ephemeralKey.privateKey.extractable).toBe(false);
    const sealed = await hpkeSealWith(p, {
      recipientPublicKey: recipient.publicKey,
      ephemeralKey,
      plaintext: Uint8Array.of(1, 2, 3),
      info: TURNKEY_INFO,
      aad: (enc) => concatBytes(enc, recipient.publicKey),
    });
    expect(bytesToHex(sealed.enc)).toBe(bytesToHex(await p.publicKey(ephemeralKey)));
    const opened = await hpkeCoreOpen(
      aes256,
      recipient.pair,
      sealed,
      TURNKEY_INFO,
      concatBytes(sealed.enc, recipient.publicKey),
    );
    expect([...opened]).toEqual([1, 2, 3]);
  });
});
