// docs/protocol.md §11: the service's own words, through the public client. Every payload to sign,
// 202 and answer that the service's OpenAPI and Global Accounts guides show (and the shapes its
// prose names where it shows none) is vendored in packages/test/corpus with its source; here each
// is played by a `fetch` that answers as the service documents (test/support/corpusReplay.ts), to
// a client made by `createClient`, calling the public actions with the request the device would
// have made. Every honest one must be signed, alone and in sequences on one client; the same
// payloads bent to another value than the device's are refused.
import {
  addCredential,
  addPasskey,
  changeContact,
  createClient,
  createDelegatedKey,
  createMemoryKeyStore,
  executeQuote,
  exportWallet,
  type QuoteJson,
  refreshSession,
  requestOtp,
  revokeCredential,
  revokeSession,
  SignetError,
  type SignetEvent,
  signInWithOAuth,
  signInWithPasskey,
  updateCustomerContact,
  updateWalletPrivacy,
  verifyOtp,
} from "@signet/core";
import { createSoftAuthenticator } from "@signet/emulator/testing";
import { describe, expect, it } from "vitest";
import { generateKeyPair, toHex } from "../packages/emulator/src/crypto/index.js";
import { type CorpusEntry, loadCorpus } from "../packages/test/src/corpus.js";
import { expectDocumentedDetails } from "../packages/test/src/errorDetails.js";
import {
  ACCOUNT,
  createReplay,
  inOneOrganization,
  RELAY_URL,
  type Replay,
  SIGN_IN_CREDENTIAL,
} from "./support/corpusReplay.js";

const corpus = loadCorpus();
const entry = (id: string): CorpusEntry => {
  const found = corpus.entries.find((e) => e.id === id);
  if (!found) throw new Error(`no corpus entry ${id}`);
  return found;
};
/** Before every documented challenge's and quote's `expiresAt` (2026-04-08T15:35Z, …). */
const NOW = Date.parse("2026-04-08T15:30:00Z");
const REFRESH = entry("openapi/refreshAuthSession/challenge");
const rp = { id: "localhost", name: "Corpus" };
const passkeyUser = { id: "Y29ycHVz", name: "jane", displayName: "Jane" };

/** A client with a held session (an OAuth sign-in), talking to the replay only. */
async function device(
  options: {
    oneOrganization?: boolean;
    allowUnknownPayloads?: boolean;
    /** What the backend does to a request on its way to the service. */
    tamper?: (input: string, init: RequestInit) => RequestInit;
  } = {},
) {
  const authenticator = createSoftAuthenticator({ rpId: "localhost" });
  let passkeyId: string | undefined;
  const replay = createReplay({
    signInSession: entry("openapi/verifyAuthCredential/emailOtp").answer?.body as never,
    oneOrganization: options.oneOrganization,
    passkeyCredentialId: () => passkeyId ?? "",
  });
  const events: SignetEvent[] = [];
  const client = createClient({
    relayUrl: RELAY_URL,
    fetch: (input, init) =>
      replay.fetch(input, options.tamper ? options.tamper(input, init) : init),
    keyStore: createMemoryKeyStore(),
    webauthn: authenticator.provider,
    clock: { now: () => NOW },
    autoRefresh: false,
    sessionWarning: false,
    allowUnknownPayloads: options.allowUnknownPayloads,
    // `changeContact` through #853's resource (the PATCH is `updateCustomerContact`'s entries).
    contactChanges: "resource",
    trustedKeys: {
      otpTargetBundle: [replay.enclavePublicKey],
      exportBundle: [replay.enclavePublicKey],
    },
    onEvent: (event) => events.push(event),
  });
  await signInWithOAuth(client, {
    credentialId: SIGN_IN_CREDENTIAL,
    getIdToken: async () => "eyJhbGciOiJub25lIn0.eyJzdWIiOiJjb3JwdXMifQ.",
  });
  const makePasskey = async () => {
    const made = await authenticator.createCredential({
      rp,
      user: passkeyUser,
      challenge: "Y29ycHVzLWNoYWxsZW5nZQ",
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    });
    passkeyId = made.rawId;
  };
  /** The quote as this account's backend hands it to the app. */
  const quoteOf = (e: CorpusEntry) => {
    const quote = structuredClone(e.quote) as QuoteJson;
    const [instruction] = quote.paymentInstructions ?? [];
    if (options.oneOrganization && instruction) {
      const info = instruction.accountOrWalletInfo as { payloadToSign: string };
      info.payloadToSign = inOneOrganization(info.payloadToSign);
    }
    return quote;
  };
  return { client, replay, events, makePasskey, quoteOf };
}

