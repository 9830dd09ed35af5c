// docs/protocol.md §11 and README "Security notes": before a session key, a TEK or a passkey signs a
// `payloadToSign`, the operation's check reads it and finds the device's own request in it. The check
// reads a parsed copy only; the stamp covers the string exactly as received (never re-serialised).
// What each operation expects is written next to its action; this file holds the reading, the
// pinning and the one error.
import { base64UrlDecode, utf8Decode } from "../crypto/encoding.js";
import { SignetError } from "../errors.js";
import { isPlainObject } from "./responseError.js";

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
export type CheckPayload = (payloadToSign: string, context: PayloadCheckContext) => PayloadVerdict;

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

/** Every activity type core knows (docs/protocol.md §11); others are "unknown". */
export const KNOWN_ACTIVITY_TYPES: ReadonlySet<string> = new Set([
  "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
  "ACTIVITY_TYPE_UPDATE_USER_EMAIL",
  "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER",
  "ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2",
  "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS",
  "ACTIVITY_TYPE_EXPORT_WALLET",
  "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
  "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
  "ACTIVITY_TYPE_DELETE_API_KEYS",
  "ACTIVITY_TYPE_DELETE_AUTHENTICATORS",
  "ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS",
  "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
  "ACTIVITY_TYPE_CREATE_POLICY_V3",
]);

/** How long before its challenge's expiry a payload may have been made (challenges live ~5 min). */
export const MAX_PAYLOAD_AGE_MS = 15 * 60_000;
/** Clock slack between the payload's `timestampMs` and the expiry it is judged against. */
const TIMESTAMP_SLACK_MS = 60_000;

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

/** A value a field must hold. A plain string is compared exactly. */
export type Expected = string | { readonly test: (value: unknown) => boolean };

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

/** What one signed payload of an operation must be. */
export type ActivityExpectation = {
  /** The activity types accepted for this payload. */
  types: readonly string[];
  /** Fields of `parameters` (dotted paths, `authenticators.0.attestation.credentialId`) and their values. */
  equals?: Readonly<Record<string, Expected>> | undefined;
  /** Arrays of `parameters` and how many entries each must hold. */
  counts?: Readonly<Record<string, number>> | undefined;
  /** The window `timestampMs` must fall in (epoch ms); default: the challenge's lifetime. */
  window?: { from: number; to: number } | undefined;
};

/** Values first seen for an account (organization, enclave user, wallet), shared per client. */
export type PayloadPins = Map<string, string>;

const pinsByOwner = new WeakMap<object, PayloadPins>();
/** The pins of one client (kept outside the client, so they are no API of it). */
export function payloadPins(owner: object): PayloadPins {
  let pins = pinsByOwner.get(owner);
  if (!pins) {
    pins = new Map();
    pinsByOwner.set(owner, pins);
  }
  return pins;
}

/** Pinned per account: once seen, another value for the same account is refused. */
const PINNED: readonly [name: string, read: (activity: Record<string, unknown>) => unknown][] = [
  ["organizationId", (a) => a.organizationId],
  ["parameters.userId", (a) => field(a.parameters, "userId")],
  // The enclave wallet: export names it `walletId`, a transaction signs `signWith` it.
  ["wallet", (a) => field(a.parameters, "walletId") ?? field(a.parameters, "signWith")],
];

function field(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split(".")) {
    if (Array.isArray(current) && /^\d+$/.test(part)) current = current[Number(part)];
    else if (isPlainObject(current)) current = current[part];
    else return undefined;
  }
  return current;
}

/** The activity JSON of a payload, or `undefined` when it is not one. */
export function readActivity(payloadToSign: string): Record<string, unknown> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(payloadToSign);
  } catch {
    return undefined;
  }
  return isPlainObject(json) && typeof json.type === "string" ? json : undefined;
}

/**
 * A check for Turnkey-style activity JSON `{ organizationId, parameters, timestampMs, type }`: one
 * expectation per signed payload of the call (delegated keys sign two), the account whose
 * organization, enclave user and wallet are pinned, and the client the pins belong to.
 *
 * @example
 * ```ts
 * checkPayload: expectActivity(client, accountId, [
 *   { types: ["ACTIVITY_TYPE_EXPORT_WALLET"], equals: { targetPublicKey: hexValue(key) } },
 * ]),
 * ```
 */
