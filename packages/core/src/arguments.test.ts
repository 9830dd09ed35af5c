// Every action refuses bad arguments with a typed error before any request: never a TypeError
// from destructuring, never a request with a half-formed path. "Every action" is the table of
// actions (actions/actionTable.ts), so a new action is covered, or this file fails, at once.
import { describe, expect, it, vi } from "vitest";
import { type ActionName, actionNames } from "./actions/actionTable.js";
import { query } from "./arguments.js";
import { SignetError } from "./errors.js";
import * as core from "./index.js";

/**
 * How each action takes its parameters: `optional` when they may be left out entirely (the relay
 * fills in the customer), `namesResource: false` when they name no resource (no id to refuse).
 * Keyed by the table of actions, so a new action fails to compile (and this test fails) until it
 * has a case here.
 */
type ArgumentCase = { optional: boolean; namesResource: boolean };
const REQUIRED: ArgumentCase = { optional: false, namesResource: true };
const cases: { readonly [K in ActionName]: ArgumentCase } = {
  requestOtp: REQUIRED,
  verifyOtp: REQUIRED,
  signInWithOAuth: REQUIRED,
  preparePasskeySignIn: REQUIRED,
  signInWithPasskey: REQUIRED,
  addPasskey: REQUIRED,
  addCredential: REQUIRED,
  listCredentials: REQUIRED,
  revokeCredential: REQUIRED,
  getSession: REQUIRED,
  listSessions: REQUIRED,
  refreshSession: REQUIRED,
  revokeSession: REQUIRED,
  signOut: REQUIRED,
  exportWallet: REQUIRED,
  getQuote: REQUIRED,
  executeQuote: REQUIRED,
  authorizeQuote: REQUIRED,
  resendQuoteAuthorization: REQUIRED,
  waitForTransaction: REQUIRED,
  listTransactions: { optional: true, namesResource: false },
  scaLogin: REQUIRED,
  listScaFactors: { optional: true, namesResource: false },
  enrollScaPasskey: { optional: true, namesResource: false },
  deleteScaFactor: REQUIRED,
  recordSecurityEvent: REQUIRED,
  updateWalletPrivacy: REQUIRED,
  startContactVerification: REQUIRED,
  confirmContactVerification: REQUIRED,
  updateCustomerContact: REQUIRED,
  createDelegatedKey: REQUIRED,
  listDelegatedKeys: REQUIRED,
  getDelegatedKey: REQUIRED,
  revokeDelegatedKey: REQUIRED,
  listInternalAccounts: { optional: true, namesResource: true },
};

type Action = (client: unknown, parameters: unknown) => Promise<unknown>;

it("has a case for every action of the table, and none for another", () => {
  expect(Object.keys(cases).sort()).toEqual([...actionNames].sort());
});

describe("actions: bad arguments", () => {
  const fetch = vi.fn(async () => new Response("{}", { status: 500 }));
  const client = core.createClient({
    relayUrl: "https://relay.example/api/grid",
    fetch,
    keyStore: core.createMemoryKeyStore(),
    webauthn: { register: vi.fn(), authenticate: vi.fn() },
  });

  it.each(actionNames)(
    "%s: non-client, non-object and empty parameters are INVALID_ARGUMENT",
    async (name) => {
      const action = (core as unknown as Record<string, Action>)[name]!;
      const { optional, namesResource } = cases[name];
      for (const [c, p] of [
        ...(optional ? [] : ([[client, undefined]] as const)),
        [client, null],
        [client, 42],
        [client, "x"],
        [undefined, {}],
        [{}, {}],
        ...(optional ? [] : ([[client, {}]] as const)),
        ...(!namesResource
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