type Device = Awaited<ReturnType<typeof device>>;

/** Arms `e` (and what follows it) and calls its public action with the device's request. */
async function play(d: Device, e: CorpusEntry, swap?: Parameters<Replay["play"]>[1]) {
  // The action's arguments, as the corpus writes them (JSON): each call below is the action's own.
  const call = (e.call ?? {}) as Record<string, unknown>;
  const { client, replay } = d;
  if (e.operation === "signInWithPasskey") {
    await d.makePasskey();
    replay.play(e);
    replay.play(REFRESH, swap);
    return signInWithPasskey(client, call as never);
  }
  replay.play(e, swap);
  const accountId = ACCOUNT;
  switch (e.operation) {
    case "updateCustomerContact":
      return updateCustomerContact(client, { accountId, ...call } as never);
    case "changeContact":
      return changeContact(client, { accountId, ...call } as never);
    case "updateWalletPrivacy":
      return updateWalletPrivacy(client, { accountId, ...call } as never);
    case "addCredential":
      return addCredential(client, { accountId, ...call } as never);
    case "addPasskey":
      return addPasskey(client, { accountId, ...call, rp, user: passkeyUser } as never);
    case "verifyOtp": {
      const { credentialId, otpCode } = e.call as { credentialId: string; otpCode: string };
      return verifyOtp(client, { ...(await requestOtp(client, { credentialId })), otpCode });
    }
    case "refreshSession":
      return refreshSession(client, { accountId, ...call } as never);
    case "exportWallet":
      return exportWallet(client, { accountId });
    case "executeQuote":
      return executeQuote(client, { quote: d.quoteOf(e) });
    case "revokeSession": {
      const [held] = await client.sessions.list(accountId);
      return revokeSession(client, { accountId, sessionId: held!.id });
    }
    case "revokeCredential":
      return revokeCredential(client, { accountId, ...call } as never);
    case "createDelegatedKey":
      return createDelegatedKey(client, { accountId, ...call } as never);
    default:
      throw new Error(`${e.id}: no action for ${e.operation}`);
  }
}

const honest = corpus.entries.filter((e) => e.kind === undefined);
/** How many payloads an entry has the device sign. */
const payloadsOf = (e: CorpusEntry) =>
  e.operation === "executeQuote"
    ? 1
    : e.operation === "signInWithPasskey"
      ? REFRESH.challenges.length
      : e.challenges.length;

