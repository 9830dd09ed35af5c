// docs/protocol.md §11: each operation's check against a table of good and swapped payloads, in the
// shapes of the service's 202 examples (written by hand in packages/test/src/payloads.ts), and the
// engine's promise that no payload reaches `sign` unchecked.
import { createECDH } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { activityPayload } from "../../../test/src/payloads.js";
import { challengeJson, fakeClock, scriptedFetch } from "../../../test/src/scriptedFetch.js";
import { addCredentialPayload } from "../actions/addCredential.js";
import { addPasskeyPayload } from "../actions/addPasskey.js";
import { createDelegatedKeyPayload } from "../actions/createDelegatedKey.js";
import { exportWalletPayload } from "../actions/exportWallet.js";
import { revokeCredentialPayload } from "../actions/revokeCredential.js";
import { revokeSessionPayload } from "../actions/revokeSession.js";
import { refreshSessionPayload } from "../actions/settleSessions.js";
import { updateCustomerContactPayload } from "../actions/updateCustomerContact.js";
import { updateWalletPrivacyPayload } from "../actions/updateWalletPrivacy.js";
import type { SignetClient } from "../client.js";
import { isSignetError, type SignetError } from "../errors/errors.js";
import { executeQuotePayload } from "../payloads/executeQuotePayload.js";
import { readQuotePayload } from "../payloads/quotePayload.js";
import { createTransport } from "./http.js";
import {
  type CheckPayload,
  expectVerificationToken,
  type PayloadCheckContext,
  type PayloadEvent,
} from "./payloadCheck.js";
import type { RetryEvent } from "./retry.js";
import { runSignedRequest, type SignedRequestEvent } from "./signedRequest.js";

const NOW = Date.parse("2026-11-24T12:00:00Z");
const ACCOUNT = "InternalAccount:11111111-1111-4111-8111-111111111111";
const CARD = "Card:22222222-2222-4222-8222-222222222222";
const OTHER_CARD = "Card:33333333-3333-4333-8333-333333333333";
const KEY = "02f45f2a22c908b9ce09a7150e514afd24627c401c38a4afc164e1ea783adaaa31";
const OTHER_KEY = "03a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
const UNCOMPRESSED = `04${"ab".repeat(64)}`;
const OTHER_UNCOMPRESSED = `04${"cd".repeat(64)}`;
/** One point in both encodings, and the point of the same x with the other y. */
const POINT = (() => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const compressed = ecdh.getPublicKey("hex", "compressed");
  return {
    compressed,
    uncompressed: ecdh.getPublicKey("hex", "uncompressed"),
    otherParity: `${compressed.startsWith("02") ? "03" : "02"}${compressed.slice(2)}`,
  };
})();

/** A fresh owner of pins per case: a client the checks have not seen before. */
const owner = () => ({}) as SignetClient;
const context = (overrides: Partial<PayloadCheckContext> = {}): PayloadCheckContext => ({
  operation: "test",
  signature: 1,
  expiresAtMs: NOW + 300_000,
  now: NOW,
  ...overrides,
});
const activity = (type: string, parameters: Record<string, unknown>, timestampMs = NOW) =>
  activityPayload(`ACTIVITY_TYPE_${type}`, parameters, { timestampMs });

/** The field a check refuses, or "signed" when it passes. */
async function verdict(check: CheckPayload, payload: string, at = context()): Promise<string> {
  try {
    const result = await check(payload, at);
    return result.known ? "signed" : "unknown";
  } catch (error) {
    if (isSignetError(error, "PAYLOAD_MISMATCH")) return String(error.details?.field);
    throw error;
  }
}

const refresh = () => refreshSessionPayload(owner(), { accountId: ACCOUNT, clientPublicKey: KEY });
const exportCheck = () =>
  exportWalletPayload(owner(), { accountId: ACCOUNT, clientPublicKey: UNCOMPRESSED });
const email = () =>
  updateCustomerContactPayload(owner(), { accountId: ACCOUNT, email: "ada@example.com" });

