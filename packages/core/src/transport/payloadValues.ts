// docs/protocol.md §11: how a payload's field is compared with the value the device itself sent,
// the way the service may write it. The documents show values as the device sent them; where a
// service could write the same value differently (hex in another case, a key in its other SEC1
// encoding, an email lower-cased, a number as a string) the comparison accepts that, and only that.
import type { Expected } from "./payloadCheck.js";

/** A P-256 public key in hex, compressed (`02`/`03` + X) or uncompressed (`04` + X + Y). */
const PUBLIC_KEY = /^(0[23][0-9a-f]{64}|04[0-9a-f]{128})$/;

/**
 * The compressed form of a P-256 public key in hex (lower case), or `undefined` when the text is
 * no key. The point itself is not validated: a key the device sent is compared with the one the
 * payload names, and only the device's own point compresses to itself.
 */
export function compressedKey(hex: string): string | undefined {
  const key = hex.toLowerCase();
  if (!PUBLIC_KEY.test(key)) return undefined;
  if (!key.startsWith("04")) return key;
  const lastY = Number.parseInt(key.slice(-2), 16);
  return `${lastY % 2 === 0 ? "02" : "03"}${key.slice(2, 66)}`;
}

/** The device's public key, in either encoding and either case. */
export function publicKeyValue(hex: string): Expected {
  const wanted = compressedKey(hex);
  return {
    test: (value) =>
      wanted !== undefined && typeof value === "string" && compressedKey(value) === wanted,
  };
}

/** An email address without regard to case (a service may store it lower-cased). */
export function emailValue(email: string): Expected {
  const wanted = email.toLowerCase();
  return { test: (value) => typeof value === "string" && value.toLowerCase() === wanted };
}

/** Digits and the leading `+` of a phone number, without the separators a service may add. */
function phoneDigits(phone: string): string {
  return phone.replace(/[\s().-]/g, "");
}

/** A phone number, whatever separators the service writes into it. */
export function phoneValue(phoneNumber: string): Expected {
  const wanted = phoneDigits(phoneNumber);
  return { test: (value) => typeof value === "string" && phoneDigits(value) === wanted };
}

/** An amount, written as a number or as a decimal string. */
export function amountValue(amount: number): Expected {
  return {
    test: (value) =>
      typeof value === "number"
        ? value === amount
        : typeof value === "string" &&
          /^-?\d+(\.\d+)?$/.test(value.trim()) &&
          Number(value) === amount,
  };
}

/** A service id or a code (`Quote:…`, `USDB`), without regard to case. */
export function textValue(text: string): Expected {
  const wanted = text.toLowerCase();
  return { test: (value) => typeof value === "string" && value.toLowerCase() === wanted };
}

/** A boolean, written as one or as `"true"` / `"false"`. */
export function booleanValue(flag: boolean): Expected {
  return { test: (value) => value === flag || value === String(flag) };
}

/** A contact cleared: absent, `null` or empty; never set to a value. */
export const CLEARED: { readonly test: (value: unknown) => boolean } = {
  test: (value) => value === undefined || value === null || value === "",
};

/** An array with nothing in it (or no array at all). */
export const NONE: { readonly test: (value: unknown) => boolean } = {
  test: (value) => value === undefined || value === null || (Array.isArray(value) && !value.length),
};
