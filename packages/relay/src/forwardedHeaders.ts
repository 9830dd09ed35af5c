// The only request headers that cross the relay, and the only response headers that come back.
import { RelayRefusal } from "./errors.js";
import {
  IDEMPOTENCY_KEY_HEADER,
  REQUEST_ID_HEADER,
  REQUEST_ID_PATTERN,
  WALLET_SIGNATURE_HEADER,
} from "./protocol.js";

/**
 * The wallet signature header (docs/protocol.md §1), `"Grid-Wallet-Signature"`. Written once for
 * core and the relay, in core's `transport/protocol.ts` (copied here as `protocol.ts`).
 *
 * @example
 * const stamped = request.headers.has(WALLET_SIGNATURE_HEADER);
 */
export { WALLET_SIGNATURE_HEADER };

/** Request headers passed on to the service; every other request header is dropped. */
export const FORWARDED_REQUEST_HEADERS = [
  WALLET_SIGNATURE_HEADER,
  REQUEST_ID_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  "Content-Type",
] as const;

/**
 * Response headers passed back from the service; every other response header is dropped. `Date`
 * is the service's clock: devices judge challenge and session expiry by it (docs/protocol.md
 * §10), so the relay host's own clock must not stand in for it.
 */
export const FORWARDED_RESPONSE_HEADERS = ["Content-Type", "Retry-After", "Date"] as const;

// A stamp is base64url; standard base64 characters are let through for the service to judge.
const STAMP = /^[A-Za-z0-9_\-+/=]{1,8192}$/;
// Visible ASCII without a comma: a comma means two values were combined.
const IDEMPOTENCY_KEY = /^[\x21-\x2b\x2d-\x7e]{1,255}$/;
const JSON_CONTENT_TYPE = /^application\/json[ \t]*(;[ \t]*charset[ \t]*=[ \t]*"?utf-8"?[ \t]*)?$/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\uffff]/;

function invalid(header: string, reason: string): RelayRefusal {
  return new RelayRefusal("INVALID_INPUT", `The ${header} header is malformed.`, {
    header,
    reason,
  });
}

function check(header: string, value: string, pattern: RegExp): void {
  if (CONTROL.test(value)) throw invalid(header, "control or non-ASCII character");
  if (value.includes(",")) throw invalid(header, "several values");
  if (!pattern.test(value)) throw invalid(header, "unexpected format");
}

/**
 * Picks the forwarded headers of a request (`header` reads one by name, repeated values combined
 * as `Headers.get` combines them) and checks each value: no control characters (CR, LF, NUL…),
 * no combined or repeated values (a `,`), the expected format (a base64url stamp,
 * `Request:<uuid>`, `application/json`). `Grid-Wallet-Signature` and `Request-Id` are never
 * echoed in an error.
 *
 * @throws {RelayRefusal} 400 `INVALID_INPUT` on the first bad header.
 */
export function pickForwardedHeaders(
  header: (name: string) => string | null,
): Record<string, string> {
  const out: Record<string, string> = {};
  const signature = header(WALLET_SIGNATURE_HEADER);
  if (signature !== null) {
    check(WALLET_SIGNATURE_HEADER, signature, STAMP);
    out[WALLET_SIGNATURE_HEADER] = signature;
  }
  const requestId = header(REQUEST_ID_HEADER);
  if (requestId !== null) {
    check(REQUEST_ID_HEADER, requestId, REQUEST_ID_PATTERN);
    out[REQUEST_ID_HEADER] = requestId;
  }
  const idempotencyKey = header(IDEMPOTENCY_KEY_HEADER);
  if (idempotencyKey !== null) {
    check(IDEMPOTENCY_KEY_HEADER, idempotencyKey, IDEMPOTENCY_KEY);
    out[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
  }
  const contentType = header("Content-Type");
  if (contentType !== null) {
    check("Content-Type", contentType, JSON_CONTENT_TYPE);
    out["Content-Type"] = contentType;
  }
  return out;
}