describe("each operation's check, good and swapped payloads", () => {
  const attestation = {
    credentialId: "cred-A",
    clientDataJson: "cdj-A",
    attestationObject: "ao-A",
  };
  const passkeyPayload = (a: typeof attestation, extra: object[] = []) =>
    activity("CREATE_AUTHENTICATORS_V2", {
      authenticators: [{ attestation: a, authenticatorName: "Phone", challenge: "c" }, ...extra],
      userId: "user_1",
    });
  const cases: [name: string, check: () => CheckPayload, payload: string, expected: string][] = [
    // refresh
    [
      "refresh, the key sent",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: KEY }),
      "signed",
    ],
    [
      "refresh, the key in upper case",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: KEY.toUpperCase() }),
      "signed",
    ],
    [
      "refresh, another key",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: OTHER_KEY }),
      "parameters.targetPublicKey",
    ],
    [
      "refresh, no key",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", {}),
      "parameters.targetPublicKey",
    ],
    [
      "refresh, an export instead",
      refresh,
      activity("EXPORT_WALLET", { targetPublicKey: KEY }),
      "type",
    ],
    // The documents relate `timestampMs` to nothing (their own examples are hours and a year off
    // their challenges' expiresAt): it is not judged.
    [
      "refresh, a payload stamped an hour ago",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: KEY }, NOW - 3_600_000),
      "signed",
    ],
    [
      "refresh, a payload stamped a year before",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: KEY }, NOW - 365 * 86_400_000),
      "signed",
    ],
    [
      "refresh, the key in its uncompressed encoding",
      () =>
        refreshSessionPayload(owner(), { accountId: ACCOUNT, clientPublicKey: POINT.compressed }),
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: POINT.uncompressed }),
      "signed",
    ],
    [
      "refresh, another point with the same x",
      () =>
        refreshSessionPayload(owner(), { accountId: ACCOUNT, clientPublicKey: POINT.compressed }),
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: POINT.otherParity }),
      "parameters.targetPublicKey",
    ],
    ["refresh, a verification token", refresh, "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", "type"],
    [
      "refresh, an unknown activity",
      refresh,
      activity("SOMETHING_NEW_V9", { targetPublicKey: KEY }),
      "unknown",
    ],
    ["refresh, not JSON", refresh, "sign me", "unknown"],
    // export
    [
      "export, the key sent",
      exportCheck,
      activity("EXPORT_WALLET", { targetPublicKey: UNCOMPRESSED, walletId: "wallet_1" }),
      "signed",
    ],
    [
      "export, the backend's key",
      exportCheck,
      activity("EXPORT_WALLET", { targetPublicKey: OTHER_UNCOMPRESSED, walletId: "wallet_1" }),
      "parameters.targetPublicKey",
    ],
    [
      "export, a session for the key",
      exportCheck,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: UNCOMPRESSED }),
      "type",
    ],
    // contact
    [
      "email, as passed",
      email,
      activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com", userId: "user_1" }),
      "signed",
    ],
    [
      "email, another address",
      email,
      activity("UPDATE_USER_EMAIL", { userEmail: "thief@example.net", userId: "user_1" }),
      "parameters.userEmail",
    ],
    [
      "email, lower-cased or capitalised by the service",
      email,
      activity("UPDATE_USER_EMAIL", { userEmail: "ADA@Example.com", userId: "user_1" }),
      "signed",
    ],
    [
      "email, a phone change instead",
      email,
      activity("UPDATE_USER_PHONE_NUMBER", { userPhoneNumber: "+14155550123", userId: "user_1" }),
      "type",
    ],
    [
      "phone, as passed",
      () =>
        updateCustomerContactPayload(owner(), { accountId: ACCOUNT, phoneNumber: "+14155550123" }),
      activity("UPDATE_USER_PHONE_NUMBER", { userId: "user_1", userPhoneNumber: "+14155550123" }),
      "signed",
    ],
    [
      "phone, written with separators",
      () =>
        updateCustomerContactPayload(owner(), { accountId: ACCOUNT, phoneNumber: "+14155550123" }),
      activity("UPDATE_USER_PHONE_NUMBER", {
        userId: "user_1",
        userPhoneNumber: "+1 415-555-0123",
      }),
      "signed",
    ],
    [
      "phone, another number",
      () =>
        updateCustomerContactPayload(owner(), { accountId: ACCOUNT, phoneNumber: "+14155550123" }),
      activity("UPDATE_USER_PHONE_NUMBER", { userId: "user_1", userPhoneNumber: "+14155550999" }),
      "parameters.userPhoneNumber",
    ],
    // credentials
    [
      "oauth add, the token passed",
      () =>
        addCredentialPayload(owner(), { accountId: ACCOUNT, type: "OAUTH", oidcToken: "token-A" }),
      activity("CREATE_OAUTH_PROVIDERS", {
        oauthProviders: [{ oidcToken: "token-A", providerName: "Google" }],
        userId: "user_1",
      }),
      "signed",
    ],
    [
      "oauth add, another token",
      () =>
        addCredentialPayload(owner(), { accountId: ACCOUNT, type: "OAUTH", oidcToken: "token-A" }),
      activity("CREATE_OAUTH_PROVIDERS", {
        oauthProviders: [{ oidcToken: "token-B", providerName: "Google" }],
        userId: "user_1",
      }),
      "parameters.oauthProviders.0.oidcToken",
    ],
    [
      "oauth add, a second provider",
      () =>
        addCredentialPayload(owner(), { accountId: ACCOUNT, type: "OAUTH", oidcToken: "token-A" }),
      activity("CREATE_OAUTH_PROVIDERS", {
        oauthProviders: [{ oidcToken: "token-A" }, { oidcToken: "token-B" }],
        userId: "user_1",
      }),
      "parameters.oauthProviders",
    ],
    [
      "email credential add, the email confirmed",
      () =>
        addCredentialPayload(owner(), {
          accountId: ACCOUNT,
          type: "EMAIL_OTP",
          email: "ada@example.com",
        }),
      activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com", userId: "user_1" }),
      "signed",
    ],
    [
      "email credential add, the backend's email",
      () =>
        addCredentialPayload(owner(), {
          accountId: ACCOUNT,
          type: "EMAIL_OTP",
          email: "ada@example.com",
        }),
      activity("UPDATE_USER_EMAIL", { userEmail: "thief@example.net", userId: "user_1" }),
      "parameters.userEmail",
    ],
    [
      "sms credential add, the phone confirmed",
      () =>
        addCredentialPayload(owner(), {
          accountId: ACCOUNT,
          type: "SMS_OTP",
          phoneNumber: "+14155550123",
        }),
      activity("UPDATE_USER_PHONE_NUMBER", { userId: "user_1", userPhoneNumber: "+14155550123" }),
      "signed",
    ],
    [
      "sms credential add, the backend's phone",
      () =>
        addCredentialPayload(owner(), {
          accountId: ACCOUNT,
          type: "SMS_OTP",
          phoneNumber: "+14155550123",
        }),
      activity("UPDATE_USER_PHONE_NUMBER", { userId: "user_1", userPhoneNumber: "+14155550999" }),
      "parameters.userPhoneNumber",
    ],
    [
      "sms credential add, an email change instead",
      () =>
        addCredentialPayload(owner(), {
          accountId: ACCOUNT,
          type: "SMS_OTP",
          phoneNumber: "+14155550123",
        }),
      activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com", userId: "user_1" }),
      "type",
    ],
    [
      "passkey add, the attestation made",
      () => addPasskeyPayload(owner(), { accountId: ACCOUNT, ...attestation }),
      passkeyPayload(attestation),
      "signed",
    ],
    [
      "passkey add, another authenticator",
      () => addPasskeyPayload(owner(), { accountId: ACCOUNT, ...attestation }),
      passkeyPayload({ ...attestation, attestationObject: "ao-B" }),
      "parameters.authenticators.0.attestation.attestationObject",
    ],
    [
      "passkey add, the name and challenge sent",
      () =>
        addPasskeyPayload(owner(), {
          accountId: ACCOUNT,
          nickname: "Phone",
          challenge: "c",
          ...attestation,
        }),
      passkeyPayload(attestation),
      "signed",
    ],
    [
      "passkey add, another name than the one sent",
      () =>
        addPasskeyPayload(owner(), {
          accountId: ACCOUNT,
          nickname: "Tablet",
          challenge: "c",
          ...attestation,
        }),
      passkeyPayload(attestation),
      "parameters.authenticators.0.authenticatorName",
    ],
    [
      "passkey add, a second authenticator",
      () => addPasskeyPayload(owner(), { accountId: ACCOUNT, ...attestation }),
      passkeyPayload(attestation, [{ attestation: { credentialId: "cred-B" } }]),
      "parameters.authenticators",
    ],
    [
      "passkey revoke",
      () => revokeCredentialPayload(owner(), { accountId: ACCOUNT, type: "PASSKEY" }),
      activity("DELETE_AUTHENTICATORS", { authenticatorIds: ["a1"], userId: "user_1" }),
      "signed",
    ],
    [
      "passkey revoke, two at once",
      () => revokeCredentialPayload(owner(), { accountId: ACCOUNT, type: "PASSKEY" }),
      activity("DELETE_AUTHENTICATORS", { authenticatorIds: ["a1", "a2"], userId: "user_1" }),
      "parameters.authenticatorIds",
    ],
    // sessions
    [
      "session revoke",
      () => revokeSessionPayload(owner(), { accountId: ACCOUNT }),
      activity("DELETE_API_KEYS", { apiKeyIds: ["k1"], userId: "user_1" }),
      "signed",
    ],
    [
      "session revoke, every key",
      () => revokeSessionPayload(owner(), { accountId: ACCOUNT }),
      activity("DELETE_API_KEYS", { apiKeyIds: ["k1", "k2", "k3"], userId: "user_1" }),
      "parameters.apiKeyIds",
    ],
    [
      "session revoke, an export instead",
      () => revokeSessionPayload(owner(), { accountId: ACCOUNT }),
      activity("EXPORT_WALLET", { targetPublicKey: OTHER_UNCOMPRESSED }),
      "type",
    ],
  ];
  it.each(cases)("%s", async (_name, check, payload, expected) => {
    expect(await verdict(check(), payload)).toBe(expected);
  });

  it("a credential revoke is read by the type the device's call names, never the challenge's", async () => {
    const check = (type: "PASSKEY" | "OAUTH" | "EMAIL_OTP" | "SMS_OTP") =>
      revokeCredentialPayload(owner(), { accountId: ACCOUNT, type });
    const clearEmail = activity("UPDATE_USER_EMAIL", { userEmail: "", userId: "user_1" });
    const clearPhone = activity("UPDATE_USER_PHONE_NUMBER", {
      userId: "user_1",
      userPhoneNumber: "",
    });
    const setEmail = activity("UPDATE_USER_EMAIL", {
      userEmail: "thief@example.net",
      userId: "user_1",
    });
    const dropProvider = activity("DELETE_OAUTH_PROVIDERS", {
      providerIds: ["p1"],
      userId: "user_1",
    });
    expect(await verdict(check("EMAIL_OTP"), clearEmail)).toBe("signed");
    expect(await verdict(check("EMAIL_OTP"), setEmail)).toBe("parameters.userEmail");
    // Turnkey's general user update, where it clears the contact, is a removal too.
    expect(
      await verdict(
        check("SMS_OTP"),
        activity("UPDATE_USER", { userId: "user_1", userPhoneNumber: "" }),
      ),
    ).toBe("signed");
    expect(
      await verdict(
        check("SMS_OTP"),
        activity("UPDATE_USER", {
          userEmail: "thief@example.net",
          userId: "user_1",
          userPhoneNumber: "",
        }),
      ),
    ).toBe("parameters.userEmail");
    // A general user update removes the contact of the kind asked for, and never the other one:
    // asked to remove the SMS credential, the device never clears the email (nor the reverse).
    expect(
      await verdict(check("SMS_OTP"), activity("UPDATE_USER", { userEmail: "", userId: "user_1" })),
    ).toBe("parameters.userPhoneNumber");
    expect(
      await verdict(
        check("EMAIL_OTP"),
        activity("UPDATE_USER", { userId: "user_1", userPhoneNumber: "" }),
      ),
    ).toBe("parameters.userEmail");
    expect(
      await verdict(
        check("EMAIL_OTP"),
        activity("UPDATE_USER", { userEmail: "", userId: "user_1", userPhoneNumber: "" }),
      ),
    ).toBe("parameters.userPhoneNumber");
    // An unset field written as null is left alone; null where the kind's contact is, clears it.
    expect(
      await verdict(
        check("EMAIL_OTP"),
        activity("UPDATE_USER", { userEmail: null, userId: "user_1", userPhoneNumber: null }),
      ),
    ).toBe("signed");
    expect(await verdict(check("OAUTH"), dropProvider)).toBe("signed");
    // Asked to remove an OAuth login, the device never clears the user's phone, whatever the
    // challenge says the credential is.
    expect(await verdict(check("OAUTH"), clearPhone)).toBe("type");
    expect(await verdict(check("OAUTH"), clearPhone, context({ type: "SMS_OTP" }))).toBe("type");
    expect(await verdict(check("OAUTH"), dropProvider, context({ type: "SMS_OTP" }))).toBe("type");
    expect(await verdict(check("OAUTH"), dropProvider, context({ type: "OAUTH" }))).toBe("signed");
    expect(await verdict(check("PASSKEY"), clearEmail)).toBe("type");
  });

  it("pins the organization and the enclave user of an account once seen", async () => {
    const client = owner();
    const check = () => revokeSessionPayload(client, { accountId: ACCOUNT });
    const revoke = (organizationId: string, userId: string) =>
      activityPayload(
        "ACTIVITY_TYPE_DELETE_API_KEYS",
        { apiKeyIds: ["k1"], userId },
        { organizationId, timestampMs: NOW },
      );
    // A refused payload pins nothing.
    expect(await verdict(check(), activity("EXPORT_WALLET", { targetPublicKey: KEY }))).toBe(
      "type",
    );
    expect(await verdict(check(), revoke("org_A", "user_A"))).toBe("signed");
    expect(await verdict(check(), revoke("org_B", "user_A"))).toBe("organizationId");
    expect(await verdict(check(), revoke("org_A", "user_B"))).toBe("parameters.userId");
    // Another account of the same client has its own pins.
    expect(
      await verdict(
        revokeSessionPayload(client, { accountId: "InternalAccount:other" }),
        revoke("org_B", "user_B"),
      ),
    ).toBe("signed");
  });

  it("pins each identifier kind on its own: export's walletId, a transfer's and a privacy change's signWith", async () => {
    const client = owner();
    const quote = {
      id: "Quote:1",
      status: "PENDING",
      expiresAt: new Date(NOW + 60_000).toISOString(),
      source: { accountId: ACCOUNT },
    };
    const exporting = (walletId: string) =>
      verdict(
        exportWalletPayload(client, { accountId: ACCOUNT, clientPublicKey: KEY }),
        activityPayload(
          "ACTIVITY_TYPE_EXPORT_WALLET",
          { targetPublicKey: KEY, walletId },
          { organizationId: "org_A", timestampMs: NOW },
        ),
      );
    const transfer = (signWith: string) =>
      verdict(
        executeQuotePayload(client, quote),
        activityPayload(
          "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
          { signWith, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: "ea69b4bf" },
          { organizationId: "org_A", timestampMs: NOW },
        ),
        context({ expiresAtMs: undefined }),
      );
    const privacy = (signWith: string) =>
      verdict(
        updateWalletPrivacyPayload(client, { accountId: ACCOUNT, privateEnabled: true }),
        activityPayload(
          "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
          {
            encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
            hashFunction: "HASH_FUNCTION_NO_OP",
            payload: "9f3b",
            signWith,
          },
          { organizationId: "org_A", timestampMs: NOW },
        ),
      );
    // The documents' own values: a wallet id to export, a `wallet_…` to sign a transfer with, a
    // Spark address to sign a privacy change with. None stands for another.
    expect(await exporting("wallet_2m9F")).toBe("signed");
    expect(await transfer("wallet_abc123def456")).toBe("signed");
    expect(await privacy("sp1qexample")).toBe("signed");
    // In any order, and again.
    expect(await exporting("wallet_2m9F")).toBe("signed");
    expect(await privacy("sp1qexample")).toBe("signed");
    expect(await transfer("wallet_abc123def456")).toBe("signed");
    // Within a kind, the first value seen is the only one.
    expect(await exporting("wallet_other")).toBe("parameters.walletId");
    expect(await transfer("wallet_other")).toBe("parameters.signWith");
    expect(await privacy("sp1qother")).toBe("parameters.signWith");
  });

  it("delegated keys: one isolated signer identity holding one key, then policies naming no other key", async () => {
    const request = { accountId: ACCOUNT, cardId: CARD, nickname: "Card key" };
    const identity = (user: Record<string, unknown> = {}, apiKey: Record<string, unknown> = {}) =>
      activity("CREATE_USERS_V3", {
        users: [
          {
            apiKeys: [
              {
                apiKeyName: "Card key",
                curveType: "API_KEY_CURVE_P256",
                publicKey: KEY,
                ...apiKey,
              },
            ],
            authenticators: [],
            oauthProviders: [],
            userName: `Delegated key of ${CARD}`,
            userTags: [],
            ...user,
          },
        ],
      });
    const policies = (consensus: string, notes = "signing") =>
      activity("CREATE_POLICIES", {
        policies: [
          {
            condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
            consensus,
            effect: "EFFECT_ALLOW",
            notes,
            policyName: "Card key: signing",
          },
        ],
      });
    const byUser = "approvers.any(user, user.id == 'user_9f3b')";
    const run = async (first: string, second?: string) => {
      const check = createDelegatedKeyPayload(owner(), request);
      const one = await verdict(check, first, context({ signature: 1 }));
      if (one !== "signed" || second === undefined) return [one, check.delegatedPublicKey()];
      const two = await verdict(check, second, context({ signature: 2 }));
      return [one, two, check.delegatedPublicKey()];
    };
    expect(await run(identity(), policies(byUser))).toEqual(["signed", "signed", KEY]);
    // The key in upper case is the same key.
    expect(await run(identity({}, { publicKey: KEY.toUpperCase() }), policies(byUser))).toEqual([
      "signed",
      "signed",
      KEY,
    ]);
    // Turnkey's older form of the same activity.
    expect(await run(identity().replace("CREATE_USERS_V3", "CREATE_USERS_V2"))).toEqual([
      "signed",
      KEY,
    ]);
    // The card named is the caller's, wherever it is named.
    expect(await run(identity({ userName: `Delegated key of ${OTHER_CARD}` }))).toEqual([
      "parameters.users.0.userName",
      undefined,
    ]);
    expect(await run(identity(), policies(byUser, `for ${OTHER_CARD}`))).toEqual([
      "signed",
      "parameters.policies.0.notes",
      KEY,
    ]);
    // An identity that could sign in, or holds another kind of key, or two keys, or two identities.
    expect(await run(identity({ userEmail: "thief@example.net" }))).toEqual([
      "parameters.users.0.userEmail",
      undefined,
    ]);
    expect(await run(identity({ authenticators: [{ authenticatorName: "x" }] }))).toEqual([
      "parameters.users.0.authenticators",
      undefined,
    ]);
    expect(await run(identity({}, { curveType: "API_KEY_CURVE_SECP256K1" }))).toEqual([
      "parameters.users.0.apiKeys.0.curveType",
      undefined,
    ]);
    expect(await run(identity({}, { publicKey: UNCOMPRESSED }))).toEqual([
      "parameters.users.0.apiKeys.0.publicKey",
      undefined,
    ]);
    expect(
      await run(
        activity("CREATE_USERS_V3", {
          users: [
            { apiKeys: [{ publicKey: KEY }], userName: "a" },
            { apiKeys: [{ publicKey: OTHER_KEY }], userName: "b" },
          ],
        }),
      ),
    ).toEqual(["parameters.users", undefined]);
    // Policies that name another key than the identity's.
    expect(
      await run(identity(), policies(`credentials.any(c, c.public_key == '${OTHER_KEY}')`)),
    ).toEqual(["signed", "parameters.policies.0.consensus", KEY]);
    // The emulator's invented order (a policy first, then an API key) is no longer this operation.
    expect(
      await run(activity("CREATE_POLICY_V3", { policyName: "x", effect: "EFFECT_ALLOW" })),
    ).toEqual(["type", undefined]);
    expect(
      await run(
        identity(),
        activity("CREATE_API_KEYS_V2", { apiKeys: [{ publicKey: KEY }], userId: "user_1" }),
      ),
    ).toEqual(["signed", "type", KEY]);
    // A third payload is one more than the operation signs.
    const check = createDelegatedKeyPayload(owner(), request);
    expect(await verdict(check, policies(byUser), context({ signature: 3 }))).toBe("type");
  });

  it("OTP verify: a live verification token, never an activity", async () => {
    const jwt = (header: object, claims: object) =>
      [header, claims]
        .map((part) => Buffer.from(JSON.stringify(part)).toString("base64url"))
        .concat("c2lnbmF0dXJl")
        .join(".");
    const check = expectVerificationToken([UNCOMPRESSED, KEY]);
    const exp = Math.floor(NOW / 1000) + 300;
    expect(await verdict(check, jwt({ alg: "ES256" }, { sub: "x", exp }))).toBe("signed");
    expect(await verdict(check, jwt({ alg: "ES256" }, { public_key: UNCOMPRESSED, exp }))).toBe(
      "signed",
    );
    expect(
      await verdict(check, jwt({ alg: "ES256" }, { public_key: OTHER_UNCOMPRESSED, exp })),
    ).toBe("token.public_key");
    expect(await verdict(check, jwt({ alg: "none" }, { exp }))).toBe("token");
    expect(await verdict(check, jwt({ alg: "ES256" }, { exp: exp - 3_600 }))).toBe("token.exp");
    expect(await verdict(check, activity("EXPORT_WALLET", { targetPublicKey: KEY }))).toBe("type");
    expect(await verdict(check, "not a token")).toBe("unknown");
  });
});

