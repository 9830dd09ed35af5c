import { assertCall, assertDelegatedKeyNickname, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { type SessionSignedErrorCode, SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import {
  type CheckPayload,
  expectActivity,
  payloadMismatch,
  readActivity,
} from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { DelegatedKeyJson } from "../wire.js";

export type CreateDelegatedKeyParameters = CallOptions & {
  /** The wallet funding the card (`InternalAccount:…`). */
  accountId: string;
  cardId: string;
  nickname: string;
};
export type CreateDelegatedKeyReturnType = DelegatedKeyJson;
export type CreateDelegatedKeyErrorType = SignetError<SessionSignedErrorCode>;

export const DELEGATED_KEY_FIELDS = ["id", "cardId", "accountId", "publicKey", "status"] as const;

/**
 * Creates the delegated key that lets a card spend from the wallet: a three-leg signed request,
 * both signed legs stamped by a held session of the wallet.
 *
 * @throws {SignetError} 409 `CONFLICT`-class when an ACTIVE key exists for the funding source, `NO_SESSION`, `NETWORK`.
 * @example
 * ```ts
 * const key = await createDelegatedKey(client, { accountId, cardId, nickname: "Card" });
 * ```
 */
export async function createDelegatedKey(
  client: SignetClient,
  parameters: CreateDelegatedKeyParameters,
): Promise<CreateDelegatedKeyReturnType> {
  const { accountId, cardId, nickname } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  assertServiceId("cardId", cardId, "Card");
  assertDelegatedKeyNickname(nickname);
  const session = await requireSession(client, { accountId });
  const check = createDelegatedKeyPayload(client, { accountId, cardId, nickname });
  const { body } = await client.signed(
    {
      operation: "createDelegatedKey",
      method: "POST",
      path: "/auth/delegated-keys",
      body: JSON.stringify({ cardId, internalAccountId: accountId, nickname }),
      expectedStatus: 201,
      maxLegs: 3,
      sign: signWithSession(client, session),
      checkPayload: check,
      parseBody: (answer) =>
        expectShape<DelegatedKeyJson>(answer, DELEGATED_KEY_FIELDS, "DelegatedKey"),
    },
    parameters,
  );
  const approved = check.delegatedPublicKey();
  if (approved !== undefined && body.publicKey.toLowerCase() !== approved.toLowerCase()) {
    throw new SignetError(
      "MALFORMED_RESPONSE",
      "The delegated key is not the key this device approved",
      {
        details: { operation: "createDelegatedKey", field: "publicKey" },
      },
    );
  }
  return body;
}

/**
 * What creating a delegated key signs (the service shows no example; docs/protocol.md §11 records
 * this project's decision): first the API key itself, named as the caller named it, then the
 * policy that lets it spend from exactly the caller's card. The key approved on the first payload
 * must be the key the service then returns.
 */
export function createDelegatedKeyPayload(
  client: SignetClient,
  request: { accountId: string; cardId: string; nickname: string },
): CheckPayload & { delegatedPublicKey(): string | undefined } {
  let approved: string | undefined;
  const check = expectActivity(client, request.accountId, [
    {
      types: ["ACTIVITY_TYPE_CREATE_API_KEYS_V2"],
      equals: { "apiKeys.0.apiKeyName": request.nickname },
      counts: { apiKeys: 1 },
    },
    {
      types: ["ACTIVITY_TYPE_CREATE_POLICY_V3"],
      equals: { policyName: request.nickname, condition: `card.id == '${request.cardId}'` },
    },
  ]);
  return Object.assign<CheckPayload, { delegatedPublicKey(): string | undefined }>(
    (payloadToSign, context) => {
      const verdict = check(payloadToSign, context);
      if (context.signature === 1 && verdict.known) {
        const apiKeys = (readActivity(payloadToSign)?.parameters as { apiKeys?: unknown[] })
          ?.apiKeys;
        const publicKey = (apiKeys?.[0] as { publicKey?: unknown } | undefined)?.publicKey;
        if (typeof publicKey !== "string" || !/^0[23][0-9a-fA-F]{64}$/.test(publicKey)) {
          throw payloadMismatch(context, "parameters.apiKeys.0.publicKey", "is not a P-256 key");
        }
        approved = publicKey;
      }
      return verdict;
    },
    { delegatedPublicKey: () => approved },
  );
}
