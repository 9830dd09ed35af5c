// The account and wallet actions a page rarely needs before its first stamp (delegated keys,
// credentials listed, added and revoked, contact details and their verification, wallet privacy
// and export, the transactions list) are one chunk, like the SCA actions of `lazy.ts`, which
// starts loading it when a client is made (docs/architecture.md "Size"). None runs a passkey
// ceremony, so no tap waits for a chunk. Each public function is here, with its documentation;
// its module holds the code.

import type { SignetClient } from "../client.js";
import { loadChunk } from "../crypto/chunk.js";
import type { AddCredentialParameters, AddCredentialReturnType } from "./addCredential.js";
import type {
  ConfirmContactVerificationParameters,
  ConfirmContactVerificationReturnType,
  StartContactVerificationParameters,
  StartContactVerificationReturnType,
} from "./contactVerification.js";
import type {
  CreateDelegatedKeyParameters,
  CreateDelegatedKeyReturnType,
} from "./createDelegatedKey.js";
import type { ExportWalletParameters, ExportWalletReturnType } from "./exportWallet.js";
import type { GetDelegatedKeyParameters, GetDelegatedKeyReturnType } from "./getDelegatedKey.js";
import type { ListCredentialsParameters, ListCredentialsReturnType } from "./listCredentials.js";
import type {
  ListDelegatedKeysParameters,
  ListDelegatedKeysReturnType,
} from "./listDelegatedKeys.js";
import type { ListTransactionsParameters, ListTransactionsReturnType } from "./listTransactions.js";
import type { RevokeCredentialParameters, RevokeCredentialReturnType } from "./revokeCredential.js";
import type {
  RevokeDelegatedKeyParameters,
  RevokeDelegatedKeyReturnType,
} from "./revokeDelegatedKey.js";
import type {
  UpdateCustomerContactParameters,
  UpdateCustomerContactReturnType,
} from "./updateCustomerContact.js";
import type {
  UpdateWalletPrivacyParameters,
  UpdateWalletPrivacyReturnType,
} from "./updateWalletPrivacy.js";

// One chunk for all of them (./walletActions.ts): each chunk costs its own import and export
// lists, and each module a chunk shares with the page is split out of the page's own chunk.
/** Loads the chunk (once: the module cache keeps it); `lazy.ts` starts it when a client is made. */
export const loadWalletActions = () => loadChunk(() => import("./walletActions.js"));

/**
 * Creates the delegated key that lets a card spend from the wallet: a three-leg signed request,
 * both signed legs stamped by a held session of the wallet.
 *
 * @throws {SignetError} 409 `CONFLICT`-class when an ACTIVE key exists for the funding source, `NO_SESSION`, `NETWORK`.
 * @example
 * ```ts
 * const key = await createDelegatedKey(client, { accountId, cardId, nickname: "Card" });
 * ```
 */
export async function createDelegatedKey(
  client: SignetClient,
  parameters: CreateDelegatedKeyParameters,
): Promise<CreateDelegatedKeyReturnType> {
  return (await loadWalletActions()).createDelegatedKey(client, parameters);
}

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
  return (await loadWalletActions()).getDelegatedKey(client, parameters);
}

/**
 * Lists delegated keys by wallet and/or funding source (at least one), PENDING and REVOKED included.
 *
 * @throws {SignetError} `INVALID_ARGUMENT`, `RELAY_FORBIDDEN`, `NETWORK`.
 * @example
 * ```ts
 * const keys = await listDelegatedKeys(client, { accountId });
 * ```
 */
export async function listDelegatedKeys(
  client: SignetClient,
  parameters: ListDelegatedKeysParameters,
): Promise<ListDelegatedKeysReturnType> {
  return (await loadWalletActions()).listDelegatedKeys(client, parameters);
}

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
  return (await loadWalletActions()).revokeDelegatedKey(client, parameters);
}

/**
 * Adds an OTP or OAuth credential to the wallet, stamped by a held session of the account
 * (a signed request). For passkeys use `addPasskey`. An email or SMS credential takes the contact
 * the user confirmed (`email` / `phoneNumber`, as your app showed it): the service sends the codes
 * to the customer's contact on file, and the device signs only a payload that names exactly this
 * one (docs/protocol.md §11).
 *
 * @throws {SignetError} `NO_SESSION`, `PAYLOAD_MISMATCH` (the payload names another contact),
 *   `EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS`, `SMS_OTP_CREDENTIAL_ALREADY_EXISTS`, `INVALID_INPUT`.
 * @example
 * ```ts
 * await addCredential(client, { accountId, type: "SMS_OTP", phoneNumber: "+14155550123" });
 * await addCredential(client, { accountId, type: "OAUTH", oidcToken });
 * ```
 */
export async function addCredential(
  client: SignetClient,
  parameters: AddCredentialParameters,
): Promise<AddCredentialReturnType> {
  return (await loadWalletActions()).addCredential(client, parameters);
}