describe("quote execute: the quote passed, while it lives", () => {
  const quote = {
    id: "Quote:aaaaaaaa-0000-4000-8000-000000000001",
    status: "PENDING",
    createdAt: new Date(NOW - 10_000).toISOString(),
    expiresAt: new Date(NOW + 120_000).toISOString(),
    source: { sourceType: "ACCOUNT", accountId: ACCOUNT },
    destination: { destinationType: "ACCOUNT", accountId: "ExternalAccount:1" },
    sendingCurrency: { code: "USDB", decimals: 6 },
    totalSendingAmount: 100_000,
  };
  const transfer = (fields: Record<string, unknown>) =>
    Buffer.from(
      JSON.stringify({
        quoteId: quote.id,
        from: ACCOUNT,
        destination: "ExternalAccount:1",
        amount: "100000",
        currency: "USDB",
        ...fields,
      }),
    ).toString("hex");
  const payload = (unsignedTransaction: string, timestampMs = NOW - 10_000) =>
    `${JSON.stringify({
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      timestampMs: String(timestampMs),
      organizationId: "org_1",
      parameters: { signWith: "wallet_1", unsignedTransaction, type: "TRANSACTION_TYPE_SPARK" },
      generateAppProofs: true,
    })}\n`;
  const direct = context({ expiresAtMs: undefined });
  it.each([
    ["the quote as shown", transfer({}), "signed"],
    [
      "an opaque transaction (the service's chain bytes)",
      "ea69b4bf05f775209f26ff0a34a05569180f7936579d5c4af9377ae550194f72",
      "signed",
    ],
    [
      "another quote",
      transfer({ quoteId: "Quote:other" }),
      "parameters.unsignedTransaction.quoteId",
    ],
    [
      "30 times the amount",
      transfer({ amount: "3000000" }),
      "parameters.unsignedTransaction.amount",
    ],
    ["another currency", transfer({ currency: "USD" }), "parameters.unsignedTransaction.currency"],
    [
      "another destination",
      transfer({ destination: "ExternalAccount:thief" }),
      "parameters.unsignedTransaction.destination",
    ],
  ])("%s", async (_name, unsignedTransaction, expected) => {
    expect(
      await verdict(executeQuotePayload(owner(), quote), payload(unsignedTransaction), direct),
    ).toBe(expected);
  });

  it("the amount is the quote's whether the transaction writes it as a number or a string", async () => {
    expect(
      await verdict(
        executeQuotePayload(owner(), quote),
        payload(transfer({ amount: 100_000 })),
        direct,
      ),
    ).toBe("signed");
    expect(
      await verdict(
        executeQuotePayload(owner(), quote),
        payload(transfer({ amount: 100 })),
        direct,
      ),
    ).toBe("parameters.unsignedTransaction.amount");
  });

  it("only a transfer of this quote is one: never a privacy change, never another quote's", async () => {
    const privacy = (bytes: string) =>
      `${JSON.stringify({
        organizationId: "org_1",
        parameters: {
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
          payload: bytes,
          signWith: "wallet_1",
        },
        timestampMs: String(NOW),
        type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      })}\n`;
    const readablePrivacy = Buffer.from(
      JSON.stringify({ internalAccountId: ACCOUNT, privateEnabled: true }),
    ).toString("hex");
    // A raw-payload signature, the documented shape of a privacy change, is never a transfer.
    expect(await verdict(executeQuotePayload(owner(), quote), privacy("9f3b"), direct)).toBe(
      "type",
    );
    // A readable transaction that names no quote is not this quote's.
    expect(
      await verdict(executeQuotePayload(owner(), quote), payload(readablePrivacy), direct),
    ).toBe("parameters.unsignedTransaction.quoteId");
    // Nor is a privacy change a transfer: the transfer's type is refused, and a readable raw
    // payload must name the account and the setting.
    const privacyCheck = () =>
      updateWalletPrivacyPayload(owner(), { accountId: ACCOUNT, privateEnabled: true });
    expect(await verdict(privacyCheck(), payload(transfer({})))).toBe("type");
    expect(await verdict(privacyCheck(), privacy(transfer({})))).toBe(
      "parameters.payload.internalAccountId",
    );
    expect(await verdict(privacyCheck(), privacy(readablePrivacy))).toBe("signed");
    expect(
      await verdict(
        updateWalletPrivacyPayload(owner(), { accountId: ACCOUNT, privateEnabled: false }),
        privacy(readablePrivacy),
      ),
    ).toBe("parameters.payload.privateEnabled");
    expect(await verdict(privacyCheck(), privacy("9f3b"))).toBe("signed");
  });

  it("whatever its timestampMs: the documents relate it to nothing", async () => {
    for (const at of [NOW - 365 * 86_400_000, NOW + 3_600_000])
      expect(
        await verdict(executeQuotePayload(owner(), quote), payload(transfer({}), at), direct),
      ).toBe("signed");
  });

  it("readQuotePayload shows what would be signed", async () => {
    const shown = {
      ...quote,
      paymentInstructions: [
        {
          accountOrWalletInfo: {
            accountType: "EMBEDDED_WALLET",
            payloadToSign: payload(transfer({})),
          },
        },
      ],
    };
    expect(readQuotePayload(shown)).toEqual({
      activityType: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      wallet: "wallet_1",
      quoteId: quote.id,
      amount: "100000",
      currency: "USDB",
      destination: "ExternalAccount:1",
      readable: true,
    });
    const opaque = {
      ...shown,
      paymentInstructions: [
        {
          accountOrWalletInfo: {
            accountType: "EMBEDDED_WALLET",
            payloadToSign: payload("ea69b4bf"),
          },
        },
      ],
    };
    expect(readQuotePayload(opaque)).toMatchObject({ wallet: "wallet_1", readable: false });
    expect(readQuotePayload(opaque)).not.toHaveProperty("amount");
  });
});

