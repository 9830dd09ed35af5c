// docs/protocol.md §11: the reading behind every payload check, loaded as a chunk (requested when
// a client is created, long before a payload arrives), so the checks add little to what a page
// loads up front. It parses a copy of the payload only; the stamp covers the bytes as received.
import { base64UrlDecode } from "../crypto/base64url-decode.js";
import { utf8Decode } from "../crypto/encoding.js";
import { readActivity, readTransaction } from "./payloadParse.js";
import {
  type ActivityExpectation,
  anyHexValue,
  type Expected,
  type PayloadCheckContext,
  type PayloadFault,
  type PayloadVerdict,
  payloadMismatch,
} from "./payloadVocabulary.js";
import { isPlainObject } from "./responseError.js";

/** Every activity type core knows (docs/protocol.md §11); others are "unknown". */
const KNOWN_ACTIVITY_TYPES: ReadonlySet<string> = new Set(
  [
    "CREATE_READ_WRITE_SESSION_V2",
    "UPDATE_USER_EMAIL",
    "UPDATE_USER_PHONE_NUMBER",
    "UPDATE_USER",
    "CREATE_AUTHENTICATORS_V2",
    "CREATE_OAUTH_PROVIDERS",
    "EXPORT_WALLET",
    "SIGN_TRANSACTION_V2",
    "SIGN_RAW_PAYLOAD_V2",
    "DELETE_API_KEYS",
    "DELETE_AUTHENTICATORS",
    "DELETE_OAUTH_PROVIDERS",
    "DELETE_USERS",
    "CREATE_USERS_V3",
    "CREATE_USERS_V2",
    "CREATE_API_KEYS_V2",
    "CREATE_POLICY_V3",
    "CREATE_POLICIES",
  ].map((type) => `ACTIVITY_TYPE_${type}`),
);

/** Clock slack for a token's `exp`. */
const TIMESTAMP_SLACK_MS = 60_000;

const pinsByOwner = new WeakMap<object, Map<string, string>>();

/**
 * Pinned per account, each identifier kind on its own: once seen, another value of the same kind
 * for the same account is refused. Export's `walletId` names a wallet and never stands for the
 * `signWith` of a signature (an address or key id), which is pinned per the expectation's `signer`.
 */
const PINNED: readonly [name: string, read: (activity: Record<string, unknown>) => unknown][] = [
  ["organizationId", (a) => a.organizationId],
  ["parameters.userId", (a) => field(a.parameters, "userId")],
  ["parameters.walletId", (a) => field(a.parameters, "walletId")],
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

function looksLikeJwt(text: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(text);
}

/** The compressed form of a P-256 public key in hex (lower case), or `undefined` if it is none. */
function compressedKey(hex: string): string | undefined {
  const key = hex.toLowerCase();
  if (!/^(0[23][0-9a-f]{64}|04[0-9a-f]{128})$/.test(key)) return undefined;
  // The point itself is not validated: only the device's own point compresses to its own key.
  if (!key.startsWith("04")) return key;
  return `${Number.parseInt(key.slice(-2), 16) % 2 ? "03" : "02"}${key.slice(2, 66)}`;
}

const lower = (value: unknown) => (typeof value === "string" ? value.toLowerCase() : undefined);
const digits = (value: unknown) =>
  typeof value === "string" ? value.replace(/[\s().-]/g, "") : undefined;

/** Whether `value` is what `expected` describes, the way the service may write it. */
function holds(expected: Expected, value: unknown): boolean {
  if (typeof expected === "string") return value === expected;
  if ("test" in expected) return expected.test(value);
  const wanted = expected.value;
  switch (expected.as) {
    case "key":
      return (
        typeof value === "string" &&
        compressedKey(value) !== undefined &&
        compressedKey(value) === compressedKey(String(wanted))
      );
    case "email":
    case "text":
      return lower(value) !== undefined && lower(value) === lower(wanted);
    case "phone":
      return digits(value) !== undefined && digits(value) === digits(wanted);
    case "amount":
      return (
        (typeof value === "number" ||
          (typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value))) &&
        Number(value) === wanted
      );
    case "flag":
      return value === wanted || value === String(wanted);
    case "cleared":
      return value === undefined || value === null || value === "";
    case "none":
      return value === undefined || value === null || (Array.isArray(value) && !value.length);
  }
}

/** Every string of a JSON value with its dotted path (bounded: a payload is a few KiB). */
function* strings(value: unknown, path: string, depth = 0): Generator<[string, string]> {
  if (depth > 16) return;
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value)) {
    for (const [i, entry] of value.entries()) yield* strings(entry, `${path}.${i}`, depth + 1);
  } else if (isPlainObject(value)) {
    for (const [key, entry] of Object.entries(value))
      yield* strings(entry, `${path}.${key}`, depth + 1);
  }
}

const NOT_ASKED = "is not what this device asked for";

/** The first match of `pattern` in the strings of `value` that is not the device's own. */
function foreign(
  value: unknown,
  path: string,
  pattern: RegExp,
  mine: (match: RegExpMatchArray) => boolean,
): PayloadFault | undefined {
  for (const [where, text] of strings(value, path))
    for (const match of text.matchAll(pattern))
      if (!mine(match)) return { field: where, reason: NOT_ASKED };
  return undefined;
}

