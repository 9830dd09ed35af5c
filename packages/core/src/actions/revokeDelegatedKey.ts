import type { SignetClient } from "../client.js";
import type { SignetError } from "../errors.js";
import { assertCall, assertServiceId } from "./arguments.js";

export type RevokeDelegatedKeyParameters = {
  delegatedKeyId: string;
  signal?: AbortSignal | undefined;
};
export type RevokeDelegatedKeyErrorType = SignetError;

/**
 * Revokes an ACTIVE delegated key (`DELETE /auth/delegated-keys/{id}`, one call, 204).
 *
 * @throws {SignetError} `NOT_FOUND`, 409 when not ACTIVE, `RELAY_FORBIDDEN`, `NETWORK`.
 * @example
 * ```ts
 * await revokeDelegatedKey(client, { delegatedKeyId });
 * ```
 */
export async function revokeDelegatedKey(
  client: SignetClient,
  parameters: RevokeDelegatedKeyParameters,
): Promise<void> {
  const { delegatedKeyId, signal } = assertCall(client, parameters);
  assertServiceId("delegatedKeyId", delegatedKeyId, "DelegatedKey");
  await client.request<unknown>({
    method: "DELETE",
    path: `/auth/delegated-keys/${delegatedKeyId}`,
    expectedStatus: 204,
    ...(signal ? { signal } : {}),
  });
}
