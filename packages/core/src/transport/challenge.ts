// The 202 answer of a signed request (docs/protocol.md §2): the challenge to stamp, checked before
// anything is signed.
import { SignetError } from "../errors/errors.js";
import { REQUEST_ID_PATTERN } from "./protocol.js";
import { isPlainObject } from "./responseError.js";

/** A validated 202 body. */
export type SignedRequestChallenge = {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  /** `expiresAt` in epoch ms. */
  expiresAtMs: number;
  type?: string;
};

const RFC3339_PATTERN = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Validates a 202 answer of the signed-request protocol against the clock.
 *
 * @throws {SignetError} `MALFORMED_RESPONSE` when the body is not a JSON object;
 * `CHALLENGE_INVALID` (details `{ field }`) when `payloadToSign` is not a non-empty string,
 * `requestId` is not `Request:<uuid>`, or `expiresAt` is not an RFC 3339 time in the future.
 * @example
 * ```ts
 * const challenge = parseSignedRequestChallenge({ text: response.text, now: Date.now() });
 * ```
 */
export function parseSignedRequestChallenge(parameters: {
  text: string;
  now: number;
  status?: number;
}): SignedRequestChallenge {
  const status = parameters.status ?? 202;
  let json: unknown;
  try {
    json = JSON.parse(parameters.text);
  } catch (cause) {
    throw new SignetError("MALFORMED_RESPONSE", `HTTP ${status} challenge is not JSON`, {
      status,
      cause,
    });
  }
  if (!isPlainObject(json)) {
    throw new SignetError("MALFORMED_RESPONSE", `HTTP ${status} challenge is not a JSON object`, {
      status,
    });
  }
  const invalid = (field: string, expected: string) =>
    new SignetError("CHALLENGE_INVALID", `"${field}" of the challenge expected ${expected}`, {
      status,
      details: { field },
    });
  const { payloadToSign, requestId, expiresAt, type } = json;
  if (typeof payloadToSign !== "string" || payloadToSign === "") {
    throw invalid("payloadToSign", "a non-empty string");
  }
  if (typeof requestId !== "string" || !REQUEST_ID_PATTERN.test(requestId)) {
    throw invalid("requestId", "Request:<uuid>");
  }
  const expiresAtMs = typeof expiresAt === "string" ? Date.parse(expiresAt) : Number.NaN;
  if (
    typeof expiresAt !== "string" ||
    !RFC3339_PATTERN.test(expiresAt) ||
    !Number.isFinite(expiresAtMs)
  ) {
    throw invalid("expiresAt", "an RFC 3339 date-time");
  }
  if (expiresAtMs <= parameters.now) throw invalid("expiresAt", "a time in the future");
  return {
    payloadToSign,
    requestId,
    expiresAt,
    expiresAtMs,
    ...(typeof type === "string" ? { type } : {}),
  };
}