/** The first field of `value` that `equals` (present) or `where` (where present) refuses. */
function compare(
  value: unknown,
  path: string,
  equals: Readonly<Record<string, Expected>> = {},
  where: Readonly<Record<string, Expected>> = {},
): PayloadFault | undefined {
  for (const [name, expected] of Object.entries(equals))
    if (!holds(expected, field(value, name)))
      return { field: `${path}.${name}`, reason: NOT_ASKED };
  for (const [name, expected] of Object.entries(where)) {
    const found = field(value, name);
    if (found !== undefined && !holds(expected, found))
      return { field: `${path}.${name}`, reason: NOT_ASKED };
  }
  return undefined;
}

/** What an expectation finds wrong in `parameters`, or `undefined`. */
function fault(
  expectation: ActivityExpectation,
  parameters: Record<string, unknown>,
): PayloadFault | undefined {
  const found = compare(parameters, "parameters", expectation.equals, expectation.where);
  if (found) return found;
  for (const [path, count] of Object.entries(expectation.counts ?? {})) {
    const value = field(parameters, path);
    if (!Array.isArray(value) || value.length !== count) {
      return { field: `parameters.${path}`, reason: `does not hold exactly ${count}` };
    }
  }
  const transaction = readTransaction(parameters);
  const at = `parameters.${"unsignedTransaction" in parameters ? "unsignedTransaction" : "payload"}`;
  const own = expectation.ownIds ?? {};
  const kinds = Object.keys(own).filter((kind) => /^[A-Za-z]+$/.test(kind));
  const ids = new RegExp(`\\b(${kinds.join("|")}):[0-9A-Za-z][0-9A-Za-z-]*`, "g");
  const isOwn = ([id, kind = ""]: RegExpMatchArray) =>
    (own[kind] ?? []).some((mine) => mine.toLowerCase() === id.toLowerCase());
  const keys = expectation.publicKeys?.map(compressedKey);
  return (
    (kinds.length
      ? (foreign(parameters, "parameters", ids, isOwn) ??
        (transaction && foreign(transaction, at, ids, isOwn)))
      : undefined) ??
    (keys &&
      foreign(
        parameters,
        "parameters",
        /(?<![0-9a-fA-F])(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})(?![0-9a-fA-F])/g,
        ([key]) => keys.includes(compressedKey(key)),
      )) ??
    // Where the transaction is readable, it must be recognisably this operation's: it names what
    // `equals` lists, and each field it names holds the value shown.
    (transaction &&
      expectation.transaction &&
      compare(transaction, at, expectation.transaction.equals, expectation.transaction.where)) ??
    expectation.custom?.(parameters)
  );
}

/** The check behind `expectActivity` (its TSDoc says what it binds). */
export function checkActivity(
  owner: object,
  accountId: string,
  expectations: readonly ActivityExpectation[],
  payloadToSign: string,
  context: PayloadCheckContext,
): PayloadVerdict {
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
  const found = fault(expectation, activity.parameters);
  if (found) throw payloadMismatch(context, found.field, found.reason);
  const pins = pinsByOwner.get(owner) ?? new Map<string, string>();
  pinsByOwner.set(owner, pins);
  const pinned: [name: string, key: string, value: unknown][] = PINNED.map(([name, read]) => [
    name,
    `${accountId}|${name}`,
    read(activity),
  ]);
  if (expectation.signer !== undefined) {
    pinned.push([
      "parameters.signWith",
      `${accountId}|signWith:${expectation.signer}`,
      field(activity.parameters, "signWith"),
    ]);
  }
  const seen: [string, string][] = [];
  for (const [name, key, value] of pinned) {
    if (value === undefined) continue;
    const before = pins.get(key);
    if (typeof value !== "string" || (before !== undefined && before !== value)) {
      throw payloadMismatch(context, name, "differs from the one this wallet used before");
    }
    seen.push([key, value]);
  }
  // Pinned only once the whole payload passed: a refused payload leaves nothing behind.
  for (const [key, value] of seen) pins.set(key, value);
  return { known: true };
}

function decodeJwtPart(part: string): unknown {
  try {
    return JSON.parse(utf8Decode(base64UrlDecode(part)));
  } catch {
    return undefined;
  }
}

/** The check behind `expectVerificationToken` (its TSDoc says what it binds). */
export function checkVerificationToken(
  tekPublicKeys: readonly string[],
  payloadToSign: string,
  context: PayloadCheckContext,
): PayloadVerdict {
  if (!looksLikeJwt(payloadToSign)) {
    const activity = readActivity(payloadToSign);
    if (activity !== undefined) {
      throw payloadMismatch(context, "type", "is an activity, not a verification token", {
        activityType: activity.type,
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
  if (claims.public_key !== undefined && !anyHexValue(tekPublicKeys).test(claims.public_key)) {
    throw payloadMismatch(context, "token.public_key", "is not the key this device sealed");
  }
  if (typeof claims.exp === "number" && claims.exp * 1000 + TIMESTAMP_SLACK_MS < context.now) {
    throw payloadMismatch(context, "token.exp", "has passed");
  }
  return { known: true };
}