/**
 * Revokes a credential, stamped by a held session issued by a DIFFERENT credential of the account
 * (the service's rule). Sessions the revoked credential issued end; their keys are deleted here.
 * `type` is the credential's type as the user confirmed it (the entry of `listCredentials` they
 * chose): the device signs only the removal of that kind of credential, whatever the service's
 * answer says (docs/protocol.md §11).
 *
 * @throws {SignetError} `NO_SESSION` (no session from another credential), `PAYLOAD_MISMATCH`
 *   (the payload removes another kind of credential), `INVALID_INPUT` (last credential), `NOT_FOUND`.
 * @example
 * ```ts
 * await revokeCredential(client, { accountId, credentialId: oldPasskey.id, type: "PASSKEY" });
 * ```
 */
export async function revokeCredential(
  client: SignetClient,
  parameters: RevokeCredentialParameters,
): Promise<RevokeCredentialReturnType> {
  return (await loadWalletActions()).revokeCredential(client, parameters);
}

/**
 * Changes the customer's email or phone number (one per call), which moves the tied EMAIL_OTP or
 * SMS_OTP credential too; stamped by a held session of a tied wallet. All or nothing.
 *
 * @throws {SignetError} `EMAIL_OTP_EMAIL_ALREADY_EXISTS`, `EMAIL_OTP_CREDENTIAL_SET_CHANGED`,
 *   `EMAIL_OTP_CREDENTIAL_SYNC_FAILED`, `INVALID_INPUT`, `NO_SESSION`.
 * @example
 * ```ts
 * await updateCustomerContact(client, { customerId, accountId, email: "new@example.com" });
 * ```
 */
export async function updateCustomerContact(
  client: SignetClient,
  parameters: UpdateCustomerContactParameters,
): Promise<UpdateCustomerContactReturnType> {
  return (await loadWalletActions()).updateCustomerContact(client, parameters);
}

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
export async function exportWallet(
  client: SignetClient,
  parameters: ExportWalletParameters,
): Promise<ExportWalletReturnType> {
  return (await loadWalletActions()).exportWallet(client, parameters);
}

/**
 * Sends a verification code to the customer's email or phone (`POST
 * /customers/{id}/verify-email` or `/verify-phone`). Confirm with `confirmContactVerification`.
 *
 * @throws {SignetError} `CONFLICT` (409: already verified, or not required here), `RATE_LIMITED`, `NETWORK`.
 * @example
 * ```ts
 * await startContactVerification(client, { customerId, channel: "phone" });
 * ```
 */
export async function startContactVerification(
  client: SignetClient,
  parameters: StartContactVerificationParameters,
): Promise<StartContactVerificationReturnType> {
  return (await loadWalletActions()).startContactVerification(client, parameters);
}

/**
 * Confirms the code of a contact verification (`POST /customers/{id}/verify-email/confirm` or
 * `/verify-phone/confirm` `{ code }`).
 *
 * @throws {SignetError} `INVALID_INPUT` (400: a wrong or lapsed code), `CONFLICT`, `NETWORK`.
 * @example
 * ```ts
 * const customer = await confirmContactVerification(client, { customerId, channel: "phone", code });
 * ```
 */
export async function confirmContactVerification(
  client: SignetClient,
  parameters: ConfirmContactVerificationParameters,
): Promise<ConfirmContactVerificationReturnType> {
  return (await loadWalletActions()).confirmContactVerification(client, parameters);
}

/**
 * Lists the signed-in customer's transactions (`GET /transactions`), one page at a time.
 *
 * @throws {SignetError} `INVALID_ARGUMENT`, `RELAY_FORBIDDEN`, `NETWORK`.
 * @example
 * ```ts
 * let page = await listTransactions(client, { limit: 20 });
 * while (page.nextCursor) page = await listTransactions(client, { cursor: page.nextCursor });
 * ```
 */
export async function listTransactions(
  client: SignetClient,
  parameters: ListTransactionsParameters = {},
): Promise<ListTransactionsReturnType> {
  return (await loadWalletActions()).listTransactions(client, parameters);
}

/**
 * Turns the wallet's privacy on or off (`PATCH /internal-accounts/{id}` `{ privateEnabled }`): a
 * signed retry stamped by a held session of the wallet, after checking that the payload is the
 * raw-payload signature of this wallet (and, where its bytes are readable, of this setting).
 *
 * @throws {SignetError} `NO_SESSION`, `PAYLOAD_MISMATCH`, `WALLET_SIGNATURE_INVALID`, `NETWORK`.
 * @example
 * ```ts
 * const account = await updateWalletPrivacy(client, { accountId, privateEnabled: true });
 * ```
 */
export async function updateWalletPrivacy(
  client: SignetClient,
  parameters: UpdateWalletPrivacyParameters,
): Promise<UpdateWalletPrivacyReturnType> {
  return (await loadWalletActions()).updateWalletPrivacy(client, parameters);
}

/**
 * Lists the credentials of an Embedded Wallet (`GET /auth/credentials?accountId=`).
 *
 * @throws {SignetError} `RELAY_FORBIDDEN` (not the user's account), `NETWORK`, `MALFORMED_RESPONSE`.
 * @example
 * ```ts
 * const credentials = await listCredentials(client, { accountId });
 * const email = credentials.find((c) => c.type === "EMAIL_OTP");
 * ```
 */
export async function listCredentials(
  client: SignetClient,
  parameters: ListCredentialsParameters,
): Promise<ListCredentialsReturnType> {
  return (await loadWalletActions()).listCredentials(client, parameters);
}
