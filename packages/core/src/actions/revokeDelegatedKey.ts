import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import type { SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import type { ActionErrorCode } from "./errorCodes.js";

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
      method: "DELETE",
      path: `/auth/delegated-keys/${delegatedKeyId}`,
      expectedStatus: 204,
    },
    parameters,
  );
}
