// docs/protocol.md §9: a lapsed SMS code of a quote's challenge is sent again; the challenge and
// its expiry stay the same.

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";

export type ResendQuoteAuthorizationParameters = CallOptions & {
  /** The quote in `PENDING_AUTHORIZATION` whose challenge is an `SMS_OTP` one. */
  quoteId: string;
};
export type ResendQuoteAuthorizationReturnType = undefined;
export type ResendQuoteAuthorizationErrorType = SignetErrorOf<
  ActionErrorCode<"resendQuoteAuthorization">
>;

/**
 * Sends the SMS code of a quote's Strong Customer Authentication challenge again
 * (`POST /quotes/{id}/authorize/resend`). The challenge's `expiresAt` is not extended. Inside
 * `authorizeQuote`, `onChallenge`'s `context.resend` does the same.
 *
 * @throws {SignetError} `CONFLICT` (409: nothing pending, a PASSKEY challenge, or not an SCA region), `RATE_LIMITED` (429, `details.retryAfterMs`), `QUOTE_NOT_FOUND`, `NETWORK`.
 * @example
 * ```ts
 * resendButton.onclick = () => resendQuoteAuthorization(client, { quoteId: quote.id });
 * ```
 */
export async function resendQuoteAuthorization(
  client: SignetClient,
  parameters: ResendQuoteAuthorizationParameters,
): Promise<ResendQuoteAuthorizationReturnType> {
  const { quoteId } = assertCall(client, parameters);
  assertServiceId("quoteId", quoteId, "Quote");
  await client.request<unknown>(at(QUOTE_AUTHORIZE_RESEND, [quoteId]), parameters);
}

/** `POST /quotes/{Quote}/authorize/resend`. */
export const QUOTE_AUTHORIZE_RESEND = {
  method: "POST",
  path: "/quotes/{Quote}/authorize/resend",
  expectedStatus: 204,
} as const satisfies ActionRoute;

/** resendQuoteAuthorization's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const resendQuoteAuthorizationRow = {
  chunk: "payments",
  summary: "re-sends a lapsed SMS code of a quote's SCA challenge",
  parameters: "`{ quoteId }`",
  resolvesTo: "`undefined`",
  requests: [{ route: QUOTE_AUTHORIZE_RESEND }],
  errors: { client: REQUEST_ERRORS },
  hook: { kind: "none", why: "`useAuthorizeQuote` offers it as `resend` on the challenge" },
} as const satisfies ActionSourceRow;
