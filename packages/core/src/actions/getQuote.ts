import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { expectShape } from "../transport/responseShape.js";
import type { QuoteJson } from "../wire.js";
import type { ActionErrorCode } from "./errorCodes.js";
import { assertSameQuote, noteChallenge } from "./scaLedger.js";

export type GetQuoteParameters = CallOptions & { quoteId: string };
export type GetQuoteReturnType = QuoteJson;
export type GetQuoteErrorType = SignetErrorOf<ActionErrorCode<"getQuote">>;

/**
 * Reads a quote (`GET /quotes/{id}`), for example one your backend created. An answer about
 * another quote than the one asked for is refused; an SCA challenge it carries is noted as this
 * quote's (docs/protocol.md §11).
 *
 * @throws {SignetError} `RELAY_FORBIDDEN`, `NOT_FOUND`, `NETWORK`, `MALFORMED_RESPONSE` (another
 *   quote: `details.quoteId`, `details.field`).
 * @example
 * ```ts
 * const quote = await getQuote(client, { quoteId });
 * await executeQuote(client, { quote });
 * ```
 */
export async function getQuote(
  client: SignetClient,
  parameters: GetQuoteParameters,
): Promise<GetQuoteReturnType> {
  const { quoteId } = assertCall(client, parameters);
  assertServiceId("quoteId", quoteId, "Quote");
  const body = await client.request<unknown>(
    {
      method: "GET",
      path: `/quotes/${quoteId}`,
    },
    parameters,
  );
  const quote = expectShape<QuoteJson>(body, ["id", "status"], "Quote");
  assertSameQuote(quote, { id: quoteId });
  noteChallenge(client, quoteId, quote.scaChallenge);
  return quote;
}
