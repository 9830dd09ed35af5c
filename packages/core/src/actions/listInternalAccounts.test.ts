// listInternalAccounts reads every page the service answers with, and stops on a broken cursor.
import { describe, expect, it } from "vitest";
import { scriptedFetch } from "../../../test/src/scriptedFetch.js";
import { createClient, createMemoryKeyStore, listInternalAccounts } from "../index.js";

const account = (n: number) => ({
  id: `InternalAccount:00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  type: "EMBEDDED_WALLET",
});

function client(replies: Parameters<typeof scriptedFetch>[0]) {
  const script = scriptedFetch(replies);
  return {
    script,
    client: createClient({
      relayUrl: "https://relay.test/api/grid",
      fetch: script.fetch,
      keyStore: createMemoryKeyStore(),
    }),
  };
}

describe("listInternalAccounts", () => {
  it("follows nextCursor until hasMore is false, 100 a page", async () => {
    const { client: c, script } = client([
      { status: 200, json: { data: [account(1), account(2)], hasMore: true, nextCursor: "c+2/=" } },
      { status: 200, json: { data: [account(3)], hasMore: false } },
    ]);
    const accounts = await listInternalAccounts(c);
    expect(accounts.map((a) => a.id)).toEqual([account(1).id, account(2).id, account(3).id]);
    expect(script.calls.map((call) => new URL(call.url).search)).toEqual([
      "?type=EMBEDDED_WALLET&limit=100",
      "?type=EMBEDDED_WALLET&limit=100&cursor=c%2B2%2F%3D",
    ]);
  });

  it.each([
    ["no cursor", { data: [], hasMore: true }],
    ["the same cursor again", { data: [], hasMore: true, nextCursor: "again" }],
  ])(
    "refuses a list that says it has more but gives %s (MALFORMED_RESPONSE)",
    async (_name, page) => {
      const { client: c } = client([
        { status: 200, json: { data: [account(1)], hasMore: true, nextCursor: "again" } },
        { status: 200, json: page },
      ]);
      await expect(listInternalAccounts(c)).rejects.toMatchObject({ code: "MALFORMED_RESPONSE" });
    },
  );
});
