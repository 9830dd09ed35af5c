// docs/protocol.md §11: each operation's check against a table of good and swapped payloads, in the
// shapes of the service's 202 examples (written by hand in packages/test/src/payloads.ts), and the
// engine's promise that no payload reaches `sign` unchecked.
import { describe, expect, it, vi } from "vitest";
import { activityPayload } from "../../../test/src/payloads.js";
import { challengeJson, fakeClock, scriptedFetch } from "../../../test/src/scriptedFetch.js";
import { addCredentialPayload } from "../actions/addCredential.js";
import { addPasskeyPayload } from "../actions/addPasskey.js";
import { createDelegatedKeyPayload } from "../actions/createDelegatedKey.js";
import { exportWalletPayload } from "../actions/exportWallet.js";
import { executeQuotePayload, readQuotePayload } from "../actions/quotePayload.js";
import { refreshSessionPayload } from "../actions/refreshSession.js";
import { revokeCredentialPayload } from "../actions/revokeCredential.js";
import { revokeSessionPayload } from "../actions/revokeSession.js";
import { updateCustomerContactPayload } from "../actions/updateCustomerContact.js";
import type { SignetClient } from "../client.js";
import { isSignetError, type SignetError } from "../errors.js";
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
    [
      "refresh, a payload from an hour ago",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: KEY }, NOW - 3_600_000),
      "timestampMs",
    ],
    [
      "refresh, a payload from tomorrow",
      refresh,
      activity("CREATE_READ_WRITE_SESSION_V2", { targetPublicKey: KEY }, NOW + 86_400_000),
      "timestampMs",
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
      "email, a case change",
      email,
      activity("UPDATE_USER_EMAIL", { userEmail: "ADA@example.com", userId: "user_1" }),
      "parameters.userEmail",
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
      "email credential add",
      () => addCredentialPayload(owner(), { accountId: ACCOUNT, type: "EMAIL_OTP" }),
      activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com", userId: "user_1" }),
      "signed",
    ],
    [
      "sms credential add, an email change instead",
      () => addCredentialPayload(owner(), { accountId: ACCOUNT, type: "SMS_OTP" }),
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
      "passkey add, a second authenticator",
      () => addPasskeyPayload(owner(), { accountId: ACCOUNT, ...attestation }),
      passkeyPayload(attestation, [{ attestation: { credentialId: "cred-B" } }]),
      "parameters.authenticators",
    ],
    [
      "passkey revoke",
      () => revokeCredentialPayload(owner(), { accountId: ACCOUNT }),
      activity("DELETE_AUTHENTICATORS", { authenticatorIds: ["a1"], userId: "user_1" }),
      "signed",
    ],
    [
      "passkey revoke, two at once",
      () => revokeCredentialPayload(owner(), { accountId: ACCOUNT }),
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
  it.each(cases)("%s", async (name, check, payload, expected) => {
    // A credential revoke's challenge names the credential type (docs/protocol.md §2).
    const type = name.startsWith("passkey revoke") ? "PASSKEY" : undefined;
    expect(await verdict(check(), payload, context({ type }))).toBe(expected);
  });

  it("a credential revoke is read by the type its challenge names", async () => {
    const check = () => revokeCredentialPayload(owner(), { accountId: ACCOUNT });
    const clearEmail = activity("UPDATE_USER_EMAIL", { userEmail: "", userId: "user_1" });
    const setEmail = activity("UPDATE_USER_EMAIL", {
      userEmail: "thief@example.net",
      userId: "user_1",
    });
    expect(await verdict(check(), clearEmail, context({ type: "EMAIL_OTP" }))).toBe("signed");
    expect(await verdict(check(), setEmail, context({ type: "EMAIL_OTP" }))).toBe(
      "parameters.userEmail",
    );
    expect(await verdict(check(), clearEmail, context({ type: "PASSKEY" }))).toBe("type");
    expect(await verdict(check(), clearEmail)).toBe("type");
  });

  it("pins the organization, the enclave user and the wallet of an account once seen", async () => {
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
    const exporting = exportWalletPayload(client, { accountId: ACCOUNT, clientPublicKey: KEY });
    const quote = {
      id: "Quote:1",
      status: "PENDING",
      createdAt: new Date(NOW - 1_000).toISOString(),
      expiresAt: new Date(NOW + 60_000).toISOString(),
      source: { accountId: ACCOUNT },
    };
    const sign = (signWith: string) =>
      activityPayload(
        "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
        {
          encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
          hashFunction: "HASH_FUNCTION_NO_OP",
          payload: "9f3b",
          signWith,
        },
        { organizationId: "org_A", timestampMs: NOW },
      );
    expect(
      await verdict(
        exporting,
        activityPayload(
          "ACTIVITY_TYPE_EXPORT_WALLET",
          { targetPublicKey: KEY, walletId: "wallet_A" },
          { organizationId: "org_A", timestampMs: NOW },
        ),
      ),
    ).toBe("signed");
    // The wallet exported is the wallet a transaction must be signed with.
    expect(
      await verdict(
        executeQuotePayload(client, quote),
        sign("wallet_B"),
        context({ expiresAtMs: undefined }),
      ),
    ).toBe("wallet");
    expect(
      await verdict(
        executeQuotePayload(client, quote),
        sign("wallet_A"),
        context({ expiresAtMs: undefined }),
      ),
    ).toBe("signed");
  });

  it("delegated keys: the card and the key of the policy, then the same key", async () => {
    const request = { accountId: ACCOUNT, cardId: CARD, nickname: "Card key" };
    const policy = (card: string, key: string, name = "Card key") =>
      activity("CREATE_POLICY_V3", {
        condition: `card.id == '${card}' && key.publicKey == '${key}'`,
        effect: "EFFECT_ALLOW",
        policyName: name,
      });
    const apiKey = (key: string, name = "Card key") =>
      activity("CREATE_API_KEYS_V2", {
        apiKeys: [{ apiKeyName: name, curveType: "API_KEY_CURVE_P256", publicKey: key }],
        userId: "user_1",
      });
    const run = async (first: string, second?: string) => {
      const check = createDelegatedKeyPayload(owner(), request);
      const one = await verdict(check, first, context({ signature: 1 }));
      if (one !== "signed" || second === undefined) return [one, check.delegatedPublicKey()];
      const two = await verdict(check, second, context({ signature: 2 }));
      return [one, two, check.delegatedPublicKey()];
    };
    expect(await run(policy(CARD, KEY), apiKey(KEY))).toEqual(["signed", "signed", KEY]);
    expect(await run(policy(OTHER_CARD, KEY))).toEqual(["parameters.condition", undefined]);
    expect(await run(policy(CARD, KEY, "Other"))).toEqual(["parameters.policyName", undefined]);
    expect(await run(policy(CARD, KEY), apiKey(OTHER_KEY))).toEqual([
      "signed",
      "parameters.apiKeys.0.publicKey",
      KEY,
    ]);
    expect(await run(apiKey(KEY))).toEqual(["type", undefined]);
    // A third payload is one more than the operation signs.
    const check = createDelegatedKeyPayload(owner(), request);
    expect(await verdict(check, apiKey(KEY), context({ signature: 3 }))).toBe("type");
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

  it("a payload made before the quote, or after it expired, is refused", async () => {
    expect(
      await verdict(
        executeQuotePayload(owner(), quote),
        payload(transfer({}), NOW - 3_600_000),
        direct,
      ),
    ).toBe("timestampMs");
    expect(
      await verdict(
        executeQuotePayload(owner(), quote),
        payload(transfer({}), NOW + 3_600_000),
        direct,
      ),
    ).toBe("timestampMs");
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
