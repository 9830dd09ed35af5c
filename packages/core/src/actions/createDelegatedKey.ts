import { assertCall, assertServiceId, shown } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity, type PayloadFault } from "../transport/payloadCheck.js";
import { CLEARED, compressedKey, NONE } from "../transport/payloadValues.js";
import { isPlainObject } from "../transport/responseError.js";
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
  if (approved !== undefined && compressedKey(body.publicKey) !== approved) {
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

/** Turnkey's activities that create a user (the service's "isolated signer identity"). */
const SIGNER_IDENTITY_TYPES = [
  "ACTIVITY_TYPE_CREATE_USERS_V3",
  "ACTIVITY_TYPE_CREATE_USERS_V2",
  "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
];
/** Turnkey's activities that create policies. */
const POLICY_TYPES = ["ACTIVITY_TYPE_CREATE_POLICIES", "ACTIVITY_TYPE_CREATE_POLICY_V3"];

/**
 * Reads the signer identity of the first payload: exactly one identity (`users`, or
 * `apiOnlyUsers`), holding exactly one P-256 API key, and nothing it could sign in with (no
 * passkey, OAuth provider, email or phone: the service calls it isolated).
 */
function readSignerIdentity(
  parameters: Record<string, unknown>,
): { key: string } | { fault: PayloadFault } {
  const list = "apiOnlyUsers" in parameters ? "apiOnlyUsers" : "users";
  const users = parameters[list];
  const at = `parameters.${list}`;
  if (!Array.isArray(users) || users.length !== 1 || !isPlainObject(users[0])) {
    return { fault: { field: at, reason: "does not hold exactly one signer identity" } };
  }
  const user = users[0];
  const apiKeys = user.apiKeys;
  if (!Array.isArray(apiKeys) || apiKeys.length !== 1 || !isPlainObject(apiKeys[0])) {
    return { fault: { field: `${at}.0.apiKeys`, reason: "does not hold exactly 1" } };
  }
  const [apiKey] = apiKeys;
  const key = typeof apiKey.publicKey === "string" ? compressedKey(apiKey.publicKey) : undefined;
  if (key === undefined || (apiKey.publicKey as string).length !== 66) {
    return {
      fault: { field: `${at}.0.apiKeys.0.publicKey`, reason: "is not a compressed P-256 key" },
    };
  }
  if (apiKey.curveType !== undefined && apiKey.curveType !== "API_KEY_CURVE_P256") {
    return { fault: { field: `${at}.0.apiKeys.0.curveType`, reason: "is not P-256" } };
  }
  for (const [name, none] of [
    ["authenticators", NONE],
    ["oauthProviders", NONE],
    ["userEmail", CLEARED],
    ["userPhoneNumber", CLEARED],
  ] as const) {
    if (!none.test(user[name])) {
      return {
        fault: { field: `${at}.0.${name}`, reason: "gives the signer identity a way to sign in" },
      };
    }
  }
  return { key };
}

/**
 * What creating a delegated key signs (docs/protocol.md §11). The service shows no payload; its
 * prose says it "creates an isolated signer identity holding the public key, then policies
 * granting that identity signing and self-revocation authority", in Turnkey's vocabulary:
 *
 * 1. a user-creating activity (`CREATE_USERS_V3`, `_V2` or `CREATE_API_ONLY_USERS`): exactly one
 *    identity, holding exactly one compressed P-256 API key (read here as the key approved), and
 *    no way to sign in;
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
  let approved: string | undefined;
  const ownIds = { Card: [request.cardId], InternalAccount: [request.accountId] };
  const check = expectActivity(client, request.accountId, (context) => [
    {
      types: SIGNER_IDENTITY_TYPES,
      ownIds,
      custom: (parameters) => {
        const identity = readSignerIdentity(parameters);
        if ("fault" in identity) return identity.fault;
        if (context.signature === 1) approved = identity.key;
        return undefined;
      },
    },
    {
      types: POLICY_TYPES,
      ownIds,
      publicKeys: approved === undefined ? [] : [approved],
      custom: () =>
        approved === undefined
          ? { field: "type", reason: "comes before the signer identity was approved" }
          : undefined,
    },
  ]);
  return Object.assign(check, { delegatedPublicKey: () => approved });
}
