// docs/protocol.md §4 (P-256 keys, DER ECDSA, point validation), checked against Wycheproof and OpenSSL.
import { createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assertKnownResult, hex, loadVector } from "../../../test/src/vectors.js";
import { fromHex, toHex, utf8 } from "./encoding.js";
import {
  ecdhSharedSecret,
  generateKeyPair,
  keyPairFromPrivateKey,
  P256_ORDER,
  parseDerSignature,
  parsePublicKey,
  parsePublicKeyBytes,
  signDer,
  signRaw,
  verifyDer,
} from "./p256.js";

type WycheproofCase = { tcId: number; comment: string; flags: string[]; result: string };
type EcdsaFile = {
  numberOfTests: number;
  testGroups: {
    publicKey: { uncompressed: string };
    tests: (WycheproofCase & { msg: string; sig: string })[];
  }[];
};
type EcdhFile = {
  numberOfTests: number;
  testGroups: { tests: (WycheproofCase & { public: string; private: string; shared: string })[] }[];
};

const ECDSA_FILE = "ecdsa_secp256r1_sha256_test.json";
const ECDH_FILE = "ecdh_secp256r1_ecpoint_test.json";
const ecdsa = loadVector<EcdsaFile>(`wycheproof/${ECDSA_FILE}`);
const ecdh = loadVector<EcdhFile>(`wycheproof/${ECDH_FILE}`);

// Wycheproof private keys are big-endian integers of any length (leading 00 bytes included).
function scalar32(h: string): Uint8Array {
  return hex(BigInt(`0x${h}`).toString(16).padStart(64, "0"));
}

describe(`Wycheproof ${ECDSA_FILE} through verifyDer`, () => {
  const tally = { valid: 0, invalid: 0, acceptableAccepted: 0, acceptableRejected: 0 };
  for (const group of ecdsa.testGroups) {
    const publicKey = hex(group.publicKey.uncompressed);
    for (const t of group.tests) {
      it(`${ECDSA_FILE} tcId ${t.tcId}: ${t.result} (${t.comment})`, () => {
        assertKnownResult(t.result);
        const ok = verifyDer(publicKey, hex(t.msg), hex(t.sig));
        if (t.result === "valid") {
          expect(ok).toBe(true);
          tally.valid++;
        } else if (t.result === "invalid") {
          expect(ok).toBe(false);
          tally.invalid++;
        } else {
          expect(typeof ok).toBe("boolean");
          if (ok) tally.acceptableAccepted++;
          else tally.acceptableRejected++;
        }
      });
    }
  }
  it(`${ECDSA_FILE}: every case accounted for`, () => {
    const total = ecdsa.testGroups.reduce((n, g) => n + g.tests.length, 0);
    expect(total).toBe(ecdsa.numberOfTests);
    expect(tally).toEqual({
      valid: 174,
      invalid: 310,
      acceptableAccepted: 0,
      acceptableRejected: 0,
    });
  });
});

describe(`Wycheproof ${ECDH_FILE} through parsePublicKey and ecdhSharedSecret`, () => {
  const tally = { valid: 0, invalid: 0, acceptableAccepted: 0, acceptableRejected: 0 };
  for (const t of ecdh.testGroups.flatMap((g) => g.tests)) {
    it(`${ECDH_FILE} tcId ${t.tcId}: ${t.result} (${t.comment})`, () => {
      assertKnownResult(t.result);
      const point = parsePublicKey(t.public);
      if (t.result === "invalid") {
        expect(point).toBeNull();
        expect(() => ecdhSharedSecret(scalar32(t.private), hex(t.public))).toThrow(
          "not a valid P-256 point",
        );
        tally.invalid++;
        return;
      }
      if (t.result === "acceptable" && point === null) {
        tally.acceptableRejected++;
        return;
      }
      expect(point).not.toBeNull();
      expect(toHex(ecdhSharedSecret(scalar32(t.private), point!.uncompressed))).toBe(t.shared);
      // Both encodings name the same point and give the same secret.
      expect(toHex(ecdhSharedSecret(scalar32(t.private), point!.compressed))).toBe(t.shared);
      if (t.result === "valid") tally.valid++;
      else tally.acceptableAccepted++;
    });
  }
  it(`${ECDH_FILE}: every case accounted for`, () => {
    const total = ecdh.testGroups.reduce((n, g) => n + g.tests.length, 0);
    expect(total).toBe(ecdh.numberOfTests);
    // tcId 2 (a compressed public key) is "acceptable": this parser accepts compressed points.
    expect(tally).toEqual({
      valid: 330,
      invalid: 24,
      acceptableAccepted: 1,
      acceptableRejected: 0,
    });
  });
});

