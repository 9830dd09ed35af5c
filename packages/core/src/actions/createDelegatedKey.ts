import { assertCall, assertServiceId, shown } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { DelegatedKeyJson } from "../wire.js";
import type { ActionErrorCode } from "./errorCodes.js";

/**
 * Checks a delegated key's nickname: 1–256 characters.
 * Here, not in `arguments.ts`: only this action, which loads on first use, checks one.
 * @throws {SignetError} `INVALID_ARGUMENT`.
 */
function assertDelegatedKeyNickname(value: unknown): asserts value is string {
  assertArgument(
    typeof value === "string" && /^.{1,256}$/su.test(value),
    "nickname",
    "1–256 characters",
    shown(value),
  );
}

export type CreateDelegatedKeyParameters = CallOptions & {
  /** The wallet funding the card (`InternalAccount:…`). */
  accountId: string;
  cardId: string;
  nickname: string;
};
export type CreateDelegatedKeyReturnType = DelegatedKeyJson;
export type CreateDelegatedKeyErrorType = SignetErrorOf<ActionErrorCode<"createDelegatedKey">>;

export const DELEGATED_KEY_FIELDS = ["id", "cardId", "accountId", "publicKey", "status"] as const;

/** `createDelegatedKey`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
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
 * this project's decision): first the policy that lets one key spend from exactly the caller's
 * card, under the caller's name, then that same key as an API key of the same name. The key the
 * policy names must be the key the service then returns.
 */
export function createDelegatedKeyPayload(
  client: SignetClient,
  request: { accountId: string; cardId: string; nickname: string },
): CheckPayload & { delegatedPublicKey(): string | undefined } {
  let approved: string | undefined;
  const condition = new RegExp(
    `^card\\.id == '${request.cardId.replace(/[^\w:-]/g, "")}' && key\\.publicKey == '(0[23][0-9a-fA-F]{64})'$`,
  );
  const check = expectActivity(client, request.accountId, (context) => [
    {
      types: ["ACTIVITY_TYPE_CREATE_POLICY_V3"],
      equals: {
        policyName: request.nickname,
        condition: {
          test: (value) => {
            const match = typeof value === "string" ? condition.exec(value) : null;
            if (match && context.signature === 1) approved = match[1];
            return match !== null;
          },
        },
      },
    },
    {
      types: ["ACTIVITY_TYPE_CREATE_API_KEYS_V2"],
      equals: {
        "apiKeys.0.apiKeyName": request.nickname,
        "apiKeys.0.publicKey": { test: (value) => value === approved && approved !== undefined },
      },
      counts: { apiKeys: 1 },
    },
  ]);
  return Object.assign(check, { delegatedPublicKey: () => approved });
}