describe("the corpus: every honest payload the documents show is signed through the public client", () => {
  it("holds every documented payload, and the prose's delegated-key and OAuth-revoke shapes", () => {
    expect(corpus.source).toMatchObject({
      repository: "lightsparkdev/grid-api",
      commit: "cf2510ed5509d3b187818e4ae5cca0f64a8d7b89",
    });
    expect(honest.map((e) => e.operation).sort()).toEqual(
      [
        "addCredential",
        "addCredential",
        "addCredential",
        "addPasskey",
        "changeContact",
        "createDelegatedKey",
        "executeQuote",
        "exportWallet",
        "refreshSession",
        "refreshSession",
        "revokeCredential",
        "revokeCredential",
        "revokeSession",
        "signInWithPasskey",
        "updateCustomerContact",
        "updateCustomerContact",
        "updateWalletPrivacy",
        "verifyOtp",
      ].sort(),
    );
    for (const e of corpus.entries.filter((e) => e.origin === "derived"))
      expect(e.prose?.length, e.id).toBeGreaterThan(0);
  });

  it.each(honest.map((e) => [e.id, e] as const))("%s", async (_id, e) => {
    const d = await device();
    const before = d.replay.signed.length;
    await play(d, e);
    expect(d.replay.idle()).toBe(true);
    const signed = d.replay.signed.slice(before);
    expect(signed).toHaveLength(payloadsOf(e));
    // Nothing refused, nothing signed unchecked.
    expect(d.events.filter((event) => event.type === "payload")).toEqual([]);
  });

  it("the guides' elided verification tokens are the OpenAPI's whole one, cut short", () => {
    const whole = entry("openapi/verifyAuthCredential/emailOtp").challenges[0]!.payloadToSign;
    for (const e of corpus.entries.filter((e) => e.kind === "elided")) {
      const shown = e.challenges[0]!.payloadToSign;
      expect(shown.endsWith("...")).toBe(true);
      expect(whole.startsWith(shown.slice(0, -3))).toBe(true);
    }
  });

  it("the schema's placeholder activity is one core does not know: refused, or signed and reported when allowed", async () => {
    const placeholder = entry("openapi/SignedRequestChallenge/payloadToSign");
    const asRefresh = { ...REFRESH, challenges: placeholder.challenges, ownValues: [] };
    const refusing = await device();
    const error = await play(refusing, asRefresh).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).details).toMatchObject({
      field: "type",
      activityType: "ACTIVITY_TYPE_EXAMPLE",
    });
    const allowing = await device({ allowUnknownPayloads: true });
    await play(allowing, asRefresh);
    expect(allowing.events).toContainEqual(
      expect.objectContaining({ type: "payload", action: "signedUnknown" }),
    );
  });
});

describe("sequences on one client: export, privacy, send and refresh in any order, and again", () => {
  const steps = {
    export: entry("guides/exporting-wallet/challenge"),
    privacy: entry("openapi/updateInternalAccount/challenge"),
    send: entry("openapi/PaymentEmbeddedWalletInfo/payloadToSign"),
    refresh: REFRESH,
  };
  const orders = (items: string[]): string[][] =>
    items.length <= 1
      ? [items]
      : items.flatMap((first, i) =>
          orders([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]),
        );
  // One account has one organization: the examples name two (org_abc123 in the refresh and quote
  // examples), so a sequence writes the others' into each (corpusReplay's `oneOrganization`).
  it.each(orders(Object.keys(steps)).map((order) => [order.join(" → "), order] as const))(
    "%s, twice over",
    async (_name, order) => {
      const d = await device({ oneOrganization: true });
      for (const step of [...order, ...order, order[0]!, order[0]!]) {
        await play(d, steps[step as keyof typeof steps]);
      }
      expect(d.replay.signed).toHaveLength(order.length * 2 + 2);
      expect(d.events.filter((event) => event.type === "payload")).toEqual([]);
    },
  );

  it("every other operation between them, on the same client", async () => {
    const d = await device({ oneOrganization: true });
    const sequence = [
      "openapi/updateCustomerById/embeddedWalletEmailUpdate",
      "openapi/PaymentEmbeddedWalletInfo/payloadToSign",
      "openapi/createAuthCredential/smsOtp",
      "guides/exporting-wallet/challenge",
      "openapi/createAuthCredential/oauth",
      "openapi/updateInternalAccount/challenge",
      "openapi/createAuthCredential/passkey",
      "openapi/refreshAuthSession/challenge",
      "derived/createDelegatedKey",
      "guides/managing-sessions/refresh",
      "openapi/PaymentEmbeddedWalletInfo/payloadToSign",
      "derived/revokeCredential/oauth",
      "guides/exporting-wallet/challenge",
      "openapi/updateCustomerById/embeddedWalletPhoneUpdate",
      "pr853/createContactChange/email",
    ];
    for (const id of sequence) await play(d, entry(id));
    expect(d.replay.signed).toHaveLength(sequence.length + 1);
  });
});

