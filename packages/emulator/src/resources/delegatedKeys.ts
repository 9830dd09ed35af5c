// Delegated signing keys (docs/protocol.md §2–§3): a three-leg signed retry (202 → 202 → 201),
// list, get and revoke.
import { isoTime } from "../clock.js";
import { toHex } from "../crypto/index.js";
import {
  expectNoBody,
  pathId,
  queryParam,
  type RequestContext,
  readBody,
} from "../http/context.js";
import { invalidInput, notFound, ServiceError } from "../http/errors.js";
import { json, noContent } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { delegatedKeyPayload } from "../payloads.js";
import { issueChallenge, runSignedRetry, signedHeaders } from "../signedRetry.js";
import type { DelegatedKeyRecord } from "../state.js";
import { id, object, string } from "../validation.js";
import { getAccount } from "./accounts/account.js";
import { getCardRecord } from "./cards.js";
import { sessionKeys } from "./sessions.js";

const createSchema = object({
  cardId: id("Card"),
  internalAccountId: id("InternalAccount"),
  nickname: string({ minLength: 1, maxLength: 256 }),
});

/** The DelegatedKey JSON (the private key never leaves the emulator). */
export function delegatedKeyJson(key: DelegatedKeyRecord): Record<string, unknown> {
  return {
    id: key.id,
    cardId: key.cardId,
    fundingSourceId: key.fundingSourceId,
    accountId: key.accountId,
    publicKey: key.publicKey,
    nickname: key.nickname,
    status: key.status,
    createdAt: isoTime(key.createdAt),
    updatedAt: isoTime(key.updatedAt),
  };
}

type Leg = { leg: 1; publicKey: string } | { leg: 2; keyId: string; publicKey: string };

/**
 * `POST /auth/delegated-keys` `{ cardId, internalAccountId, nickname }`, the same body on all legs:
 * 202 → (stamped) 202 with a new payload and request id, the key now `PENDING` → (stamped) 201
 * `ACTIVE`. 409 `CONFLICT` (`details.reason: "DELEGATED_KEY_ALREADY_EXISTS"`) while an ACTIVE
 * key exists for the funding source; 404 when the card has no funding source of that account.
 */
async function createDelegatedKey(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const body = readBody(ctx, createSchema);
  const card = getCardRecord(rt, body.cardId);
  const account = getAccount(rt, body.internalAccountId);
  const source = card.fundingSources.find((f) => f.internalAccountId === account.id);
  // docs/protocol.md §10: a card and account that do not belong together are not found (404).
  if (!source) {
    throw notFound("Card funding source for this internal account", body.internalAccountId);
  }
  const assertNoActive = () => {
    const active = [...rt.state.delegatedKeys.values()].find(
      (k) => k.fundingSourceId === source.id && k.status === "ACTIVE",
    );
    if (active) {
      throw new ServiceError(
        409,
        "CONFLICT",
        "An ACTIVE delegated key exists for this funding source.",
        { reason: "DELEGATED_KEY_ALREADY_EXISTS", delegatedKeyId: active.id },
      );
    }
  };
  assertNoActive();
  // The key is made with the first challenge, whose payload approves it (docs/protocol.md §11);
  // a signed retry finds it in its pending request.
  const fresh = signedHeaders(ctx).signature === null ? rt.ids.keyPair("delegated-key") : undefined;
  const request = {
    accountId: account.id,
    cardId: card.id,
    nickname: body.nickname,
    publicKey: fresh ? toHex(fresh.publicKeyCompressed) : "",
  };
  return runSignedRetry(ctx, {
    operation: "CREATE_DELEGATED_KEY",
    data: { leg: 1, publicKey: request.publicKey } satisfies Leg,
    payload: () => delegatedKeyPayload(ctx, 1, request),
    allowedKeys: () => sessionKeys(rt, account.id),
    complete: ({ pending }) => {
      assertNoActive();
      const leg = pending.data as Leg;
      const now = ctx.now();
      if (leg.leg === 1) {
        const key: DelegatedKeyRecord = {
          id: rt.ids.next("DelegatedKey"),
          cardId: card.id,
          fundingSourceId: source.id,
          accountId: account.id,
          publicKey: leg.publicKey,
          nickname: body.nickname,
          status: "PENDING",
          createdAt: now,
          updatedAt: now,
        };
        rt.state.delegatedKeys.set(key.id, key);
        return issueChallenge(ctx, {
          operation: "ACTIVATE_DELEGATED_KEY",
          payload: () => delegatedKeyPayload(ctx, 2, { ...request, publicKey: leg.publicKey }),
          data: { leg: 2, keyId: key.id, publicKey: leg.publicKey } satisfies Leg,
        });
      }
      const key = rt.state.delegatedKeys.get(leg.keyId);
      if (key?.status !== "PENDING") {
        throw new ServiceError(409, "CONFLICT", "The delegated key is no longer pending.", {
          reason: "DELEGATED_KEY_NOT_PENDING",
        });
      }
      key.status = "ACTIVE";
      key.updatedAt = now;
      return json(201, delegatedKeyJson(key));
    },
  });
}

/** `GET /auth/delegated-keys?accountId=&fundingSourceId=` (at least one): every status. */
function listDelegatedKeys(ctx: RequestContext): Response {
  const accountId = queryParam(ctx, "accountId", id("InternalAccount"));
  const fundingSourceId = queryParam(ctx, "fundingSourceId", id("CardFundingSource"));
  if (!accountId && !fundingSourceId) {
    throw invalidInput([
      { field: "accountId", message: "accountId or fundingSourceId is required" },
      { field: "fundingSourceId", message: "accountId or fundingSourceId is required" },
    ]);
  }
  const data = [...ctx.rt.state.delegatedKeys.values()]
    .filter(
      (k) =>
        (!accountId || k.accountId === accountId) &&
        (!fundingSourceId || k.fundingSourceId === fundingSourceId),
    )
    .map(delegatedKeyJson);
  return json(200, { data });
}

function getKey(ctx: RequestContext): DelegatedKeyRecord {
  const keyId = pathId(ctx, "id", "DelegatedKey");
  const key = ctx.rt.state.delegatedKeys.get(keyId);
  if (!key) throw notFound("Delegated key", keyId);
  return key;
}

function getDelegatedKey(ctx: RequestContext): Response {
  return json(200, delegatedKeyJson(getKey(ctx)));
}

/** `DELETE /auth/delegated-keys/{id}`: 204 for an ACTIVE key; 400 `INVALID_INPUT` otherwise (docs/protocol.md §10). */
function revokeDelegatedKey(ctx: RequestContext): Response {
  const key = getKey(ctx);
  expectNoBody(ctx);
  if (key.status !== "ACTIVE") {
    throw new ServiceError(
      400,
      "INVALID_INPUT",
      `Only an ACTIVE key can be revoked; this one is ${key.status}.`,
      { reason: "DELEGATED_KEY_NOT_ACTIVE", status: key.status },
    );
  }
  key.status = "REVOKED";
  key.updatedAt = ctx.now();
  return noContent();
}

/** Delegated key routes. */
export const delegatedKeyRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/auth/delegated-keys",
    handler: createDelegatedKey,
    body: createSchema,
  },
  { method: "GET", pattern: "/auth/delegated-keys", handler: listDelegatedKeys },
  { method: "GET", pattern: "/auth/delegated-keys/:id", handler: getDelegatedKey },
  { method: "DELETE", pattern: "/auth/delegated-keys/:id", handler: revokeDelegatedKey },
];
