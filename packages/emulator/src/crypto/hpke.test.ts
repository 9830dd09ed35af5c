// RFC 9180 A.3.1 known answer, the legacy session-key bundle (docs/protocol.md §4), and HPKE properties.
import { describe, expect, it } from "vitest";
import {
  hex,
  type LegacySessionKeyBundle,
  loadVector,
  type Rfc9180Vector,
} from "../../../test/src/vectors.js";
import { sealLegacySessionKey } from "./bundles.js";
import { base58checkDecode, concatBytes, toHex, utf8 } from "./encoding.js";
import {
  aeadOpen,
  aeadSeal,
  hpkeDecap,
  hpkeEncap,
  hpkeKeySchedule,
  hpkeNonce,
  hpkeOpen,
  hpkeSeal,
  TURNKEY_HPKE_INFO,
} from "./hpke.js";
import { generateKeyPair, keyPairFromPrivateKey, parsePublicKeyBytes } from "./p256.js";

const RFC = "rfc9180-p256-sha256-aes128gcm-base.json";
const LEGACY = "legacy-session-key-bundle.json";
const rfc = loadVector<Rfc9180Vector>(RFC);
const legacy = loadVector<LegacySessionKeyBundle>(LEGACY);

describe(`${RFC} (RFC 9180 A.3.1)`, () => {
  const ephemeral = keyPairFromPrivateKey(hex(rfc.skEm));
  const recipient = keyPairFromPrivateKey(hex(rfc.skRm));
  const info = hex(rfc.info);

  it(`${RFC}: suite is the one this HPKE implements (base mode, 0x0010/0x0001/0x0001)`, () => {
    expect([rfc.mode, rfc.kem_id, rfc.kdf_id, rfc.aead_id]).toEqual([0, 16, 1, 1]);
    expect(toHex(ephemeral.publicKeyUncompressed)).toBe(rfc.pkEm);
    expect(toHex(recipient.publicKeyUncompressed)).toBe(rfc.pkRm);
  });

  it(`${RFC}: Encap and Decap give shared_secret; the key schedule gives key and base_nonce`, () => {
    const { enc, sharedSecret } = hpkeEncap(hex(rfc.pkRm), ephemeral);
    expect(toHex(enc)).toBe(rfc.enc);
    expect(toHex(sharedSecret)).toBe(rfc.shared_secret);
    expect(toHex(hpkeDecap(enc, recipient))).toBe(rfc.shared_secret);
    const schedule = hpkeKeySchedule({ sharedSecret, info, aead: "aes-128-gcm" });
    expect(toHex(schedule.key)).toBe(rfc.key);
    expect(toHex(schedule.baseNonce)).toBe(rfc.base_nonce);
  });

  for (const e of rfc.encryptions) {
    it(`${RFC} encryptions sequence ${e.sequence}: nonce and ciphertext, seal and open`, () => {
      const schedule = hpkeKeySchedule({
        sharedSecret: hex(rfc.shared_secret),
        info,
        aead: "aes-128-gcm",
      });
      const nonce = hpkeNonce(schedule.baseNonce, e.sequence);
      expect(toHex(nonce)).toBe(e.nonce);
      const ct = aeadSeal({ key: schedule.key, nonce, aad: hex(e.aad), plaintext: hex(e.pt) });
      expect(toHex(ct)).toBe(e.ct);
      expect(toHex(aeadOpen({ key: schedule.key, nonce, aad: hex(e.aad), ciphertext: ct }))).toBe(
        e.pt,
      );
      if (e.sequence === 0) {
        // The single-shot API is exactly sequence 0.
        const sealed = hpkeSeal({
          plaintext: hex(e.pt),
          recipientPublicKey: hex(rfc.pkRm),
          info,
          aad: hex(e.aad),
          ephemeral,
          aead: "aes-128-gcm",
        });
        expect(toHex(sealed.enc)).toBe(rfc.enc);
        expect(toHex(sealed.ciphertext)).toBe(e.ct);
        const opened = hpkeOpen({
          enc: hex(rfc.enc),
          ciphertext: hex(e.ct),
          recipient,
          info,
          aad: hex(e.aad),
          aead: "aes-128-gcm",
        });
        expect(toHex(opened)).toBe(e.pt);
      }
    });
  }
  it(`${RFC}: every encryption accounted for`, () => {
    expect(rfc.encryptions.map((e) => e.sequence)).toEqual([0, 1]);
  });
});

