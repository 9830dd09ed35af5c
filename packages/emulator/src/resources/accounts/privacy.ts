// `PATCH /internal-accounts/{id}`: a wallet's privacy setting, a signed action (docs/protocol.md §3).
import { pathId, type RequestContext, readBody } from "../../http/context.js";
import { invalidInput, notFound } from "../../http/errors.js";
import { json } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import { walletPrivacyPayload } from "../../payloads.js";
import { runSignedRetry } from "../../signedRetry.js";
import { boolean, object, optional } from "../../validation.js";
import { sessionKeys } from "../sessions.js";
import { findBalanceAccount, internalAccountJson, sparkAddress } from "./account.js";

const privacySchema = object({ privateEnabled: optional(boolean()) });

/**
 * `PATCH /internal-accounts/{id}` `{ privateEnabled }` (wallet privacy): a signed retry as the
 * export, 202 with a `SIGN_RAW_PAYLOAD_V2` payload naming the change, then the stamped re-send
 * with the same body (a session of the wallet) → 200 InternalAccount with the new setting. No
 * field: 400; a platform account: 400; unknown: 404.
 */
async function updateInternalAccount(ctx: RequestContext): Promise<Response> {
  const { rt } = ctx;
  const accountId = pathId(ctx, "id", "InternalAccount");
  const body = readBody(ctx, privacySchema);
  if (body.privateEnabled === undefined) {
    throw invalidInput([
      { field: "privateEnabled", message: "is the one field to update and is missing" },
    ]);
  }
  const privateEnabled = body.privateEnabled;
  const account = rt.state.accounts.get(accountId);
  if (!account) {
    if (findBalanceAccount(rt, accountId)) {
      throw invalidInput([
        { field: "id", message: "is a platform account, not an EMBEDDED_WALLET" },
      ]);
    }
    throw notFound("Internal account", accountId);
  }
  return runSignedRetry(ctx, {
    operation: "UPDATE_INTERNAL_ACCOUNT",
    payload: () =>
      walletPrivacyPayload(
        ctx,
        { id: account.id, address: sparkAddress(account.id) },
        privateEnabled,
      ),
    allowedKeys: () => sessionKeys(rt, account.id),
    complete: () => {
      account.privateEnabled = privateEnabled;
      account.updatedAt = ctx.now();
      return json(200, internalAccountJson(account));
    },
  });
}

export const updateInternalAccountRoute: Route = {
  method: "PATCH",
  pattern: "/internal-accounts/:id",
  handler: updateInternalAccount,
  body: privacySchema,
};
