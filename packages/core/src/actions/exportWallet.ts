import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { detailOf, isSignetError, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { ActionErrorCode } from "./errorCodes.js";
import { expiredSessionError, requireLiveSession } from "./sessionExpiry.js";

export type ExportWalletParameters = CallOptions & {
  accountId: string;
  /** Checked against the bundle's `organizationId` when given. */
  organizationId?: string | undefined;
};
/** The BIP-39 mnemonic. Show it to the user only; never log, store or send it. */
export type ExportWalletReturnType = string;
export type ExportWalletErrorType = SignetErrorOf<ActionErrorCode<"exportWallet">>;

/** `exportWallet`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
export async function exportWallet(
  client: SignetClient,
  parameters: ExportWalletParameters,
): Promise<ExportWalletReturnType> {
  const { accountId, organizationId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const session = await requireLiveSession(client, accountId);
  // An export can only be received by re-sending; if its answer was lost after the service
  // produced it (the re-send then meets a spent request id), or its challenge lapsed, a new export
  // starts, once, under a fresh key (docs/protocol.md §4: a key is never offered twice). The
  // service stores nothing, so repeating it is safe.
  const run = async () => {
    const key = await client.crypto.generateDecryptionKey();
    const { body } = await client.signed(
      {
        operation: "exportWallet",
        method: "POST",
        path: `/internal-accounts/${accountId}/export`,
        body: JSON.stringify({ clientPublicKey: key.publicKeyUncompressed }),
        expectedStatus: 200,
        sign: signWithSession(client, session),
        checkPayload: exportWalletPayload(client, {
          accountId,
          clientPublicKey: key.publicKeyUncompressed,
        }),
        parseBody: (answer) =>
          expectShape<{ id: string; encryptedWalletCredentials: string }>(
            answer,
            ["encryptedWalletCredentials"],
            "export",
          ),
      },
      parameters,
    );
    return { key, body };
  };
  const { key, body } = await run()
    .catch((error: unknown) => {
      if (
        isSignetError(error) &&
        (detailOf(error, "ambiguousResend") === true || error.code === "CHALLENGE_EXPIRED")
      ) {
        return run();
      }
      throw error;
    })
    .catch(async (error: unknown) => {
      throw await expiredSessionError(client, error, session, parameters.signal);
    });
  return client.crypto.openExportBundle({
    bundle: body.encryptedWalletCredentials,
    key,
    ...(organizationId ? { organizationId } : {}),
    ...client.bundleTrust("exportBundle", parameters.onEvent),
  });
}

/**
 * What an export signs (docs/protocol.md §11): the wallet's export to the decrypt-only key made
 * for this call (the same point in either encoding, hex in either case), and any internal account
 * it names is this one. Any other target key would let its holder open the recovery phrase. The
 * `walletId` is pinned as a wallet id of its own kind, never compared with a signature's
 * `signWith`.
 */
export function exportWalletPayload(
  client: SignetClient,
  request: { accountId: string; clientPublicKey: string },
): CheckPayload {
  return expectActivity(client, request.accountId, [
    {
      types: ["ACTIVITY_TYPE_EXPORT_WALLET"],
      equals: { targetPublicKey: { as: "key", value: request.clientPublicKey } },
      ownIds: { InternalAccount: [request.accountId] },
    },
  ]);
}
