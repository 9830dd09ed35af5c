import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { shown } from "../arguments/fieldArguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { DelegatedKeyJson } from "../transport/wire.js";

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
      ...at(DELEGATED_KEY_CREATE),
      body: JSON.stringify({ cardId, internalAccountId: accountId, nickname }),
      sign: signWithSession(client, session),
      checkPayload: check,
      parseBody: (answer) =>
        expectShape<DelegatedKeyJson>(answer, DELEGATED_KEY_FIELDS, "DelegatedKey"),
    },
    parameters,
  );
  const approved = check.delegatedPublicKey();
  if (approved !== undefined && body.publicKey.toLowerCase() !== approved) {
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
 * What creating a delegated key signs (docs/protocol.md §11). The service shows no payload; its
 * prose says it "creates an isolated signer identity holding the public key, then policies
 * granting that identity signing and self-revocation authority", in Turnkey's vocabulary:
 *
 * 1. a user-creating activity (`CREATE_USERS_V3` or `_V2`): exactly one identity, holding exactly
 *    one compressed P-256 API key (read here as the key approved), and no passkey, OAuth provider,
 *    email or phone to sign in with;
 * 2. a policy-creating activity (`CREATE_POLICIES` or `CREATE_POLICY_V3`): every public key it
 *    names is the approved one.
 *
 * In both, every card and internal account named is the caller's. The key the 201 returns must be
 * the approved one. The policies' consensus names the identity by an id the enclave assigns, which
 * the device cannot know: that the policies grant that identity and no other only the service can
 * close.
 */
export function createDelegatedKeyPayload(
  client: SignetClient,
  request: { accountId: string; cardId: string; nickname: string },
): CheckPayload & { delegatedPublicKey(): string | undefined } {
  // The key read from the first payload, approved once that whole payload passed.
  let read: string | undefined;
  let approved: string | undefined;
  const ownIds = { Card: [request.cardId], InternalAccount: [request.accountId] };
  const user = "users.0";
  const check = expectActivity(client, request.accountId, (context) => [
    {
      types: ["ACTIVITY_TYPE_CREATE_USERS_V3", "ACTIVITY_TYPE_CREATE_USERS_V2"],
      equals: {
        [`${user}.apiKeys.0.publicKey`]: {
          test: (value) => {
            const key = typeof value === "string" && /^0[23][\da-f]{64}$/i.test(value);
            if (key && context.signature === 1) read = value.toLowerCase();
            return key;
          },
        },
      },
      // Isolated: nothing to sign in with.
      where: {
        [`${user}.apiKeys.0.curveType`]: "API_KEY_CURVE_P256",
        [`${user}.authenticators`]: { as: "none" },
        [`${user}.oauthProviders`]: { as: "none" },
        [`${user}.userEmail`]: { as: "cleared" },
        [`${user}.userPhoneNumber`]: { as: "cleared" },
      },
      counts: { users: 1, [`${user}.apiKeys`]: 1 },
      ownIds,
    },
    {
      types: ["ACTIVITY_TYPE_CREATE_POLICIES", "ACTIVITY_TYPE_CREATE_POLICY_V3"],
      ownIds,
      publicKeys: approved === undefined ? [] : [approved],
    },
  ]);
  const approving: CheckPayload = async (payloadToSign, context) => {
    const verdict = await check(payloadToSign, context);
    if (context.signature === 1) approved = verdict.known ? read : undefined;
    return verdict;
  };
  return Object.assign(approving, { delegatedPublicKey: () => approved });
}

/** `POST /auth/delegated-keys`. */
export const DELEGATED_KEY_CREATE = {
  method: "POST",
  path: "/auth/delegated-keys",
  expectedStatus: 201,
  maxLegs: 3,
} as const satisfies ActionRoute;

/** createDelegatedKey's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const createDelegatedKeyRow = {
  chunk: "wallet",
  sensitive: true,
  summary: "a delegated key for a card funding source, created in three legs",
  parameters: "`{ accountId, cardId, nickname }`",
  resolvesTo: "`DelegatedKeyJson`",
  requests: [
    {
      route: DELEGATED_KEY_CREATE,
      signed: {
        signer: "session",
        check: createDelegatedKeyPayload,
        signedBy: "a session of a verified credential of the wallet, twice",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS },
  hook: {
    kind: "mutation",
    name: "useCreateDelegatedKey",
    doc: "Creates a card's delegated signing key (`createDelegatedKey`).",
    invalidates: ["delegatedKeys"],
  },
} as const satisfies ActionSourceRow;
