import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";

export type RevokeDelegatedKeyParameters = CallOptions & {
  delegatedKeyId: string;
};
export type RevokeDelegatedKeyReturnType = undefined;
export type RevokeDelegatedKeyErrorType = SignetErrorOf<ActionErrorCode<"revokeDelegatedKey">>;

/**
 * Revokes an ACTIVE delegated key (`DELETE /auth/delegated-keys/{id}`, one call, 204).
 *
 * @throws {SignetError} `REFERENCE_NOT_FOUND` (404), `INVALID_INPUT` (400: the key is not ACTIVE,
 *   as the OpenAPI documents), `RELAY_FORBIDDEN`, `NETWORK`.
 * @example
 * ```ts
 * await revokeDelegatedKey(client, { delegatedKeyId });
 * ```
 */
export async function revokeDelegatedKey(
  client: SignetClient,
  parameters: RevokeDelegatedKeyParameters,
): Promise<RevokeDelegatedKeyReturnType> {
  const { delegatedKeyId } = assertCall(client, parameters);
  assertServiceId("delegatedKeyId", delegatedKeyId, "DelegatedKey");
  await client.request<unknown>(
    {
      ...at(DELEGATED_KEY_REVOKE, [delegatedKeyId]),
    },
    parameters,
  );
}

/** `DELETE /auth/delegated-keys/{DelegatedKey}`. */
export const DELEGATED_KEY_REVOKE = {
  method: "DELETE",
  path: "/auth/delegated-keys/{DelegatedKey}",
  expectedStatus: 204,
} as const satisfies ActionRoute;

/** revokeDelegatedKey's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const revokeDelegatedKeyRow = {
  chunk: "wallet",
  sensitive: true,
  summary: "revokes an `ACTIVE` delegated key, in one call",
  parameters: "`{ delegatedKeyId }`",
  resolvesTo: "`undefined`",
  requests: [{ route: DELEGATED_KEY_REVOKE }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "mutation",
    name: "useRevokeDelegatedKey",
    doc: "Revokes a delegated key (`revokeDelegatedKey`).",
    invalidates: ["delegatedKeys"],
  },
} as const satisfies ActionSourceRow;
