// Every action refuses bad arguments with a typed error before any request: never a TypeError
// from destructuring, never a request with a half-formed path.
import { describe, expect, it, vi } from "vitest";
import { query } from "./arguments.js";
import { SignetError } from "./errors.js";
import * as core from "./index.js";

const actions = [
  "addCredential",
  "addPasskey",
  "authorizeQuote",
  "confirmContactVerification",
  "createDelegatedKey",
  "deleteScaFactor",
  "enrollScaPasskey",
  "executeQuote",
  "exportWallet",
  "getDelegatedKey",
  "getQuote",
  "getSession",
  "listCredentials",
  "listDelegatedKeys",
  "listInternalAccounts",
  "listScaFactors",
  "listSessions",
  "listTransactions",
  "preparePasskeySignIn",
  "recordSecurityEvent",
  "refreshSession",
  "requestOtp",
  "resendQuoteAuthorization",
  "revokeCredential",
  "revokeDelegatedKey",
  "revokeSession",
  "scaLogin",
  "signInWithOAuth",
  "signInWithPasskey",
  "signOut",
  "startContactVerification",
  "updateCustomerContact",
  "updateWalletPrivacy",
  "verifyOtp",
  "waitForTransaction",
] as const;

type Action = (client: unknown, parameters: unknown) => Promise<unknown>;

const OPTIONAL_PARAMETERS: ReadonlySet<string> = new Set([
  "listInternalAccounts",
  "listScaFactors",
  "enrollScaPasskey",
  "listTransactions",
]);
/** Actions that name no resource in their parameters (the relay names the customer). */
const NO_IDS: ReadonlySet<string> = new Set([
  "listScaFactors",
  "enrollScaPasskey",
  "listTransactions",
]);

describe("actions: bad arguments", () => {
  const fetch = vi.fn(async () => new Response("{}", { status: 500 }));
  const client = core.createClient({
    relayUrl: "https://relay.example/api/grid",
    fetch,
    keyStore: core.createMemoryKeyStore(),
    webauthn: { register: vi.fn(), authenticate: vi.fn() },
  });

  it.each(actions)(
    "%s: non-client, non-object and empty parameters are INVALID_ARGUMENT",
    async (name) => {
      const action = (core as unknown as Record<string, Action>)[name]!;
      // Parameters that may be left out entirely (the relay fills in the customer).
      const optional = OPTIONAL_PARAMETERS.has(name);
      for (const [c, p] of [
        ...(optional ? [] : ([[client, undefined]] as const)),
        [client, null],
        [client, 42],
        [client, "x"],
        [undefined, {}],
        [{}, {}],
        ...(optional ? [] : ([[client, {}]] as const)),
        ...(NO_IDS.has(name)
          ? []
          : ([
              [
                client,
                {
                  accountId: "InternalAccount:../../admin",
                  customerId: "Customer:1/../x",
                  quoteId: 7,
                },
              ],
            ] as const)),
      ] as const) {
        const error = await action(c, p).catch((e: unknown) => e);
        expect(
          error,
          `${name}(${JSON.stringify(c === client ? "client" : c)}, ${JSON.stringify(p)})`,
        ).toBeInstanceOf(core.SignetError);
        expect((error as core.SignetError).code).toBe("INVALID_ARGUMENT");
      }
      expect(fetch).not.toHaveBeenCalled();
    },
  );
});

describe("query", () => {
  it("percent-encodes any value so that a query parser reads it back unchanged, without URLSearchParams", () => {
    const values = ["InternalAccount:0b1c", "a b+c&d=e", "!'()*~-._", "ü€😀", "", "%41", "x=y#z"];
    for (const value of values) {
      const text = query({ accountId: value, skipped: undefined });
      expect(text).toMatch(/^\?accountId=[A-Za-z0-9%!'()*~._-]*$/);
      expect(new URLSearchParams(text).get("accountId")).toBe(value);
      expect(new URLSearchParams(text).has("skipped")).toBe(false);
    }
    expect(query({ a: "1", b: "2" })).toBe("?a=1&b=2");
    expect(query({ a: undefined })).toBe("");
    expect(() => query({ a: "\ud800" })).toThrow(SignetError);
  });
});
