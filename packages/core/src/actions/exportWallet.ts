import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { isSignetError, type SignetError, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity, hexValue } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import { resolveRetryPolicy, retryEvent } from "../transport/retry.js";
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
  // produced it (the re-send then meets a spent request id), its challenge lapsed, or no answer
  // came at all, a new export starts under a fresh key (docs/protocol.md §4: a key is never
  // offered twice), as often as the retry policy allows. The service stores nothing, so
  // repeating it is safe.
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
  const { key, body } = await startOver(client, parameters, run).catch(async (error: unknown) => {
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
 * Runs `run` again, from a fresh export, after a failure that a new export can cure: a lost answer
 * or a lapsed challenge (`OUTCOME_UNKNOWN`, `CHALLENGE_EXPIRED`, an answer after a send that may
 * have been taken), or no answer at all (`NETWORK`, `TIMEOUT`, a 5xx, `PROCESSING_TIMEOUT`), up to
 * the retry policy's `retryCount` times, each announced as a `restart` retry event.
 * @throws {SignetError} the last failure.
 */
async function startOver<T>(
  client: SignetClient,
  call: CallOptions,
  run: () => Promise<T>,
): Promise<T> {
  const policy = resolveRetryPolicy(client.retry, call.retry);
  const path = "/internal-accounts/{InternalAccount}/export";
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isSignetError(error) || attempt > policy.retryCount || !curedByNewExport(error))
        throw error;
      client.emit(
        retryEvent(
          { method: "POST", path, operation: "exportWallet" },
          "restart",
          attempt,
          0,
          client.clock.now(),
          error,
        ),
        call.onEvent,
      );
    }
  }
}

const curedByNewExport = (error: SignetError) =>
  error.code !== "ABORTED" &&
  (error.code === "OUTCOME_UNKNOWN" ||
    error.code === "CHALLENGE_EXPIRED" ||
    error.details?.ambiguousResend === true ||
    (error.retryable && (error.status === undefined || error.status >= 500)));

/**
 * What an export signs (docs/protocol.md §11): the wallet's export to the decrypt-only key made
 * for this call. Any other target key would let its holder open the recovery phrase.
 */
export function exportWalletPayload(
  client: SignetClient,
  request: { accountId: string; clientPublicKey: string },
): CheckPayload {
  return expectActivity(client, request.accountId, [
    {
      types: ["ACTIVITY_TYPE_EXPORT_WALLET"],
      equals: { targetPublicKey: hexValue(request.clientPublicKey) },
    },
  ]);
}
