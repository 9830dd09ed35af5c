// Every action refuses bad arguments with a typed error before any request: never a TypeError
// from destructuring, never a request with a half-formed path. "Every action" is the table of
// actions (catalog/actionTable.ts), so a new action is covered at once, held to the strictest case.
import { describe, expect, it, vi } from "vitest";
import { type ActionName, actionNames } from "../catalog/actionTable.js";
import { SignetError } from "../errors/errors.js";
import * as core from "../index.js";
import { query } from "./arguments.js";

/**
 * How an action takes its parameters: `optional` when they may be left out entirely (the relay
 * fills in the customer), `namesResource: false` when they name no resource (no id to refuse).
 * Every action of the table is held to the strictest case, `REQUIRED`, unless it is listed in
 * `LOOSER` with what it may leave out; so a new action is covered at once, with no case to add,
 * and this test fails if it is looser than `REQUIRED` without saying so here.
 */
type ArgumentCase = { optional: boolean; namesResource: boolean };
const REQUIRED: ArgumentCase = { optional: false, namesResource: true };
const LOOSER: { readonly [K in ActionName]?: ArgumentCase } = {
  listTransactions: { optional: true, namesResource: false },
  listScaFactors: { optional: true, namesResource: false },
  enrollScaPasskey: { optional: true, namesResource: false },
  listInternalAccounts: { optional: true, namesResource: true },
  getStepUpStatus: { optional: true, namesResource: true },
};
const caseOf = (name: ActionName): ArgumentCase => LOOSER[name] ?? REQUIRED;

type Action = (client: unknown, parameters: unknown) => Promise<unknown>;

it("covers every action of the table; each looser case names one of them", () => {
  expect(actionNames.length).toBeGreaterThan(30);
  expect(Object.keys(LOOSER).filter((name) => !actionNames.includes(name as ActionName))).toEqual(
    [],
  );
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
      const { optional, namesResource } = caseOf(name);
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
