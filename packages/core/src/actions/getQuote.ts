import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import { assertSameQuote, noteChallenge } from "../sca/scaLedger.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import type { QuoteJson } from "../transport/wire.js";

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
      ...at(QUOTE_GET, [quoteId]),
    },
    parameters,
  );
  const quote = expectShape<QuoteJson>(body, ["id", "status"], "Quote");
  assertSameQuote(quote, { id: quoteId });
  noteChallenge(client, quoteId, quote.scaChallenge);
  return quote;
}

/** `GET /quotes/{Quote}`. */
export const QUOTE_GET = { method: "GET", path: "/quotes/{Quote}" } as const satisfies ActionRoute;

/** getQuote's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const getQuoteRow = {
  chunk: "payments",
  summary: "a quote, with the payload its wallet source signs",
  parameters: "`{ quoteId }`",
  resolvesTo: "`QuoteJson`",
  requests: [{ route: QUOTE_GET }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useQuote",
    reads: "quotes",
    doc: "A quote (`getQuote`); refetched after it is executed.",
  },
} as const satisfies ActionSourceRow;
