// An authenticator app in the tests: RFC 6238 codes from an `otpauth://totp/` URI, made with
// Node's own HMAC (node:crypto), apart from the emulator's implementation that checks them.
import { createHmac } from "node:crypto";

/** RFC 4648 Base32 to bytes (case, padding and spaces ignored, as authenticator apps read it). */
function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.replace(/[\s=]/g, "").toUpperCase()) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error("not Base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The 6-digit code an app shows for the secret of `totpUri` at `nowMs` (30-second steps). */
export function appCode(totpUri: string, nowMs = Date.now()): string {
  const secret = new URL(totpUri).searchParams.get("secret");
  if (secret === null) throw new Error("no secret in the URI");
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(nowMs / 30_000)));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** A well-formed code that is not the app's now, nor a step either side, nor the sandbox's. */
export function wrongCode(totpUri: string, nowMs = Date.now()): string {
  const near = new Set([-30_000, 0, 30_000].map((d) => appCode(totpUri, nowMs + d)));
  near.add("123456");
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}
