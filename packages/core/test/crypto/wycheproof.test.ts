// Wycheproof (C2SP, testvectors_v1): ECDSA P-256/SHA-256 in DER and P1363, and P-256 public point
// parsing with ECDH, on both backends. Every case is counted; unknown results fail.
import { p256 } from "@noble/curves/nist.js";
import { describe, expect, it } from "vitest";
import type { CryptoBackend } from "../../src/crypto/backend.js";
import { bytesToHex, hexToBytes } from "../../src/crypto/encoding.js";
import { createNobleBackend, createNobleHpkePrimitives } from "../../src/crypto/noble.js";

const nobleHpkePrimitives = createNobleHpkePrimitives();

import {
  loadVector,
  type WycheproofEcdh,
  type WycheproofEcdsa,
} from "../../../test/src/vectors.js";
import {
  bigIntToBytes32,
  bytesToBigInt,
  decodePoint,
  encodePoint,
  N,
} from "../../src/crypto/p256.js";
import { multiply } from "../../src/crypto/p256-multiply.js";
import { verifySignature } from "../../src/crypto/signature.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";
import { isSignetError } from "../../src/errors/errors.js";

const backends: [string, CryptoBackend][] = [
  ["webcrypto", createWebCryptoBackend()],
  ["noble", createNobleBackend()],
];

async function outcome(run: () => Promise<unknown>): Promise<"accepted" | "rejected"> {
  try {
    await run();
    return "accepted";
  } catch (error) {
    // A rejection must be typed: a raw TypeError from a dependency fails the test.
    if (!isSignetError(error)) throw error;
    return "rejected";
  }
}

for (const [file, format] of [
  ["ecdsa_secp256r1_sha256_test.json", "der"],
  ["ecdsa_secp256r1_sha256_p1363_test.json", "p1363"],
] as const) {
  const vectors = loadVector<WycheproofEcdsa>(`wycheproof/${file}`);
  const cases = vectors.testGroups.flatMap((group) =>
    group.tests.map((test) => ({ ...test, publicKey: group.publicKey.uncompressed })),
  );

  describe.each(backends)(`wycheproof/${file} on %s`, (_name, backend) => {
    it("accounts for every case", () => {
      expect(cases.length).toBe(vectors.numberOfTests);
    });

    it.each(cases.map((c) => [c.tcId, c.result, c] as const))(
      "tcId %i (%s)",
      async (_id, result, c) => {
        const got = await outcome(() =>
          verifySignature(backend, {
            publicKey: c.publicKey,
            message: hexToBytes(c.msg),
            signature: hexToBytes(c.sig),
            format,
          }),
        );
        if (result === "valid") expect(got).toBe("accepted");
        else if (result === "invalid") expect(got).toBe("rejected");
        else if (result === "acceptable") expect(["accepted", "rejected"]).toContain(got);
        else throw new Error(`unknown result ${result}`);
      },
    );
  });
}

describe("wycheproof/ecdh_secp256r1_ecpoint_test.json", () => {
  const vectors = loadVector<WycheproofEcdh>("wycheproof/ecdh_secp256r1_ecpoint_test.json");
  const cases = vectors.testGroups.flatMap((group) => group.tests);

  it("accounts for every case", () => {
    expect(cases.length).toBe(vectors.numberOfTests);
  });

  it.each(cases.map((c) => [c.tcId, c.result, c] as const))(
    "tcId %i (%s)",
    async (_id, result, c) => {
      // Wycheproof private keys may carry a leading zero byte; reduce to 32 bytes.
      const scalar = bigIntToBytes32(bytesToBigInt(hexToBytes(c.private)) % N);
      const run = async () => {
        const point = decodePoint(hexToBytes(c.public));
        const uncompressed = encodePoint(point, false);
        // Three ECDH implementations must agree: BigInt (p256.ts), noble (backend), WebCrypto.
        const ours = bigIntToBytes32(multiply(bytesToBigInt(scalar), point).x);
        const noble = await nobleHpkePrimitives.dh(scalar, uncompressed);
        const subtle = globalThis.crypto.subtle;
        const privateKey = await subtle.importKey(
          "jwk",
          {
            kty: "EC",
            crv: "P-256",
            d: Buffer.from(scalar).toString("base64url"),
            ...jwkXY(p256.getPublicKey(scalar, false)),
          },
          { name: "ECDH", namedCurve: "P-256" },
          false,
          ["deriveBits"],
        );
        const publicKey = await subtle.importKey(
          "raw",
          uncompressed as Uint8Array<ArrayBuffer>,
          { name: "ECDH", namedCurve: "P-256" },
          false,
          [],
        );
        const web = new Uint8Array(
          await subtle.deriveBits({ name: "ECDH", public: publicKey }, privateKey, 256),
        );
        expect(bytesToHex(noble)).toBe(bytesToHex(ours));
        expect(bytesToHex(web)).toBe(bytesToHex(ours));
        return bytesToHex(ours);
      };
      let shared: string | undefined;
      const got = await outcome(async () => {
        shared = await run();
      });
      if (result === "valid") {
        expect(got).toBe("accepted");
        expect(shared).toBe(c.shared);
      } else if (result === "invalid") {
        expect(got).toBe("rejected");
      } else if (result === "acceptable") {
        // The one acceptable case is a compressed point, which Signet accepts.
        expect(got).toBe("accepted");
        expect(shared).toBe(c.shared);
      } else {
        throw new Error(`unknown result ${result}`);
      }
    },
  );
});

function jwkXY(uncompressed: Uint8Array) {
  return {
    x: Buffer.from(uncompressed.subarray(1, 33)).toString("base64url"),
    y: Buffer.from(uncompressed.subarray(33)).toString("base64url"),
  };
}
