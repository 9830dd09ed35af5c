// docs/protocol.md §11: every `payloadToSign` the emulator issues, in the shapes the service's
// OpenAPI and its Global Accounts pages show (Turnkey-style activity JSON; the vendored corpus in
// packages/test/corpus), kept in this one module so a shape that turns out wrong is corrected in
// one place; packages/emulator/test/payloadCorpus.test.ts holds each against the corpus. Where the
// service shows no shape (delegated keys: its prose names the activities; removing an email or SMS
// credential; the quote's transaction bytes) the choice is this project's, written down in
// docs/protocol.md §11.
//
// The bytes keep the traps a client must survive: Go's JSON escapes (`<`, `>`, `&` as `\u003c`…)
// and a trailing newline (encodePayload), and the quote's key order, which is not alphabetical.
import { sha256Hex, toHex, utf8 } from "./crypto/index.js";
import type { RequestContext } from "./http/context.js";
import type { Runtime } from "./runtime.js";
import { encodePayload } from "./signedRetry.js";

/** The enclave's own id for something the service names otherwise (`user_…`, `wallet_…`). */
export function enclaveId(
  kind: "user" | "wallet" | "apikey" | "authenticator" | "provider",
  of: string,
) {
  return `${kind}_${sha256Hex(`${kind}|${of}`).slice(0, 24)}`;
}

/** `{ organizationId, parameters, timestampMs, type }`, the key order of the service's examples. */
function activity(rt: Runtime, now: number, type: string, parameters: object): string {
  return encodePayload({
    organizationId: rt.keys.organizationId,
    parameters,
    timestampMs: String(now),
    type: `ACTIVITY_TYPE_${type}`,
  });
}

/** Refresh: a read-write session for the key the client sent, exactly as sent. */
export function refreshSessionPayload(ctx: RequestContext, clientPublicKey: string): string {
  return activity(ctx.rt, ctx.now(), "CREATE_READ_WRITE_SESSION_V2", {
    targetPublicKey: clientPublicKey,
  });
}

/** Session revoke: the enclave's API key of that session. */
export function revokeSessionPayload(
  ctx: RequestContext,
  session: { id: string; accountId: string },
): string {
  return activity(ctx.rt, ctx.now(), "DELETE_API_KEYS", {
    apiKeyIds: [enclaveId("apikey", session.id)],
    userId: enclaveId("user", session.accountId),
  });
}

/** Export: the wallet, sealed to the client's uncompressed key. */
export function exportWalletPayload(
  ctx: RequestContext,
  accountId: string,
  clientPublicKey: string,
): string {
  return activity(ctx.rt, ctx.now(), "EXPORT_WALLET", {
    targetPublicKey: clientPublicKey,
    walletId: enclaveId("wallet", accountId),
  });
}

/** A contact change (customer update, or an email / SMS credential add): the new contact. */
export function contactPayload(
  ctx: RequestContext,
  accountId: string,
  contact: { email: string } | { phoneNumber: string },
): string {
  const userId = enclaveId("user", accountId);
  return "email" in contact
    ? activity(ctx.rt, ctx.now(), "UPDATE_USER_EMAIL", { userEmail: contact.email, userId })
    : activity(ctx.rt, ctx.now(), "UPDATE_USER_PHONE_NUMBER", {
        userId,
        userPhoneNumber: contact.phoneNumber,
      });
}

/** An OAuth credential add: the provider with the token the client sent. */
export function addOAuthPayload(
  ctx: RequestContext,
  accountId: string,
  oidcToken: string,
  issuer: string,
): string {
  const providerName = /apple/.test(issuer) ? "Apple" : "Google";
  return activity(ctx.rt, ctx.now(), "CREATE_OAUTH_PROVIDERS", {
    oauthProviders: [{ oidcToken, providerName }],
    userId: enclaveId("user", accountId),
  });
}

/** A passkey add: the authenticator with the attestation the client sent. */
export function addPasskeyPayload(
  ctx: RequestContext,
  accountId: string,
  passkey: {
    nickname: string;
    challenge: string;
    attestation: { credentialId: string; clientDataJson: string; attestationObject: string };
    transports?: readonly string[] | undefined;
  },
): string {
  const { attestation } = passkey;
  return activity(ctx.rt, ctx.now(), "CREATE_AUTHENTICATORS_V2", {
    authenticators: [
      {
        attestation: {
          attestationObject: attestation.attestationObject,
          clientDataJson: attestation.clientDataJson,
          credentialId: attestation.credentialId,
        },
        authenticatorName: passkey.nickname,
        challenge: passkey.challenge,
        ...(passkey.transports?.length ? { transports: passkey.transports } : {}),
      },
    ],
    userId: enclaveId("user", accountId),
  });
}

/**
 * A credential revoke. Passkeys and OAuth providers are deleted by their enclave ids; an email or
 * SMS credential is removed by clearing the contact it used (this project's decision).
 */
