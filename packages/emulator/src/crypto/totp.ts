// RFC 6238 time-based one-time passwords, as an authenticator app makes them from the secret of
// an `otpauth://totp/` URI with no other parameters: HMAC-SHA-1 (RFC 4226 §5.3 truncation),
// 30-second steps from the Unix epoch, 6 digits. The emulator checks a TOTP factor's codes with it.
import { hmac } from "@noble/hashes/hmac.js";
import { sha1 } from "@noble/hashes/legacy.js";

/** The step of an `otpauth://totp/` URI without `period` (RFC 6238 §4.1's X). */
export const TOTP_STEP_MS = 30_000;

/** The code of counter `counter` (RFC 4226 HOTP), `digits` long. */
export function hotp(secret: Uint8Array, counter: number, digits = 6): string {
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const mac = hmac(sha1, secret, message);
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = new DataView(mac.buffer, mac.byteOffset + offset, 4).getUint32(0) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The code at time `nowMs` (RFC 6238: the counter is floor(t / step)). */
export function totp(secret: Uint8Array, nowMs: number, digits = 6): string {
  return hotp(secret, Math.floor(nowMs / TOTP_STEP_MS), digits);
}

/**
 * Whether `code` is the code of the step at `nowMs` or of one step either side (RFC 6238 §5.2's
 * allowance for clock drift and the time a person takes to type it).
 */
export function verifyTotp(secret: Uint8Array, code: string, nowMs: number): boolean {
  if (!/^[0-9]{6}$/.test(code)) return false;
  const step = Math.floor(nowMs / TOTP_STEP_MS);
  let match = false;
  // Every candidate is computed, so the time taken does not say which step matched.
  for (const counter of [step - 1, step, step + 1]) {
    if (hotp(secret, counter) === code) match = true;
  }
  return match;
}
