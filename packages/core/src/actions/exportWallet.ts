import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { ClientSigner, SignetClient } from "../client.js";
import type { ExportShownElsewhere } from "../crypto/api.js";
import { BUNDLE_ERRORS, CRYPTO_ERRORS, SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { isSignetError, type SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expiredSessionError, requireLiveSession } from "../session/expiry/sessionExpiry.js";
import { signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import { resolveRetryPolicy, retryEvent } from "../transport/retry.js";

export type ExportWalletParameters = CallOptions & {
  accountId: string;
  /** Checked against the bundle's `organizationId` when given. */
  organizationId?: string | undefined;
};
/**
 * The BIP-39 mnemonic (`string`): show it to the user only; never log, store or send it. For a
 * client of a signer frame (`SignetClient<"frame">`, `@signet/frame`) the phrase is shown inside
 * the frame and never reaches the page: `{ shownIn: "frame" }`. A client typed only as
 * `SignetClient` is read as one whose keys sign in the page: keep a frame client's inferred type
 * where it exports.
 */
export type ExportWalletReturnType<TSigner extends ClientSigner = ClientSigner> = [
  TSigner,
] extends ["frame"]
  ? ExportShownElsewhere
  : string;
export type ExportWalletErrorType = SignetErrorOf<ActionErrorCode<"exportWallet">>;

/**
 * Exports the wallet's recovery phrase: a fresh decrypt-only key per export (uncompressed), the
 * signed request, then `openExportBundle` on the device. The key exists only for this call. If the
 * challenge lapses, or an answer is lost (the re-send meets a spent request id, or nothing
 * answers), a new export starts under a fresh key, as often as the retry policy's `retryCount`
 * allows: an export changes nothing, so another one is safe. A held session that has expired on
 * the service's clock (a device that slept) ends it in `SESSION_EXPIRED`: sign in again.
 *
 * @throws {SignetError} `NO_SESSION`, `SESSION_EXPIRED`, `BUNDLE_SIGNER_UNTRUSTED`, `BUNDLE_SIGNATURE_INVALID`,
 *   `BUNDLE_ORGANIZATION_MISMATCH`, `DECRYPTION_FAILED`, `PROCESSING_TIMEOUT`, `OUTCOME_UNKNOWN`,
 *   `NETWORK`.
 * @example
 * ```ts
 * const mnemonic = await exportWallet(client, { accountId });
 * ```
 */
export async function exportWallet<TSigner extends ClientSigner>(
  client: SignetClient<TSigner>,
  parameters: ExportWalletParameters,
): Promise<ExportWalletReturnType<TSigner>> {
  const { accountId, organizationId } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  const session = await requireLiveSession(client, accountId);
  // An export can only be received by re-sending; if its answer was lost after the service may
  // have produced it (the re-send then meets a spent request id, or no answer comes), or its
  // challenge lapsed, a new export starts under a fresh key (docs/protocol.md §4: a key is never
  // offered twice), as often as the retry policy allows. The service stores nothing, so
  // repeating it is safe.
  const run = async (lost: { answer: boolean }) => {
    const key = await client.crypto.generateDecryptionKey();
    const { body } = await client.signed(
      {
        operation: "exportWallet",
        ...at(WALLET_EXPORT, [accountId]),
        body: JSON.stringify({ clientPublicKey: key.publicKeyUncompressed }),
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
        // No read shows an export: a signed send whose outcome stays open is started afresh.
        resolveAmbiguous: async () => {
          lost.answer = true;
          return undefined;
        },
      },
      parameters,
    );
    return { key, body };
  };
  const { key, body } = await startOver(client, parameters, run).catch(async (error: unknown) => {
    throw await expiredSessionError(client, error, session, parameters.signal);
  });
  // A signer frame opens the bundle with the key it made and shows the phrase itself.
  // `client.signer` is "frame" exactly when `showExportBundle` is there (createClient), which is
  // what the return type says.
  const open = client.crypto.showExportBundle ?? client.crypto.openExportBundle;
  return open({
    bundle: body.encryptedWalletCredentials,
    key,
    ...(organizationId ? { organizationId } : {}),
    ...client.bundleTrust("exportBundle", parameters.onEvent),
  }) as Promise<ExportWalletReturnType<TSigner>>;
}

/**
 * Runs `run` again, from a fresh export, after a failure that a new export can cure: an answer
 * lost after a signed send may have been taken (`run` sets `lost.answer`), or a lapsed challenge,
 * up to the retry policy's `retryCount` times, each announced as a `restart` retry event. A
 * failure before anything was signed already had the policy's retries.
 * @throws {SignetError} the last failure.
 */
async function startOver<T>(
  client: SignetClient,
  call: CallOptions,
  run: (lost: { answer: boolean }) => Promise<T>,
): Promise<T> {
  const policy = resolveRetryPolicy(client.retry, call.retry);
  const { path } = WALLET_EXPORT;
  for (let attempt = 1; ; attempt++) {
    const lost = { answer: false };
    try {
      return await run(lost);
    } catch (error) {
      if (!isSignetError(error) || attempt > policy.retryCount || !curedByNewExport(error, lost))
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

const curedByNewExport = (error: SignetError, lost: { answer: boolean }) =>
  error.code !== "ABORTED" &&
  error.code !== "PAYLOAD_MISMATCH" &&
  (lost.answer || error.code === "CHALLENGE_EXPIRED" || error.code === "OUTCOME_UNKNOWN");

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

/** `POST /internal-accounts/{InternalAccount}/export`. */
export const WALLET_EXPORT = {
  method: "POST",
  path: "/internal-accounts/{InternalAccount}/export",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** exportWallet's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const exportWalletRow = {
  chunk: "wallet",
  sensitive: true,
  summary:
    "a fresh decrypt-only key per export, the verified bundle opened on the device; the mnemonic goes to the caller only",
  parameters: "`{ accountId, organizationId? }`",
  resolvesTo:
    '`string` (`{ shownIn: "frame" }` for a client of `@signet/frame`, whose frame shows the words): the BIP-39 mnemonic, words separated by spaces (12 from the emulator; the service\'s documents do not state a count, so show every word that comes)',
  requests: [
    {
      route: WALLET_EXPORT,
      signed: {
        signer: "session",
        check: exportWalletPayload,
        signedBy: "any verified session of the account",
      },
    },
  ],
  errors: { client: [SESSION_SIGNED_ERRORS, CRYPTO_ERRORS, BUNDLE_ERRORS] },
  hook: {
    kind: "mutation",
    name: "useExportWallet",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
