// docs/protocol.md §11: the words every payload check shares: what a check is told and answers,
// what a field must hold and the one typed refusal (`PAYLOAD_MISMATCH`). The builders
// (./payloadCheck.ts) and the reading behind them (./payloadRead.ts, a chunk) both stand on this
// file, so neither imports the other's module back; the parsing of a payload they share, which a
// page runs too (readQuotePayload), is ./payloadParse.ts.
import { SignetError } from "../errors/errors.js";

/** What a check is told besides the payload. */
export type PayloadCheckContext = {
  /** The action, for the error and the event: `"refreshSession"`. */
  operation: string;
  /** Which payload of the call this is: 1 for the first one signed, 2 for a second (delegated keys). */
  signature: number;
  /** The challenge's expiry in the service's time (challenge mode). */
  expiresAtMs?: number | undefined;
  /** The service's time now. */
  now: number;
  /** The credential type the challenge names, where it names one. */
  type?: string | undefined;
};

/** A check's verdict: a payload core knows and found bound, or one of a type core does not know. */
export type PayloadVerdict = { known: true } | { known: false; activityType?: string | undefined };

/**
 * Reads a copy of `payloadToSign` and throws `PAYLOAD_MISMATCH` unless it binds this device's own
 * request; answers `{ known: false }` for a payload of a type core does not know (refused unless the
 * client allows unknown payloads).
 */
export type CheckPayload = (
  payloadToSign: string,
  context: PayloadCheckContext,
) => PayloadVerdict | Promise<PayloadVerdict>;

/**
 * Reported when a payload is refused, or signed although core did not know its type
 * (`allowUnknownPayloads`). Names fields and activity types, never a value.
 */
export type PayloadEvent = {
  type: "payload";
  action: "refused" | "signedUnknown";
  operation: string;
  signature: number;
  field?: string;
  activityType?: string;
};

/**
 * The typed refusal: non-retryable, naming the operation and the field, never the value.
 * @example throw payloadMismatch(context, "parameters.targetPublicKey", "is not the key this device sent")
 */
export function payloadMismatch(
  context: Pick<PayloadCheckContext, "operation" | "signature">,
  field: string,
  reason: string,
  details: Record<string, unknown> = {},
): SignetError<"PAYLOAD_MISMATCH"> {
  return new SignetError(
    "PAYLOAD_MISMATCH",
    `Refused to sign ${context.operation}: ${field} ${reason}`,
    {
      retryable: false,
      details: { operation: context.operation, signature: context.signature, field, ...details },
    },
  );
}

/**
 * A value a field must hold. A plain string is compared exactly; `test` decides by itself; `as`
 * compares with `value` the way the service may write it (docs/protocol.md §11): `key` a P-256 key
 * in either encoding and case, `email` without regard to case, `phone` whatever its separators,
 * `amount` a number or a decimal string, `text` without regard to case, `flag` a boolean or its
 * text; `cleared` absent or empty, `none` an empty array or none.
 */
export type Expected =
  | string
  | { readonly test: (value: unknown) => boolean }
  | {
      readonly as: "key" | "email" | "phone" | "amount" | "text" | "flag" | "cleared" | "none";
      readonly value?: string | number | boolean;
    };

/** Hex compared without regard to case (the service may write either). */
export function hexValue(hex: string): Expected {
  const wanted = hex.toLowerCase();
  return { test: (value) => typeof value === "string" && value.toLowerCase() === wanted };
}

/** Any of these hex values (a key the device sent in either encoding). */
export function anyHexValue(values: readonly string[]): { test: (value: unknown) => boolean } {
  const wanted = values.map((v) => v.toLowerCase());
  return { test: (value) => typeof value === "string" && wanted.includes(value.toLowerCase()) };
}

/** What a check found wrong in a payload: the field (a dotted path) and why. */
export type PayloadFault = { field: string; reason: string };

/** What one signed payload of an operation must be. */
export type ActivityExpectation = {
  /** The activity types accepted for this payload. */
  types: readonly string[];
  /**
   * Fields of `parameters` (dotted paths, `authenticators.0.attestation.credentialId`) that must
   * be present and hold these values.
   */
  equals?: Readonly<Record<string, Expected>> | undefined;
  /** Fields of `parameters` that, where the payload has them, must hold these values. */
  where?: Readonly<Record<string, Expected>> | undefined;
  /** Arrays of `parameters` and how many entries each must hold. */
  counts?: Readonly<Record<string, number>> | undefined;
  /**
   * The device's own service ids by kind (`{ Card: [cardId] }`): wherever the payload names an id
   * of that kind (`Card:…`, inside any string of `parameters` or of a readable transaction), it
   * must be one of these. A payload that names none binds nothing here.
   */
  ownIds?: Readonly<Record<string, readonly string[]>> | undefined;
  /**
   * P-256 public keys (hex, either encoding): wherever the payload's strings hold a key, it must
   * be one of these.
   */
  publicKeys?: readonly string[] | undefined;
  /**
   * Where `parameters.unsignedTransaction` (a transaction) or `parameters.payload` (a raw
   * payload) is readable (hex of UTF-8 JSON, as the emulator writes it): the fields it must name
   * and hold (`equals`) and the values the fields it names must hold (`where`). Opaque bytes (the
   * service's chain bytes, a hash) bind nothing here.
   */
  transaction?:
    | {
        equals?: Readonly<Record<string, Expected>> | undefined;
        where?: Readonly<Record<string, Expected>> | undefined;
      }
    | undefined;
  /**
   * The kind under which `parameters.signWith` is pinned for the account (`"transfer"`): one
   * signing identifier per kind of operation, never shared with export's `walletId`.
   */
  signer?: string | undefined;
  /**
   * An operation's own reading of `parameters`, for what the fields above cannot say: the field
   * (a dotted path) it finds wrong and why, or `undefined`.
   */
  custom?:
    | ((parameters: Record<string, unknown>) => { field: string; reason: string } | undefined)
    | undefined;
};
