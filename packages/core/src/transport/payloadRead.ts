// docs/protocol.md §11: the reading behind every payload check, loaded as a chunk (requested when
// a client is created, long before a payload arrives), so the checks add little to what a page
// loads up front. It parses a copy of the payload only; the stamp covers the bytes as received.
import { base64UrlDecode, utf8Decode } from "../crypto/encoding.js";
import {
  type ActivityExpectation,
  anyHexValue,
  MAX_PAYLOAD_AGE_MS,
  type PayloadCheckContext,
  type PayloadVerdict,
  payloadMismatch,
  readActivity,
  readTransaction,
} from "./payloadCheck.js";
import { isPlainObject } from "./responseError.js";

/** Every activity type core knows (docs/protocol.md §11); others are "unknown". */
const KNOWN_ACTIVITY_TYPES: ReadonlySet<string> = new Set(
  [
    "CREATE_READ_WRITE_SESSION_V2",
    "UPDATE_USER_EMAIL",
    "UPDATE_USER_PHONE_NUMBER",
    "CREATE_AUTHENTICATORS_V2",
    "CREATE_OAUTH_PROVIDERS",
    "EXPORT_WALLET",
    "SIGN_TRANSACTION_V2",
    "SIGN_RAW_PAYLOAD_V2",
    "DELETE_API_KEYS",
    "DELETE_AUTHENTICATORS",
    "DELETE_OAUTH_PROVIDERS",
    "CREATE_API_KEYS_V2",
    "CREATE_POLICY_V3",
  ].map((type) => `ACTIVITY_TYPE_${type}`),
);

/** Clock slack between a payload's `timestampMs` (or a token's `exp`) and what it is judged against. */
const TIMESTAMP_SLACK_MS = 60_000;

const pinsByOwner = new WeakMap<object, Map<string, string>>();

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

function looksLikeJwt(text: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(text);
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
  const timestamp =
    typeof activity.timestampMs === "string" && /^\d{1,16}$/.test(activity.timestampMs)
      ? Number(activity.timestampMs)
      : Number.NaN;
  const end = context.expiresAtMs ?? context.now;
  const window = expectation.window ?? { from: end - MAX_PAYLOAD_AGE_MS, to: end };
  if (
    !(timestamp >= window.from - TIMESTAMP_SLACK_MS && timestamp <= window.to + TIMESTAMP_SLACK_MS)
  ) {
    throw payloadMismatch(context, "timestampMs", "is outside the challenge's lifetime");
  }
  for (const [path, expected] of Object.entries(expectation.equals ?? {})) {
    const value = field(activity.parameters, path);
    if (typeof expected === "string" ? value !== expected : !expected.test(value)) {
      throw payloadMismatch(context, `parameters.${path}`, "is not what this device asked for");
    }
  }
  for (const [path, count] of Object.entries(expectation.counts ?? {})) {
    const value = field(activity.parameters, path);
    if (!Array.isArray(value) || value.length !== count) {
      throw payloadMismatch(context, `parameters.${path}`, `does not hold exactly ${count}`);
    }
  }
  // Where the transaction is readable, each field it names must be the one shown.
  const transaction = readTransaction(activity.parameters);
  for (const [name, value] of Object.entries(expectation.transaction ?? {})) {
    if (transaction?.[name] !== undefined && transaction[name] !== value) {
      const source =
        isPlainObject(activity.parameters) && "unsignedTransaction" in activity.parameters
          ? "unsignedTransaction"
          : "payload";
      throw payloadMismatch(
        context,
        `parameters.${source}.${name}`,
        "is not what this device asked for",
      );
    }
  }
  const pins = pinsByOwner.get(owner) ?? new Map<string, string>();
  pinsByOwner.set(owner, pins);
  const seen: [string, string][] = [];
  for (const [name, read] of PINNED) {
    const value = read(activity);
    if (value === undefined) continue;
    const key = `${accountId}|${name}`;
    const pinned = pins.get(key);
    if (typeof value !== "string" || (pinned !== undefined && pinned !== value)) {
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