describe("parsePublicKey", () => {
  const key = generateKeyPair();
  it("accepts both encodings in either case and returns both", () => {
    for (const form of [key.publicKeyCompressed, key.publicKeyUncompressed]) {
      for (const text of [toHex(form), toHex(form).toUpperCase()]) {
        const point = parsePublicKey(text);
        expect(point && toHex(point.compressed)).toBe(toHex(key.publicKeyCompressed));
        expect(point && toHex(point.uncompressed)).toBe(toHex(key.publicKeyUncompressed));
      }
    }
  });
  it("rejects wrong lengths, prefixes, non-hex, infinity and coordinates ≥ p", () => {
    const u = toHex(key.publicKeyUncompressed);
    const c = toHex(key.publicKeyCompressed);
    const p = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
    for (const bad of [
      "",
      "00",
      u.slice(0, -2),
      `${u}00`,
      `05${u.slice(2)}`,
      `04${c.slice(2)}`,
      `02${u.slice(2)}`,
      `zz${c.slice(2)}`,
      `02${p}`,
      `04${p}${u.slice(66)}`,
    ]) {
      expect(parsePublicKey(bad), bad).toBeNull();
    }
    expect(parsePublicKeyBytes(new Uint8Array([0]))).toBeNull();
  });
});

describe("key pairs", () => {
  it("deterministic: same seed and label give the same key, another label or seed another key", () => {
    const a = generateKeyPair({ seed: "emulator", label: "attestation" });
    const b = generateKeyPair({ seed: "emulator", label: "attestation" });
    const c = generateKeyPair({ seed: "emulator", label: "signer" });
    const d = generateKeyPair({ seed: "emulator-2", label: "attestation" });
    expect(toHex(a.privateKey)).toBe(toHex(b.privateKey));
    expect(toHex(a.publicKeyUncompressed)).toBe(toHex(b.publicKeyUncompressed));
    expect(toHex(c.privateKey)).not.toBe(toHex(a.privateKey));
    expect(toHex(d.privateKey)).not.toBe(toHex(a.privateKey));
  });
  it("random keys differ and are consistent with keyPairFromPrivateKey", () => {
    const a = generateKeyPair();
    const b = generateKeyPair();
    expect(toHex(a.privateKey)).not.toBe(toHex(b.privateKey));
    expect(keyPairFromPrivateKey(a.privateKey)).toEqual(a);
    expect(a.privateKey.length).toBe(32);
    expect(a.publicKeyUncompressed.length).toBe(65);
    expect(a.publicKeyCompressed.length).toBe(33);
  });
  it("the public key matches OpenSSL's for the same scalar", () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = privateKey.export({ format: "jwk" });
    const pair = keyPairFromPrivateKey(new Uint8Array(Buffer.from(jwk.d!, "base64url")));
    expect(toHex(pair.publicKeyUncompressed)).toBe(
      `04${Buffer.from(jwk.x!, "base64url").toString("hex")}${Buffer.from(jwk.y!, "base64url").toString("hex")}`,
    );
  });
  it("rejects scalars that are 0, ≥ n or not 32 bytes", () => {
    expect(() => keyPairFromPrivateKey(new Uint8Array(32))).toThrow("[1, n-1]");
    expect(() => keyPairFromPrivateKey(hex(P256_ORDER.toString(16)))).toThrow("[1, n-1]");
    expect(() => keyPairFromPrivateKey(new Uint8Array(31).fill(1))).toThrow(
      '"privateKey" expected 32 bytes, got 31',
    );
  });
});

