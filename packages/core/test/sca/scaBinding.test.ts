// docs/protocol.md §11 ("What an SCA proof is bound to"): the device's own bindings of an SCA
// proof, on a client with a software authenticator and no service (nothing here is sent). The
// options are opaque: a challenge of any shape is tapped, the service's sign-in shape included;
// what the device binds is what it has seen itself (the owner of a challenge, the options a
// challenge first came with, its own sign-in passkeys, the quote the user confirmed).
import { createSoftAuthenticator } from "@signet/emulator/testing";
import { beforeEach, describe, expect, it } from "vitest";
import {
  createClient,
  createMemoryKeyStore,
  type QuoteJson,
  SignetError,
} from "../../src/index.js";
import { bindChallenge, type ScaProofSite } from "../../src/sca/scaBinding.js";
import {
  assertSameQuote,
  confirmedQuote,
  confirmQuote,
  noteChallenge,
  notePasskeys,
  SCA_LOGIN_OWNER,
} from "../../src/sca/scaLedger.js";
import { scaProofFields } from "../../src/sca/scaProof.js";
import type { SignetEvent } from "../../src/session/events.js";

const ORIGIN = "http://localhost:5173";
const site: ScaProofSite = { operation: "authorizeQuote", step: 1 };
const A = "Quote:019542f5-b3e7-1d02-0000-00000000000a";
const B = "Quote:019542f5-b3e7-1d02-0000-00000000000b";
const b64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

let authenticator: ReturnType<typeof createSoftAuthenticator>;
let events: SignetEvent[];
let client: ReturnType<typeof createClient>;

beforeEach(() => {
  authenticator = createSoftAuthenticator({ rpId: "localhost", origin: ORIGIN });
  events = [];
  client = createClient({
    relayUrl: "http://127.0.0.1:9/api/grid",
    keyStore: createMemoryKeyStore(),
    webauthn: authenticator.provider,
    onEvent: (event) => events.push(event),
  });
});

