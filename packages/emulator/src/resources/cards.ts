// Minimal cards (spec "Cards"): issue and read. A card's `fundingSources` are internal account ids
// as the spec's Card states them; the emulator keeps a `CardFundingSource:` id for each, which
// the delegated keys bound to it name.
import { isoTime } from "../clock.js";
import { pathId, queryParam, type RequestContext, readBody } from "../http/context.js";
import { invalidInput, notFound } from "../http/errors.js";
import { listEnvelope } from "../http/lists.js";
import { json } from "../http/responses.js";
import type { Route } from "../http/router.js";
import type { Runtime } from "../runtime.js";
import type { CardRecord } from "../state.js";
import { array, enumOf, id, integer, object, optional, string } from "../validation.js";

// The spec's CardCreateRequest: `form` (VIRTUAL only) is required; the currency is derived from
// the funding sources; a 3-D Secure password is accepted and, as the service says, not kept.
const cardSchema = object({
  cardholderId: id("Customer"),
  form: enumOf(["VIRTUAL"]),
  fundingSources: array(id("InternalAccount"), { minItems: 1, maxItems: 10 }),
  maxSpendPerTransaction: optional(integer({ min: 1 })),
  platformCardId: optional(string({ minLength: 1, maxLength: 255 })),
  threeDSecurePassword: optional(string({ minLength: 1, maxLength: 255 })),
});

/** The Card JSON; each funding source has its own `CardFundingSource:` id. */
export function cardJson(card: CardRecord): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: card.id,
    cardholderId: card.cardholderId,
    state: card.state,
    form: "VIRTUAL",
    currency: card.currency,
    fundingSources: card.fundingSources.map((f) => f.internalAccountId),
    maxSpendPerTransaction: card.maxSpendPerTransaction,
  };
  if (card.platformCardId !== undefined) body.platformCardId = card.platformCardId;
  body.createdAt = isoTime(card.createdAt);
  body.updatedAt = isoTime(card.updatedAt);
  return body;
}

/** A card by id, 404 otherwise. */
export function getCardRecord(rt: Runtime, cardId: string): CardRecord {
  const card = rt.state.cards.get(cardId);
  if (!card) throw notFound("Card", cardId);
  return card;
}

/**
 * `POST /cards`: 201 Card, `ACTIVE` at once (the emulator has no issuer to wait for). Funding
 * sources must be the cardholder's internal accounts, distinct, in the card's currency.
 */
function createCard(ctx: RequestContext): Response {
  const { rt } = ctx;
  const body = readBody(ctx, cardSchema);
  if (!rt.state.customers.has(body.cardholderId))
    throw notFound("Customer", body.cardholderId, "USER_NOT_FOUND");
  const errors: { field: string; message: string }[] = [];
  const accounts = body.fundingSources.map((accountId, i) => {
    const account = rt.state.accounts.get(accountId);
    if (!account || account.customerId !== body.cardholderId) {
      errors.push({
        field: `fundingSources[${i}]`,
        message: "is not an internal account of the cardholder",
      });
    }
    if (body.fundingSources.indexOf(accountId) !== i) {
      errors.push({ field: `fundingSources[${i}]`, message: "is listed twice" });
    }
    return account;
  });
  const currency = accounts[0]?.currency.code ?? "USDB";
  accounts.forEach((account, i) => {
    if (account && account.currency.code !== currency) {
      errors.push({
        field: `fundingSources[${i}]`,
        message: `is not in the card's currency ${currency}`,
      });
    }
  });
  if (errors.length > 0) throw invalidInput(errors);
  const now = ctx.now();
  const card: CardRecord = {
    id: rt.ids.next("Card"),
    cardholderId: body.cardholderId,
    state: "ACTIVE",
    currency,
    fundingSources: body.fundingSources.map((internalAccountId) => ({
      id: rt.ids.next("CardFundingSource"),
      internalAccountId,
    })),
    maxSpendPerTransaction: body.maxSpendPerTransaction ?? null,
    maxSpendPerDay: null,
    platformCardId: body.platformCardId,
    createdAt: now,
    updatedAt: now,
  };
  rt.state.cards.set(card.id, card);
  return json(201, cardJson(card));
}

function getCard(ctx: RequestContext): Response {
  return json(200, cardJson(getCardRecord(ctx.rt, pathId(ctx, "id", "Card"))));
}

function listCards(ctx: RequestContext): Response {
  const cardholderId = queryParam(ctx, "cardholderId", id("Customer"));
  const data = [...ctx.rt.state.cards.values()]
    .filter((c) => !cardholderId || c.cardholderId === cardholderId)
    .map(cardJson);
  return json(200, listEnvelope(data));
}

/** Card routes. */
export const cardRoutes: Route[] = [
  { method: "POST", pattern: "/cards", handler: createCard, body: cardSchema },
  { method: "GET", pattern: "/cards", handler: listCards },
  { method: "GET", pattern: "/cards/:id", handler: getCard },
];