describe("the engine never hands an unchecked payload to the signer", () => {
  function setup(payloadToSign: (now: number) => string, extra: object = {}) {
    const time = fakeClock();
    const relay = scriptedFetch([
      { status: 202, json: challengeJson(time.now, { payloadToSign: payloadToSign(time.now) }) },
      { status: 201, json: { id: "Session:new" } },
    ]);
    const events: Array<SignedRequestEvent | PayloadEvent | RetryEvent> = [];
    const sign = vi.fn(() => "STAMP");
    const run = () =>
      runSignedRequest({
        transport: createTransport({
          relayUrl: "https://app.example/api/grid",
          fetch: relay.fetch,
          clock: time.clock,
        }),
        clock: time.clock,
        sleep: time.sleep,
        operation: "refreshSession",
        method: "POST",
        path: "/auth/sessions/Session:x/refresh",
        body: JSON.stringify({ clientPublicKey: KEY }),
        expectedStatus: 201,
        sign,
        checkPayload: refreshSessionPayload(owner(), { accountId: ACCOUNT, clientPublicKey: KEY }),
        onEvent: (event) => events.push(event),
        ...extra,
      });
    return { run, sign, events, relay };
  }
  const swapped = (now: number) =>
    activityPayload(
      "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
      { targetPublicKey: OTHER_KEY },
      { timestampMs: now },
    );

  it("a swapped payload: PAYLOAD_MISMATCH, not retryable, nothing signed or sent, one refusal event", async () => {
    const { run, sign, events, relay } = setup(swapped);
    const error = (await run().catch((e) => e)) as SignetError;
    expect([error.code, error.retryable]).toEqual(["PAYLOAD_MISMATCH", false]);
    expect(error.details).toMatchObject({
      operation: "refreshSession",
      field: "parameters.targetPublicKey",
    });
    expect(sign).not.toHaveBeenCalled();
    expect(relay.calls).toHaveLength(1);
    expect(events.filter((e) => e.type === "payload")).toEqual([
      {
        type: "payload",
        action: "refused",
        operation: "refreshSession",
        signature: 1,
        field: "parameters.targetPublicKey",
      },
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "signedRequest",
      stage: "failed",
      code: "PAYLOAD_MISMATCH",
    });
    // Neither the error nor an event carries the payload or the key.
    expect(JSON.stringify([error, events])).not.toContain(OTHER_KEY);
  });

  it("an unknown activity is refused by default, and signed with a report when allowed", async () => {
    const unknown = (now: number) =>
      activityPayload(
        "ACTIVITY_TYPE_FROM_THE_FUTURE_V7",
        { targetPublicKey: KEY },
        { timestampMs: now },
      );
    const refused = setup(unknown);
    const error = (await refused.run().catch((e) => e)) as SignetError<"PAYLOAD_MISMATCH">;
    expect([error.code, error.details.field, error.details.activityType]).toEqual([
      "PAYLOAD_MISMATCH",
      "type",
      "ACTIVITY_TYPE_FROM_THE_FUTURE_V7",
    ]);
    expect(refused.sign).not.toHaveBeenCalled();
    const allowed = setup(unknown, { allowUnknownPayloads: true });
    await expect(allowed.run()).resolves.toMatchObject({ status: 201 });
    expect(allowed.sign).toHaveBeenCalledTimes(1);
    expect(allowed.events.filter((e) => e.type === "payload")).toEqual([
      {
        type: "payload",
        action: "signedUnknown",
        operation: "refreshSession",
        signature: 1,
        activityType: "ACTIVITY_TYPE_FROM_THE_FUTURE_V7",
      },
    ]);
  });

  it("allowUnknownPayloads never lets a known but wrong activity through", async () => {
    const exporting = (now: number) =>
      activityPayload(
        "ACTIVITY_TYPE_EXPORT_WALLET",
        { targetPublicKey: KEY },
        { timestampMs: now },
      );
    const { run, sign } = setup(exporting, { allowUnknownPayloads: true });
    await expect(run()).rejects.toMatchObject({
      code: "PAYLOAD_MISMATCH",
      details: { field: "type" },
    });
    expect(sign).not.toHaveBeenCalled();
  });

  it("a missing check is a typed error before anything is sent", async () => {
    const { run, relay } = setup(swapped, { checkPayload: undefined });
    await expect(run()).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(relay.calls).toHaveLength(0);
  });
});
