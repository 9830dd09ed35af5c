// docs/protocol.md §1 and §4 (hex, base64url, base58check, SHA-256) against Node's and known values.
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  base58checkDecode,
  base58checkEncode,
  base64urlDecode,
  base64urlEncode,
  fromHex,
  sha256Hex,
  toHex,
} from "./encoding.js";

describe("hex", () => {
  it("round-trips and writes lowercase; accepts either case", () => {
    const b = new Uint8Array(randomBytes(40));
    expect(toHex(b)).toBe(Buffer.from(b).toString("hex"));
    expect(toHex(fromHex(toHex(b).toUpperCase())!)).toBe(toHex(b));
    expect(toHex(new Uint8Array(Buffer.from("xxabcdxx", "hex").subarray(0, 0)))).toBe("");
  });
  it("rejects odd length and non-hex", () => {
    for (const bad of ["a", "abc", "zz", "0x00", " 00", "00 "])
      expect(fromHex(bad), bad).toBeNull();
    expect(fromHex("")).toEqual(new Uint8Array(0));
  });
  it("toHex respects subarray views", () => {
    const b = Uint8Array.of(1, 2, 3, 4);
    expect(toHex(b.subarray(1, 3))).toBe("0203");
  });
});

describe("base64url", () => {
  it("matches RFC 4648 §10 test strings (base64url, no padding)", () => {
    const cases: [string, string][] = [
      ["", ""],
      ["f", "Zg"],
      ["fo", "Zm8"],
      ["foo", "Zm9v"],
      ["foob", "Zm9vYg"],
      ["fooba", "Zm9vYmE"],
      ["foobar", "Zm9vYmFy"],
    ];
    for (const [plain, encoded] of cases) {
      expect(base64urlEncode(plain)).toBe(encoded);
      expect(Buffer.from(base64urlDecode(encoded)!).toString()).toBe(plain);
    }
    expect(base64urlEncode(Uint8Array.of(0xfb, 0xff))).toBe("-_8");
  });
  it("round-trips random bytes", () => {
    for (let n = 0; n < 40; n++) {
      const b = new Uint8Array(randomBytes(n));
      expect(toHex(base64urlDecode(base64urlEncode(b))!)).toBe(toHex(b));
    }
  });
  it("rejects padding, the standard alphabet, stray characters, bad length, non-canonical bits", () => {
    for (const bad of ["Zg==", "Zm8=", "+/8", "Zm 9v", "Z", "Zh", "Zm9", "Zm9v\n"]) {
      expect(base64urlDecode(bad), bad).toBeNull();
    }
  });
});

describe("sha256Hex", () => {
  it("hashes strings as UTF-8 and bytes as they are", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(sha256Hex("é")).toBe(createHash("sha256").update("é", "utf8").digest("hex"));
    expect(sha256Hex(Uint8Array.of(0xff))).toBe(
      createHash("sha256").update(Buffer.of(0xff)).digest("hex"),
    );
  });
});

describe("base58check", () => {
  it("encodes known Bitcoin values", () => {
    // Version byte 0 + 20 zero bytes: the all-zero P2PKH address.
    expect(base58checkEncode(new Uint8Array(21))).toBe("1111111111111111111114oLvT2");
    // The genesis coinbase address (version 0 + hash160).
    const genesis = Uint8Array.from(
      Buffer.from("0062e907b15cbf27d5425399ebf6f0fb50ebb88f18", "hex"),
    );
    expect(base58checkEncode(genesis)).toBe("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa");
    expect(toHex(base58checkDecode("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")!)).toBe(toHex(genesis));
  });
  it("round-trips, keeping leading zero bytes", () => {
    for (let n = 0; n < 90; n += 7) {
      const b = new Uint8Array(randomBytes(n));
      if (n > 2) b[0] = 0;
      expect(toHex(base58checkDecode(base58checkEncode(b))!)).toBe(toHex(b));
    }
  });
  it("rejects bad characters, short input and a wrong checksum", () => {
    expect(base58checkDecode("0OIl")).toBeNull();
    expect(base58checkDecode("")).toBeNull();
    expect(base58checkDecode("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb")).toBeNull();
  });
});