/** A passkey on the authenticator; its base64url credential id. */
async function passkey(name: string): Promise<string> {
  const made = await authenticator.createCredential({
    rp: { id: "localhost", name: "Signet tests" },
    user: { id: b64url(name), name, displayName: name },
    challenge: b64url(`register a passkey for ${name}`),
    pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  return made.id;
}

const challenge = (id: string, webauthn?: string, allowed?: string[]) => ({
  id,
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  factor: webauthn ? "PASSKEY" : "SMS_OTP",
  availableFactors: ["SMS_OTP", "PASSKEY"],
  ...(webauthn
    ? {
        passkeyAssertionOptions: {
          challenge: webauthn,
          rpId: "localhost",
          ...(allowed
            ? { allowCredentials: allowed.map((c) => ({ id: c, type: "public-key" })) }
            : {}),
        },
      }
    : {}),
});

const refusal = (thrown: unknown) => {
  expect(thrown).toBeInstanceOf(SignetError);
  const error = thrown as SignetError;
  expect(error.code).toBe("PAYLOAD_MISMATCH");
  expect(error.retryable).toBe(false);
  return error.details as { field: string; operation: string };
};

describe("the opaque passkey options", () => {
  it("taps a challenge of the service's sign-in shape (the UTF-8 of 64 hex digits), plain or wrapped", async () => {
    const sca = await passkey("sca");
    const signInShaped = b64url("ab".repeat(32));
    for (const options of [
      {
        challenge: signInShaped,
        rpId: "localhost",
        allowCredentials: [{ id: sca, type: "public-key" }],
      },
      { publicKey: { challenge: signInShaped, rpId: "localhost" } },
    ]) {
      const fields = await scaProofFields(
        client,
        { factor: "PASSKEY", passkeyAssertionOptions: options },
        { passkey: true },
        site,
      );
      expect(fields).toMatchObject({
        origin: ORIGIN,
        passkeyAssertion: { id: sca, type: "public-key" },
      });
      const clientData = JSON.parse(
        Buffer.from(
          (fields.passkeyAssertion as { response: { clientDataJSON: string } }).response
            .clientDataJSON,
          "base64url",
        ).toString("utf8"),
      );
      expect(clientData.challenge).toBe(signInShaped);
    }
    expect(events.filter((e) => e.type === "payload")).toEqual([]);
  });

  it("never lets one of the device's sign-in passkeys answer: named by the options (no tap), or picked at the prompt (not sent)", async () => {
    const sca = await passkey("sca");
    const signIn = await passkey("wallet");
    notePasskeys(client, "signIn", [signIn]);
    const taps = () => authenticator.credentials.reduce((sum, c) => sum + c.signCount, 0);
    const before = taps();
    const named = await scaProofFields(
      client,
      challenge("ScaChallenge:1", b64url("x".repeat(32)), [signIn]),
      { passkey: true },
      site,
    ).catch((e) => e);
    expect(refusal(named).field).toBe("passkeyAssertionOptions.allowCredentials");
    expect(taps()).toBe(before);
    // Discoverable: the authenticator offers its newest passkey, the sign-in one.
    const picked = await scaProofFields(
      client,
      challenge("ScaChallenge:2", b64url("y".repeat(32))),
      { passkey: true },
      site,
    ).catch((e) => e);
    expect(refusal(picked).field).toBe("passkeyAssertion.id");
    expect(events.filter((e) => e.type === "payload")).toEqual([
      expect.objectContaining({
        action: "refused",
        field: "passkeyAssertionOptions.allowCredentials",
      }),
      expect.objectContaining({ action: "refused", field: "passkeyAssertion.id" }),
    ]);
    // A passkey the device enrolled for SCA answers, whatever else it knows.
    notePasskeys(client, "sca", [sca]);
    const ok = await scaProofFields(
      client,
      challenge("ScaChallenge:3", b64url("z".repeat(32)), [sca]),
      { passkey: true },
      site,
    );
    expect(ok.passkeyAssertion).toMatchObject({ id: sca });
  });

  it("refuses an origin the challenge's passkeyAllowedOrigins do not list, before sending", async () => {
    await passkey("sca");
    const error = await scaProofFields(
      client,
      {
        ...challenge("ScaChallenge:4", b64url("w".repeat(32))),
        passkeyAllowedOrigins: ["https://app.example.com"],
      },
      { passkey: true },
      site,
    ).catch((e) => e);
    expect(error).toMatchObject({
      code: "SCA_ORIGIN_NOT_ALLOWED",
      details: { origin: ORIGIN, allowedOrigins: ["https://app.example.com"] },
    });
  });
});

describe("who a challenge belongs to", () => {
  it("a challenge seen with one quote is refused for another, and for a login; its owner may use it again", () => {
    const sms = challenge("ScaChallenge:sms");
    noteChallenge(client, B, sms);
    expect(refusal(catching(() => bindChallenge(client, A, sms, site))).field).toBe(
      "scaChallenge.id",
    );
    expect(
      refusal(
        catching(() =>
          bindChallenge(client, SCA_LOGIN_OWNER, sms, { ...site, operation: "scaLogin" }),
        ),
      ).field,
    ).toBe("scaChallenge.id");
    expect(() => bindChallenge(client, B, sms, site)).not.toThrow();
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "payload",
        action: "refused",
        operation: "scaLogin",
        field: "scaChallenge.id",
      }),
    );
  });

  it("a WebAuthn challenge of a login is never a payment's, and a payment's never a login's", () => {
    const login = b64url("login challenge");
    bindChallenge(
      client,
      SCA_LOGIN_OWNER,
      { id: "", passkeyAssertionOptions: { challenge: login } },
      site,
    );
    const asPayment = catching(() =>
      bindChallenge(client, A, challenge("ScaChallenge:p", login), site),
    );
    expect(refusal(asPayment).field).toBe("scaChallenge.passkeyAssertionOptions.challenge");
    const payment = b64url("payment challenge");
    noteChallenge(client, B, challenge("ScaChallenge:b", payment));
    const asLogin = catching(() =>
      bindChallenge(
        client,
        SCA_LOGIN_OWNER,
        { id: "", passkeyAssertionOptions: { publicKey: { challenge: payment } } },
        site,
      ),
    );
    expect(refusal(asLogin).field).toBe("scaChallenge.passkeyAssertionOptions.challenge");
  });

  it("a quote's challenge must keep the passkey options it first came with", () => {
    noteChallenge(client, A, challenge("ScaChallenge:a", b64url("first")));
    const swapped = catching(() =>
      bindChallenge(client, A, challenge("ScaChallenge:a", b64url("second")), site),
    );
    expect(refusal(swapped).field).toBe("scaChallenge.passkeyAssertionOptions.challenge");
    expect(() =>
      bindChallenge(client, A, challenge("ScaChallenge:a", `${b64url("first")}==`), site),
    ).not.toThrow();
  });

  it("is per client, and bounded: the oldest of many challenges is forgotten", () => {
    const other = createClient({
      relayUrl: "http://127.0.0.1:9/api/grid",
      keyStore: createMemoryKeyStore(),
    });
    noteChallenge(client, B, challenge("ScaChallenge:first"));
    expect(() => bindChallenge(other, A, challenge("ScaChallenge:first"), site)).not.toThrow();
    for (let i = 0; i < 300; i++) noteChallenge(client, B, challenge(`ScaChallenge:n${i}`));
    expect(() => bindChallenge(client, A, challenge("ScaChallenge:first"), site)).not.toThrow();
    expect(() => bindChallenge(client, A, challenge("ScaChallenge:n299"), site)).toThrow(
      SignetError,
    );
  });
});

describe("the quote the user confirmed", () => {
  const quote: QuoteJson = {
    id: A,
    status: "PENDING",
    totalSendingAmount: 10,
    totalReceivingAmount: 9,
    sendingCurrency: { code: "EUR", decimals: 2 } as never,
    receivingCurrency: { code: "USD", decimals: 2 } as never,
    destination: { destinationType: "ACCOUNT", accountId: "ExternalAccount:1" },
  };

  it("is what executeQuote was given, and every answer must be about it", () => {
    confirmQuote(client, quote);
    expect(confirmedQuote(client, { ...quote, totalSendingAmount: 300 })).toMatchObject({
      id: A,
      totalSendingAmount: 10,
      destination: { accountId: "ExternalAccount:1" },
    });
    // The same terms, written as strings or left out, are the same quote.
    expect(() =>
      assertSameQuote({ id: A, status: "PROCESSING", totalSendingAmount: "10" as never }, quote),
    ).not.toThrow();
    for (const [answer, field] of [
      [{ ...quote, id: B }, "id"],
      [{ ...quote, totalSendingAmount: 300 }, "totalSendingAmount"],
      [{ ...quote, receivingCurrency: { code: "MXN" } as never }, "receivingCurrency.code"],
      [{ ...quote, destination: { accountId: "ExternalAccount:2" } }, "destination.accountId"],
    ] as const) {
      const error = catching(() => assertSameQuote(answer as QuoteJson, quote));
      expect(error).toMatchObject({ code: "MALFORMED_RESPONSE", details: { quoteId: A, field } });
    }
  });
});

function catching(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
