// Wallet export (docs/protocol.md §3–§4): a signed retry answered with the wallet's mnemonic sealed to
// a fresh uncompressed key, in a bundle signed by the emulator's signer key (unless disabled).
import { makeExportBundle, parsePublicKey } from "../crypto/index.js";
import { pathId, type RequestContext, readBody } from "../http/context.js";
import { invalidInput } from "../http/errors.js";
import { json } from "../http/responses.js";
import type { Route } from "../http/router.js";
import { exportWalletPayload } from "../payloads.js";
import { runSignedRetry } from "../signedRetry.js";
import { object, string, UNCOMPRESSED_PUBLIC_KEY } from "../validation.js";
import { getAccount } from "./accounts/account.js";
import { sessionKeys } from "./sessions.js";

const exportSchema = object({
  clientPublicKey: string({
    pattern: UNCOMPRESSED_PUBLIC_KEY,
    patternMessage: "must be a 130-hex uncompressed P-256 key (a fresh decrypt-only key)",
  }),
});

/**
 * `POST /internal-accounts/{id}/export` `{ clientPublicKey }`: 202 → 200
 * `{ id, encryptedWalletCredentials }`, stamped by any active session of the wallet.
 */
async function exportWallet(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const accountId = pathId(ctx, "id", "InternalAccount");
  const body = readBody(ctx, exportSchema);
  const point = parsePublicKey(body.clientPublicKey);
  if (!point)
    throw invalidInput([{ field: "clientPublicKey", message: "is not a valid P-256 public key" }]);
  const account = getAccount(rt, accountId);
  return runSignedRetry(ctx, {
    operation: "EXPORT_WALLET",
    payload: () => exportWalletPayload(ctx, account.id, body.clientPublicKey),
    allowedKeys: () => sessionKeys(rt, account.id),
    webhook: {
      operationType: "wallet.export",
      resourceType: "INTERNAL_ACCOUNT",
      resourceId: () => account.id,
    },
    complete: () =>
      json(200, {
        id: account.id,
        encryptedWalletCredentials: makeExportBundle({
          mnemonic: account.mnemonic,
          recipientPublicKey: point.uncompressed,
          organizationId: rt.keys.organizationId,
          signer: rt.options.signExports ? rt.keys.signer : null,
        }),
      }),
  });
}

/** Export route. */
export const exportRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/internal-accounts/:id/export",
    handler: exportWallet,
    body: exportSchema,
  },
];