describe("the same documents, bent away from the device's request: nothing signed", () => {
  const replaced = (from: string, to: string) => (payload: string) => {
    if (!payload.includes(from)) throw new Error(`the payload has no ${from}`);
    return payload.replace(from, to);
  };
  const cases: [
    name: string,
    id: string,
    swap: (payload: string, leg: number) => string,
    field: string,
  ][] = [
    [
      "refresh: the backend's key",
      "openapi/refreshAuthSession/challenge",
      (payload) =>
        payload.replace(
          /"targetPublicKey":"[0-9a-f]+"/,
          `"targetPublicKey":"03${"ab".repeat(32)}"`,
        ),
      "parameters.targetPublicKey",
    ],
    [
      "export: the backend's key",
      "guides/exporting-wallet/challenge",
      (payload) =>
        payload.replace(
          /"targetPublicKey":"[0-9a-f]+"/,
          `"targetPublicKey":"04${"cd".repeat(64)}"`,
        ),
      "parameters.targetPublicKey",
    ],
    [
      "contact change: another email",
      "openapi/updateCustomerById/embeddedWalletEmailUpdate",
      replaced("john.smith@example.com", "thief@example.net"),
      "parameters.userEmail",
    ],
    [
      "contact-change resource (#853): another email",
      "pr853/createContactChange/email",
      replaced("jane.smith@example.com", "thief@example.net"),
      "parameters.userEmail",
    ],
    [
      "email credential: another email",
      "openapi/createAuthCredential/emailOtp",
      replaced("jane@example.com", "thief@example.net"),
      "parameters.userEmail",
    ],
    [
      "SMS credential: another phone",
      "openapi/createAuthCredential/smsOtp",
      replaced("+14155550123", "+14155550999"),
      "parameters.userPhoneNumber",
    ],
    [
      "privacy: a transfer instead",
      "openapi/updateInternalAccount/challenge",
      replaced("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
      "type",
    ],
    [
      "passkey revoke: an OAuth provider's deletion instead",
      "guides/authentication/revoke-credential",
      (payload) =>
        payload
          .replace("authenticatorIds", "providerIds")
          .replace("ACTIVITY_TYPE_DELETE_AUTHENTICATORS", "ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS"),
      "type",
    ],
    [
      "delegated key: the identity also holds an email to sign in with",
      "derived/createDelegatedKey",
      (payload, leg) =>
        leg === 0
          ? payload.replace('"userName"', '"userEmail":"thief@example.net","userName"')
          : payload,
      "parameters.users.0.userEmail",
    ],
    [
      "delegated key: the policies name another key",
      "derived/createDelegatedKey",
      (payload, leg) =>
        leg === 1
          ? payload.replace(
              "user.id == 'user_delegated_2m9F...'",
              `credential.public_key == '03${"ef".repeat(32)}'`,
            )
          : payload,
      "parameters.policies.0.consensus",
    ],
  ];
  it.each(cases)("%s", async (_name, id, swap, field) => {
    const d = await device();
    const before = d.replay.signed.length;
    const error = await play(d, entry(id), swap).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("PAYLOAD_MISMATCH");
    expect((error as SignetError<"PAYLOAD_MISMATCH">).details.field).toBe(field);
    // The delegated key's first payload is honest in the second case: only it was signed.
    const legsBefore =
      id === "derived/createDelegatedKey" && field.startsWith("parameters.policies") ? 1 : 0;
    expect(d.replay.signed.length - before).toBe(legsBefore);
    d.replay.reset();
  });

  it("passkey sign-in: a session the backend bound to its own key is refused at once, nothing held", async () => {
    const theirs = toHex(generateKeyPair().publicKeyCompressed);
    // The backend swaps the key of the passkey challenge for its own before the service sees it.
    const d = await device({
      tamper: (input, init) =>
        input.endsWith("/challenge")
          ? { ...init, body: JSON.stringify({ clientPublicKey: theirs }) }
          : init,
    });
    const held = (await d.client.sessions.list(ACCOUNT)).map((s) => s.id);
    const error = await play(d, entry("openapi/challengeAuthCredential/passkey")).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("SESSION_KEY_MISMATCH");
    expect((error as SignetError).retryable).toBe(false);
    expectDocumentedDetails(error as SignetError);
    expect((await d.client.sessions.list(ACCOUNT)).map((s) => s.id)).toEqual(held);
    expect(d.replay.signed).toHaveLength(0);
  });
});
