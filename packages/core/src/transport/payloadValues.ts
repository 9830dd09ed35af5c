// docs/protocol.md §11: how a payload's field is compared with the value the device itself sent,
// the way the service may write it. The documents show values as the device sent them; where a
// service could write the same value differently (hex in another case, a key in its other SEC1
// encoding, an email lower-cased, a number as a string) the comparison accepts that, and only that.
// These are descriptions only: ./payloadRead.ts (a chunk) does the comparing.
import type { Expected } from "./payloadCheck.js";

/** The device's P-256 public key, in either SEC1 encoding and either case. */
export const publicKeyValue = (hex: string): Expected => ({ as: "key", value: hex });

/** An email address without regard to case (a service may store it lower-cased). */
export const emailValue = (email: string): Expected => ({ as: "email", value: email });

/** A phone number, whatever separators (spaces, dashes, dots, parentheses) the service writes. */
export const phoneValue = (phoneNumber: string): Expected => ({ as: "phone", value: phoneNumber });

/** An amount, written as a number or as a decimal string. */
export const amountValue = (amount: number): Expected => ({ as: "amount", value: amount });

/** A service id or a code (`Quote:…`, `USDB`), without regard to case. */
export const textValue = (text: string): Expected => ({ as: "text", value: text });

/** A boolean, written as one or as `"true"` / `"false"`. */
export const booleanValue = (flag: boolean): Expected => ({ as: "flag", value: flag });

/** A contact cleared: absent, `null` or empty; never set to a value. */
export const CLEARED: Expected = { as: "cleared" };

/** An array with nothing in it (or no array at all). */
export const NONE: Expected = { as: "none" };
