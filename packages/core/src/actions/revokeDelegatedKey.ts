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

/** `revokeDelegatedKey`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
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
