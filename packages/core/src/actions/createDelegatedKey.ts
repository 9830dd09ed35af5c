import { assertCall, assertDelegatedKeyNickname, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { SessionSignedErrorCode, SignetError } from "../errors.js";
import type { CallOptions } from "../events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
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
  const { body } = await client.signed(
    {
      operation: "createDelegatedKey",
      method: "POST",
      path: "/auth/delegated-keys",
      body: JSON.stringify({ cardId, internalAccountId: accountId, nickname }),
      expectedStatus: 201,
      maxLegs: 3,
      sign: signWithSession(client, session),
      parseBody: (answer) =>
        expectShape<DelegatedKeyJson>(answer, DELEGATED_KEY_FIELDS, "DelegatedKey"),
    },
    parameters,
  );
  return body;
}