describe("signDer / verifyDer", () => {
  const key = generateKeyPair();
  const message = utf8('{"type":"ACTIVITY","note":"café 💸"}');

  it("signs DER that OpenSSL verifies, and verifies with either key encoding", () => {
    for (let i = 0; i < 20; i++) {
      const der = signDer(key.privateKey, message);
      expect(der.length).toBeGreaterThanOrEqual(8);
      expect(der.length).toBeLessThanOrEqual(72);
      expect(parseDerSignature(der)).not.toBeNull();
      const spki = createPublicKey({
        key: Buffer.concat([
          Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200", "hex"),
          key.publicKeyUncompressed,
        ]),
        format: "der",
        type: "spki",
      });
      expect(verify("sha256", message, { key: spki, dsaEncoding: "der" }, der)).toBe(true);
      expect(verifyDer(key.publicKeyUncompressed, message, der)).toBe(true);
      expect(verifyDer(key.publicKeyCompressed, message, der)).toBe(true);
    }
  });

  it("accepts the high-S twin of a valid signature", () => {
    const der = signDer(key.privateKey, message);
    const { r, s } = parseDerSignature(der)!;
    const encodeInt = (n: bigint) => {
      let h = n.toString(16);
      if (h.length % 2) h = `0${h}`;
      if (Number.parseInt(h.slice(0, 2), 16) & 0x80) h = `00${h}`;
      return `02${(h.length / 2).toString(16).padStart(2, "0")}${h}`;
    };
    const body = encodeInt(r) + encodeInt(P256_ORDER - s);
    const twin = hex(`30${(body.length / 2).toString(16).padStart(2, "0")}${body}`);
    expect(verifyDer(key.publicKeyUncompressed, message, twin)).toBe(true);
  });

  it("rejects a flipped message bit, another key, a flipped signature bit, and junk", () => {
    const der = signDer(key.privateKey, message);
    const flipped = Uint8Array.from(message);
    flipped[3]! ^= 0x01;
    expect(verifyDer(key.publicKeyUncompressed, flipped, der)).toBe(false);
    expect(verifyDer(generateKeyPair().publicKeyUncompressed, message, der)).toBe(false);
    for (let bit = 0; bit < der.length * 8; bit += 7) {
      const bad = Uint8Array.from(der);
      bad[bit >> 3]! ^= 1 << (bit & 7);
      expect(verifyDer(key.publicKeyUncompressed, message, bad), `bit ${bit}`).toBe(false);
    }
    expect(verifyDer(new Uint8Array(65), message, der)).toBe(false);
    expect(verifyDer(key.publicKeyUncompressed, message, new Uint8Array(0))).toBe(false);
    expect(verifyDer(key.publicKeyUncompressed, message, fromHex("3006020101020101")!)).toBe(false);
  });

  it("signRaw gives 64-byte r ‖ s that OpenSSL verifies as IEEE P1363", () => {
    const raw = signRaw(key.privateKey, message);
    expect(raw.length).toBe(64);
    const jwk = {
      kty: "EC",
      crv: "P-256",
      x: Buffer.from(key.publicKeyUncompressed.subarray(1, 33)).toString("base64url"),
      y: Buffer.from(key.publicKeyUncompressed.subarray(33)).toString("base64url"),
    };
    const pub = createPublicKey({ key: jwk, format: "jwk" });
    expect(verify("sha256", message, { key: pub, dsaEncoding: "ieee-p1363" }, raw)).toBe(true);
  });
});
