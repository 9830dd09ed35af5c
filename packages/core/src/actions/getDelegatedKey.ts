import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import type { DelegatedKeyJson } from "../transport/wire.js";
import { DELEGATED_KEY_FIELDS } from "./createDelegatedKey.js";

export type GetDelegatedKeyParameters = CallOptions & {
  delegatedKeyId: string;
};
export type GetDelegatedKeyReturnType = DelegatedKeyJson;
export type GetDelegatedKeyErrorType = SignetErrorOf<ActionErrorCode<"getDelegatedKey">>;

/**
 * Reads one delegated key (`GET /auth/delegated-keys/{id}`).
 *
 * @throws {SignetError} `NOT_FOUND`, `RELAY_FORBIDDEN`, `NETWORK`.
 * @example
 * ```ts
 * const key = await getDelegatedKey(client, { delegatedKeyId });
 * ```
 */
export async function getDelegatedKey(
  client: SignetClient,
  parameters: GetDelegatedKeyParameters,
): Promise<GetDelegatedKeyReturnType> {
  const { delegatedKeyId } = assertCall(client, parameters);
  assertServiceId("delegatedKeyId", delegatedKeyId, "DelegatedKey");
  const body = await client.request<unknown>(
    {
      ...at(DELEGATED_KEY_GET, [delegatedKeyId]),
    },
    parameters,
  );
  return expectShape<DelegatedKeyJson>(body, DELEGATED_KEY_FIELDS, "DelegatedKey");
}

/** `GET /auth/delegated-keys/{DelegatedKey}`. */
export const DELEGATED_KEY_GET = {
  method: "GET",
  path: "/auth/delegated-keys/{DelegatedKey}",
} as const satisfies ActionRoute;

/** getDelegatedKey's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const getDelegatedKeyRow = {
  chunk: "wallet",
  summary: "one delegated key",
  parameters: "`{ delegatedKeyId }`",
  resolvesTo: "`DelegatedKeyJson`",
  requests: [{ route: DELEGATED_KEY_GET }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useDelegatedKey",
    reads: "delegatedKeys",
    doc: "One delegated key (`getDelegatedKey`).",
  },
} as const satisfies ActionSourceRow;
