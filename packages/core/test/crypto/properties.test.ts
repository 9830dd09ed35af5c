// fast-check properties: encodings round-trip; DER ↔ P1363 round-trips; any flipped bit in the
// payload, signature or public key makes verification fail, on both backends.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCryptoApi } from "../../src/crypto/api.js";
import type { CryptoBackend } from "../../src/crypto/backend.js";
import {
  base58CheckDecode,
  base58CheckEncode,
  base58Decode,
  base58Encode,
} from "../../src/crypto/base58.js";
import { base64UrlDecode } from "../../src/crypto/base64url-decode.js";
import * as portableUtf8 from "../../src/crypto/codec.js";
import * as webUtf8 from "../../src/crypto/codec-web.js";
import { p1363ToDer } from "../../src/crypto/der.js";
import { derToP1363 } from "../../src/crypto/der-parse.js";
import { base64UrlEncode, bytesToHex, hexToBytes } from "../../src/crypto/encoding.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import { decodePoint, encodePoint, N } from "../../src/crypto/p256.js";
import { verifySignature } from "../../src/crypto/signature.js";
import { createWebCryptoBackend } from "../../src/crypto/webcrypto.js";
import { isSignetError } from "../../src/errors/errors.js";

const noble = createNobleBackend();
const sha256 = noble.sha256;
const bytes = fc.uint8Array({ maxLength: 300 });

describe("encoding round trips", () => {
  it("hex: bytes → lowercase hex → bytes; uppercase input decodes the same", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const hex = bytesToHex(b);
        expect(hex).toMatch(/^[0-9a-f]*$/);
        expect(hexToBytes(hex)).toEqual(b);
        expect(hexToBytes(hex.toUpperCase())).toEqual(b);
        expect(hex).toBe(Buffer.from(b).toString("hex"));
      }),
    );
  });

  it("base64url: matches Node's encoder, no padding, round trips", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const text = base64UrlEncode(b);
        expect(text).toBe(Buffer.from(b).toString("base64url"));
        expect(base64UrlDecode(text)).toEqual(b);
      }),
    );
  });

  it("base64url: one encoding per value (non-zero trailing bits refused)", () => {
    expect(() => base64UrlDecode("AB")).toThrow(
      expect.objectContaining({ code: "ENCODING_INVALID" }),
    );
    expect(base64UrlDecode("AA")).toEqual(Uint8Array.of(0));
  });

  // Both codecs behind "#codec": the React Native build's own and the browser/Node one.
  for (const [codec, { utf8Encode, utf8Decode }] of [
    ["portable", portableUtf8],
    ["TextEncoder", webUtf8],
  ] as const) {
    it(`UTF-8 (${codec}): matches TextEncoder/TextDecoder for well-formed strings`, () => {
      fc.assert(
        fc.property(fc.string({ unit: "binary" }), (s) => {
          const encoded = utf8Encode(s);
          expect(encoded).toEqual(new TextEncoder().encode(s));
          expect(utf8Decode(encoded)).toBe(s);
        }),
      );
    });

    it(`UTF-8 (${codec}): decoding refuses whatever a fatal TextDecoder refuses`, () => {
      const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 12 }), (b) => {
          let expected: string | undefined;
          try {
            expected = fatal.decode(b);
          } catch {
            expected = undefined;
          }
          if (expected === undefined)
            expect(() => utf8Decode(b)).toThrow(
              expect.objectContaining({ code: "ENCODING_INVALID" }),
            );
          else expect(utf8Decode(b)).toBe(expected);
        }),
        { numRuns: 5000 },
      );
    });

    it(`base64url (${codec}): the raw codec agrees with Node's for any bytes`, () => {
      const { encodeBase64Url, decodeBase64Url } = codec === "portable" ? portableUtf8 : webUtf8;
      fc.assert(
        fc.property(bytes, (b) => {
          const text = encodeBase64Url(b);
          expect(text).toBe(Buffer.from(b).toString("base64url"));
          expect(decodeBase64Url(text)).toEqual(b);
        }),
      );
    });

    it(`UTF-8 (${codec}): a lone surrogate is refused, a pair is encoded, a BOM is kept`, () => {
      for (const lone of ["\uD800", "a\uDC00", "\uDBFFx", "\uDE00\uD83D"])
        expect(() => utf8Encode(lone)).toThrow(
          expect.objectContaining({ code: "ENCODING_INVALID" }),
        );
      expect(utf8Encode("\uD83D\uDE00")).toEqual(new Uint8Array([0xf0, 0x9f, 0x98, 0x80]));
      expect(utf8Decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toBe("\uFEFFa");
      expect(() => utf8Encode(1 as unknown as string)).toThrow(
        expect.objectContaining({ code: "ENCODING_INVALID" }),
      );
    });
  }

  it("base58 and base58check round trip (leading zeros kept)", async () => {
    await fc.assert(
      fc.asyncProperty(bytes, async (b) => {
        expect(base58Decode(base58Encode(b))).toEqual(b);
        expect(await base58CheckDecode(await base58CheckEncode(b, sha256), sha256)).toEqual(b);
      }),
    );
  });

  it("base58check: any changed character fails the checksum or the alphabet", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 81 }),
        fc.nat(),
        fc.nat(),
        async (b, at, to) => {
          const text = await base58CheckEncode(b, sha256);
          const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
          const i = at % text.length;
          const replacement = alphabet[to % 58]!;
          fc.pre(replacement !== text[i]);
          const changed = text.slice(0, i) + replacement + text.slice(i + 1);
          const error = await base58CheckDecode(changed, sha256).catch((e: unknown) => e);
          expect(isSignetError(error)).toBe(true);
        },
      ),
    );
  });
});