export function expectActivity(
  owner: object,
  accountId: string,
  expected:
    | readonly ActivityExpectation[]
    | ((context: PayloadCheckContext) => readonly ActivityExpectation[]),
): CheckPayload {
  return (payloadToSign, context) => {
    const expectations = typeof expected === "function" ? expected(context) : expected;
    const activity = readActivity(payloadToSign);
    if (activity === undefined) {
      if (looksLikeJwt(payloadToSign)) {
        throw payloadMismatch(context, "type", "is a verification token, not an activity");
      }
      return { known: false };
    }
    const activityType = activity.type as string;
    if (!KNOWN_ACTIVITY_TYPES.has(activityType)) return { known: false, activityType };
    const expectation = expectations[context.signature - 1];
    if (expectation === undefined) {
      throw payloadMismatch(context, "type", "is one payload more than this operation signs", {
        activityType,
      });
    }
    if (!expectation.types.includes(activityType)) {
      throw payloadMismatch(context, "type", `is not ${expectation.types.join(" or ")}`, {
        activityType,
        expectedType: expectation.types[0],
      });
    }
    if (typeof activity.organizationId !== "string" || activity.organizationId === "") {
      throw payloadMismatch(context, "organizationId", "is missing");
    }
    if (!isPlainObject(activity.parameters)) {
      throw payloadMismatch(context, "parameters", "is missing");
    }
    const timestamp =
      typeof activity.timestampMs === "string" && /^\d{1,16}$/.test(activity.timestampMs)
        ? Number(activity.timestampMs)
        : Number.NaN;
    const window =
      expectation.window ??
      (context.expiresAtMs === undefined
        ? { from: context.now - MAX_PAYLOAD_AGE_MS, to: context.now }
        : { from: context.expiresAtMs - MAX_PAYLOAD_AGE_MS, to: context.expiresAtMs });
    if (
      !(
        timestamp >= window.from - TIMESTAMP_SLACK_MS && timestamp <= window.to + TIMESTAMP_SLACK_MS
      )
    ) {
      throw payloadMismatch(context, "timestampMs", "is outside the challenge's lifetime");
    }
    for (const [path, expected] of Object.entries(expectation.equals ?? {})) {
      const value = field(activity.parameters, path);
      const ok = typeof expected === "string" ? value === expected : expected.test(value);
      if (!ok) {
        throw payloadMismatch(context, `parameters.${path}`, "is not what this device asked for");
      }
    }
    for (const [path, count] of Object.entries(expectation.counts ?? {})) {
      const value = field(activity.parameters, path);
      if (!Array.isArray(value) || value.length !== count) {
        throw payloadMismatch(context, `parameters.${path}`, `does not hold exactly ${count}`);
      }
    }
    const pins = payloadPins(owner);
    const seen: [string, string][] = [];
    for (const [name, read] of PINNED) {
      const value = read(activity);
      if (value === undefined) continue;
      const pinned = pins.get(`${accountId}|${name}`);
      if (typeof value !== "string" || (pinned !== undefined && pinned !== value)) {
        throw payloadMismatch(context, name, "differs from the one this wallet used before");
      }
      seen.push([`${accountId}|${name}`, value]);
    }
    // Pinned only once the whole payload passed: a refused payload leaves nothing behind.
    for (const [key, value] of seen) pins.set(key, value);
    return { known: true };
  };
}

function looksLikeJwt(text: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(text);
}

function decodeJwtPart(part: string): unknown {
  try {
    return JSON.parse(utf8Decode(base64UrlDecode(part)));
  } catch {
    return undefined;
  }
}

/**
 * The check of OTP verify, whose payload is the service's verification token (a compact ES256
 * JWT). The device key travels inside the HPKE-sealed OTP bundle, which no backend can open or
 * re-seal; what the device can still check is that it signs a verification token, not an
 * activity, that the token is alive, and, where the token names a public key, that it is the TEK.
 */
export function expectVerificationToken(tekPublicKeys: readonly string[]): CheckPayload {
  const tek = anyHexValue(tekPublicKeys);
  return (payloadToSign, context) => {
    if (!looksLikeJwt(payloadToSign)) {
      if (readActivity(payloadToSign) !== undefined) {
        throw payloadMismatch(context, "type", "is an activity, not a verification token", {
          activityType: readActivity(payloadToSign)?.type,
        });
      }
      return { known: false };
    }
    const [head = "", body = ""] = payloadToSign.split(".");
    const header = decodeJwtPart(head);
    const claims = decodeJwtPart(body);
    if (!isPlainObject(header) || header.alg !== "ES256" || !isPlainObject(claims)) {
      throw payloadMismatch(context, "token", "is not an ES256 verification token");
    }
    if (claims.public_key !== undefined && !tek.test(claims.public_key)) {
      throw payloadMismatch(context, "token.public_key", "is not the key this device sealed");
    }
    if (typeof claims.exp === "number" && claims.exp * 1000 + TIMESTAMP_SLACK_MS < context.now) {
      throw payloadMismatch(context, "token.exp", "has passed");
    }
    return { known: true };
  };
}