describe(`${LEGACY} (Turnkey SDK fixture)`, () => {
  const recipient = keyPairFromPrivateKey(hex(legacy.recipientPrivateKey));

  function openLegacy(bundle: string): Uint8Array {
    const raw = base58checkDecode(bundle);
    if (raw?.length !== 81) throw new Error("bad legacy bundle");
    const enc = parsePublicKeyBytes(raw.subarray(0, 33))!.uncompressed;
    return hpkeOpen({
      enc,
      ciphertext: raw.subarray(33),
      recipient,
      info: TURNKEY_HPKE_INFO,
      aad: concatBytes(enc, recipient.publicKeyUncompressed),
    });
  }

  it(`${LEGACY}: base58check decode + hpkeOpen with uncompressed enc gives the expected scalar`, () => {
    expect(toHex(openLegacy(legacy.bundle))).toBe(legacy.expectedPlaintextHex);
  });
  it(`${LEGACY}: sealLegacySessionKey round-trips through the same opening`, () => {
    const session = generateKeyPair();
    const sealed = sealLegacySessionKey({
      sessionPrivateKey: session.privateKey,
      recipientPublicKey: recipient.publicKeyUncompressed,
    });
    expect(base58checkDecode(sealed)!.length).toBe(81);
    expect(toHex(openLegacy(sealed))).toBe(toHex(session.privateKey));
    // A compressed recipient key is accepted and normalised.
    const again = sealLegacySessionKey({
      sessionPrivateKey: hex(legacy.expectedPlaintextHex),
      recipientPublicKey: recipient.publicKeyCompressed,
    });
    expect(toHex(openLegacy(again))).toBe(legacy.expectedPlaintextHex);
  });
  it(`${LEGACY}: a corrupted bundle fails the checksum or the tag`, () => {
    const raw = base58checkDecode(legacy.bundle)!;
    expect(
      base58checkDecode(`${legacy.bundle.slice(0, -1)}${legacy.bundle.endsWith("1") ? "2" : "1"}`),
    ).toBeNull();
    const enc = parsePublicKeyBytes(raw.subarray(0, 33))!.uncompressed;
    const ct = raw.slice(33);
    ct[0]! ^= 1;
    expect(() =>
      hpkeOpen({
        enc,
        ciphertext: ct,
        recipient,
        info: TURNKEY_HPKE_INFO,
        aad: concatBytes(enc, recipient.publicKeyUncompressed),
      }),
    ).toThrow("HPKE decryption failed");
  });
});

describe("hpkeSeal / hpkeOpen (AES-256-GCM, the service suite)", () => {
  const recipient = generateKeyPair();
  const plaintext = utf8(
    "leaf lady until indicate praise final route toast cake minimum insect unknown",
  );
  const aad = utf8("aad");

  it("round-trips with a fresh ephemeral key each time", () => {
    const a = hpkeSeal({
      plaintext,
      recipientPublicKey: recipient.publicKeyUncompressed,
      info: TURNKEY_HPKE_INFO,
      aad,
    });
    const b = hpkeSeal({
      plaintext,
      recipientPublicKey: recipient.publicKeyCompressed,
      info: TURNKEY_HPKE_INFO,
      aad,
    });
    expect(toHex(a.enc)).not.toBe(toHex(b.enc));
    expect(a.enc.length).toBe(65);
    expect(a.ciphertext.length).toBe(plaintext.length + 16);
    for (const s of [a, b]) {
      expect(toHex(hpkeOpen({ ...s, recipient, info: TURNKEY_HPKE_INFO, aad }))).toBe(
        toHex(plaintext),
      );
    }
  });

  it("fails with a plain Error that names no secret: wrong aad, info, key, tag, enc", () => {
    const s = hpkeSeal({
      plaintext,
      recipientPublicKey: recipient.publicKeyUncompressed,
      info: TURNKEY_HPKE_INFO,
      aad,
    });
    const base = { ...s, recipient, info: TURNKEY_HPKE_INFO, aad };
    const tampered = s.ciphertext.slice();
    tampered[tampered.length - 1]! ^= 0x80;
    const attempts: (() => Uint8Array)[] = [
      () => hpkeOpen({ ...base, aad: utf8("aae") }),
      () => hpkeOpen({ ...base, info: utf8("turnkey_hpkf") }),
      () => hpkeOpen({ ...base, recipient: generateKeyPair() }),
      () => hpkeOpen({ ...base, ciphertext: tampered }),
      () => hpkeOpen({ ...base, ciphertext: s.ciphertext.subarray(0, 10) }),
      () => hpkeOpen({ ...base, enc: generateKeyPair().publicKeyUncompressed }),
      () => hpkeOpen({ ...base, aead: "aes-128-gcm" }),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow(Error);
      try {
        attempt();
      } catch (error) {
        const message = (error as Error).message;
        expect(message).not.toContain(toHex(recipient.privateKey));
        expect(message).not.toContain("leaf");
      }
    }
  });

  it("rejects an off-curve enc or recipient before any ECDH", () => {
    const offCurve = hex(`04${"00".repeat(63)}01`);
    expect(() =>
      hpkeSeal({ plaintext, recipientPublicKey: offCurve, info: TURNKEY_HPKE_INFO, aad }),
    ).toThrow('"recipientPublicKey" is not a valid P-256 point');
    expect(() =>
      hpkeOpen({
        enc: offCurve,
        ciphertext: new Uint8Array(32),
        recipient,
        info: TURNKEY_HPKE_INFO,
        aad,
      }),
    ).toThrow('"enc" is not a valid P-256 point');
  });

  it("hpkeNonce XORs the sequence into the low bytes and refuses bad sequences", () => {
    const base = new Uint8Array(12);
    expect(toHex(hpkeNonce(base, 0x0102))).toBe(`${"00".repeat(10)}0102`);
    expect(() => hpkeNonce(base, -1)).toThrow();
    expect(() => hpkeNonce(base, 1.5)).toThrow();
  });
});