const scalarArbitrary = fc.bigInt({ min: 1n, max: N - 1n });
const toBytes32 = (v: bigint) => hexToBytes(v.toString(16).padStart(64, "0"));

describe("DER ↔ P1363", () => {
  it("round trips for any r, s in [1, n) and gives minimal DER", () => {
    fc.assert(
      fc.property(scalarArbitrary, scalarArbitrary, (r, s) => {
        const raw = new Uint8Array([...toBytes32(r), ...toBytes32(s)]);
        const der = p1363ToDer(raw);
        expect(der.length).toBeLessThanOrEqual(72);
        expect(derToP1363(der)).toEqual(raw);
      }),
    );
  });

  it("any single-byte change of a DER signature is refused or parses to different values", () => {
    fc.assert(
      fc.property(
        scalarArbitrary,
        scalarArbitrary,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (r, s, at, delta) => {
          const raw = new Uint8Array([...toBytes32(r), ...toBytes32(s)]);
          const der = p1363ToDer(raw);
          const changed = der.slice();
          changed[at % der.length] = (changed[at % der.length]! + delta) & 255;
          try {
            expect(derToP1363(changed)).not.toEqual(raw);
          } catch (error) {
            expect(isSignetError(error, "SIGNATURE_INVALID")).toBe(true);
          }
        },
      ),
    );
  });
});

describe("points", () => {
  it("compress ↔ decompress round trips for k·G", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 48, maxLength: 48 }), async (seed) => {
        const key = await createNobleBackend({ randomBytes: () => seed }).generateSigningKey();
        const fromCompressed = decodePoint(hexToBytes(key.publicKey));
        expect(bytesToHex(encodePoint(fromCompressed, false))).toBe(key.publicKeyUncompressed);
        expect(
          bytesToHex(encodePoint(decodePoint(hexToBytes(key.publicKeyUncompressed)), true)),
        ).toBe(key.publicKey);
      }),
      { numRuns: 50 },
    );
  });
});

const flip = (b: Uint8Array, bit: number) => {
  const out = b.slice();
  out[(bit >> 3) % out.length]! ^= 1 << (bit & 7);
  return out;
};

describe.each([
  ["webcrypto", createWebCryptoBackend()],
  ["noble", noble],
] as [string, CryptoBackend][])("any flipped bit fails verification on %s", (_name, backend) => {
  const api = createCryptoApi(backend);
  const rejects = async (run: () => Promise<void>) => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSignetError(error)).toBe(true);
  };

  it("payload, signature and public key", async () => {
    const key = await api.generateSigningKey();
    const publicKey = hexToBytes(key.publicKeyUncompressed);
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.nat(),
        async (message, bit) => {
          const signature = await key.sign(message);
          await verifySignature(backend, { publicKey, message, signature, format: "der" });
          await rejects(() =>
            verifySignature(backend, {
              publicKey,
              message: flip(message, bit),
              signature,
              format: "der",
            }),
          );
          await rejects(() =>
            verifySignature(backend, {
              publicKey,
              message,
              signature: flip(signature, bit),
              format: "der",
            }),
          );
          await rejects(() =>
            verifySignature(backend, {
              publicKey: flip(publicKey, bit),
              message,
              signature,
              format: "der",
            }),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