export function revokeCredentialPayload(
  ctx: RequestContext,
  credential: { id: string; accountId: string; type: string },
): string {
  const userId = enclaveId("user", credential.accountId);
  switch (credential.type) {
    case "PASSKEY":
      return activity(ctx.rt, ctx.now(), "DELETE_AUTHENTICATORS", {
        authenticatorIds: [enclaveId("authenticator", credential.id)],
        userId,
      });
    case "OAUTH":
      return activity(ctx.rt, ctx.now(), "DELETE_OAUTH_PROVIDERS", {
        providerIds: [enclaveId("provider", credential.id)],
        userId,
      });
    case "EMAIL_OTP":
      return activity(ctx.rt, ctx.now(), "UPDATE_USER_EMAIL", { userEmail: "", userId });
    default:
      return activity(ctx.rt, ctx.now(), "UPDATE_USER_PHONE_NUMBER", {
        userId,
        userPhoneNumber: "",
      });
  }
}

/**
 * Delegated keys, in the two activities the service's prose names ("creates an isolated signer
 * identity holding the public key, then policies granting that identity signing and
 * self-revocation authority"), written in Turnkey's vocabulary since the service shows no
 * payload: first the signer identity (one user, holding the key as its one API key, nothing to
 * sign in with), then the policies whose consensus names that identity. Where the card and the
 * account appear (the identity's name, the policies' notes) is this project's decision
 * (docs/protocol.md §11): a device binds them wherever a payload names them.
 */
export function delegatedKeyPayload(
  ctx: RequestContext,
  step: 1 | 2,
  request: { accountId: string; cardId: string; nickname: string; publicKey: string },
): string {
  if (step === 1) {
    return activity(ctx.rt, ctx.now(), "CREATE_USERS_V3", {
      users: [
        {
          apiKeys: [
            {
              apiKeyName: request.nickname,
              curveType: "API_KEY_CURVE_P256",
              publicKey: request.publicKey,
            },
          ],
          authenticators: [],
          oauthProviders: [],
          userName: `Delegated key of ${request.cardId}`,
          userTags: [],
        },
      ],
    });
  }
  const signer = enclaveId("user", `delegated|${request.publicKey}`);
  const consensus = `approvers.any(user, user.id == '${signer}')`;
  const notes = `${request.nickname}: ${request.cardId} funded by ${request.accountId}`;
  return activity(ctx.rt, ctx.now(), "CREATE_POLICIES", {
    policies: [
      {
        condition: `activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && wallet.id == '${enclaveId("wallet", request.accountId)}'`,
        consensus,
        effect: "EFFECT_ALLOW",
        notes,
        policyName: `${request.nickname}: signing`,
      },
      {
        condition: `activity.type == 'ACTIVITY_TYPE_DELETE_USERS' && activity.params.user_ids.all(id, id == '${signer}')`,
        consensus,
        effect: "EFFECT_ALLOW",
        notes,
        policyName: `${request.nickname}: self-revocation`,
      },
    ],
  });
}

/**
 * A quote's payload: the transaction signature in the shape of the service's Quote example (`type`
 * first, `generateAppProofs` last). The service's `unsignedTransaction` is chain bytes a device
 * cannot read; the emulator's is the hex of UTF-8 JSON naming the transfer, so that a client that
 * checks what it can read is tested on it (docs/protocol.md §11).
 */
export function quotePayload(
  rt: Runtime,
  now: number,
  quote: {
    id: string;
    sourceAccountId: string;
    destination: string;
    amount: number;
    currency: string;
  },
): string {
  const transfer = JSON.stringify({
    quoteId: quote.id,
    from: quote.sourceAccountId,
    destination: quote.destination,
    amount: String(quote.amount),
    currency: quote.currency,
  });
  return encodePayload({
    type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
    timestampMs: String(now),
    organizationId: rt.keys.organizationId,
    parameters: {
      signWith: enclaveId("wallet", quote.sourceAccountId),
      unsignedTransaction: toHex(utf8(transfer)),
      type: "TRANSACTION_TYPE_SPARK",
    },
    generateAppProofs: true,
  });
}

/**
 * Wallet privacy (`PATCH /internal-accounts/{id}`), in the shape of the service's example: a raw
 * payload signed with the wallet (`signWith`, its address), no hashing. The service does not say
 * what `payload` holds; the emulator's is the hex of the UTF-8 JSON
 * `{"internalAccountId":…,"privateEnabled":…}` so a device can read what it signs
 * (docs/protocol.md §11, §13).
 */
export function walletPrivacyPayload(
  ctx: RequestContext,
  account: { id: string; address: string },
  privateEnabled: boolean,
): string {
  return activity(ctx.rt, ctx.now(), "SIGN_RAW_PAYLOAD_V2", {
    encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
    hashFunction: "HASH_FUNCTION_NO_OP",
    payload: toHex(utf8(JSON.stringify({ internalAccountId: account.id, privateEnabled }))),
    signWith: account.address,
  });
}
