// Which 401 clears which held session, row by row, and how many clearings a burst of them makes.
import { describe, expect, it } from "vitest";
import type { SignedRequestEnd, SignedRequestEvent } from "../transport/signedRequest.js";
import { createSessionRejection } from "./sessionRejection.js";
import type { Session } from "./sessionStore.js";

const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
const session = (n: number): Session => ({
  id: `Session:22222222-2222-4222-8222-00000000000${n}`,
  accountId,
  expiresAt: "2030-01-01T00:00:00.000Z",
  publicKey: `02${String(n).repeat(64)}`,
});

function guard(options: { gone?: boolean; waited?: boolean; heldIds?: string[] } = {}) {
  const held = new Map(
    (options.heldIds ?? [session(1).id, session(2).id]).map((id, i) => [id, session(i + 1)]),
  );
  const cleared: string[] = [];
  let asked = 0;
  let synced = 0;
  const rejection = createSessionRejection({
    held: (id) => held.get(id),
    confirmGone: async () => {
      asked += 1;
      return options.gone ?? true;
    },
    lock: (_key, task) => task(options.waited ?? false),
    sync: async () => {
      synced += 1;
    },
    clear: async (s) => {
      cleared.push(s.id);
      held.delete(s.id);
    },
  });
  return { rejection, cleared, counts: () => ({ asked, synced }), held };
}

type Loose<T> = { [K in keyof T]?: T[K] | undefined };

/** A `failed` end of the engine; keys given as undefined are left out. */
const failed = (over: Loose<SignedRequestEvent>): SignedRequestEnd =>
  Object.fromEntries(
    Object.entries({ ...base, ...over }).filter(([, value]) => value !== undefined),
  ) as SignedRequestEnd;

const base: SignedRequestEvent = {
  type: "signedRequest",
  operation: "updateWalletPrivacy",
  mode: "challenge",
  method: "PATCH",
  path: "/internal-accounts/x",
  stage: "failed",
  leg: 2,
  attempt: 1,
  status: 401,
  code: "WALLET_SIGNATURE_INVALID",
  requestId: "Request:1",
};

describe("createSessionRejection", () => {
  const rows: [string, Loose<SignedRequestEvent>, { gone?: boolean }, string[], number][] = [
    ["the key refused: cleared without asking", {}, {}, [session(1).id], 0],
    [
      "INVALID_SIGNATURE: cleared without asking",
      { code: "INVALID_SIGNATURE" },
      {},
      [session(1).id],
      0,
    ],
    [
      "UNAUTHORIZED, service lists it no more: cleared",
      { code: "UNAUTHORIZED" },
      {},
      [session(1).id],
      1,
    ],
    [
      "UNAUTHORIZED, service still lists it: kept",
      { code: "UNAUTHORIZED" },
      { gone: false },
      [],
      1,
    ],
    ["a lapsed challenge: kept", { code: "CHALLENGE_EXPIRED" }, {}, [], 0],
    ["a body mismatch: kept", { code: "WALLET_SIGNATURE_BODY_MISMATCH" }, {}, [], 0],
    ["a missing request id: kept", { code: "REQUEST_ID_MISSING" }, {}, [], 0],
    ["a 403: kept", { status: 403, code: "RELAY_FORBIDDEN" }, {}, [], 0],
    ["a 500: kept", { status: 500, code: "INTERNAL_ERROR" }, {}, [], 0],
    ["done: kept", { stage: "done", status: 200, code: undefined }, {}, [], 0],
    ["another request id: kept", { requestId: "Request:2" }, {}, [], 0],
  ];
  for (const [name, event, options, expected, asked] of rows) {
    it(name, async () => {
      const { rejection, cleared, counts } = guard(options);
      rejection.noteSignature(session(1), { leg: 2, requestId: "Request:1" });
      rejection.ended(failed(event));
      await rejection.settled();
      expect(cleared).toEqual(expected);
      expect(counts().asked).toBe(asked);
    });
  }

  it("a burst of 401s for one session clears it once; another session stays", async () => {
    const { rejection, cleared } = guard();
    for (let i = 0; i < 10; i += 1) {
      rejection.noteSignature(session(1), { leg: 2, requestId: `Request:${i}` });
    }
    rejection.noteSignature(session(2), { leg: 2, requestId: "Request:other" });
    for (let i = 0; i < 10; i += 1) rejection.ended(failed({ requestId: `Request:${i}` }));
    rejection.ended(failed({ requestId: "Request:other", stage: "done", status: 200 }));
    await rejection.settled();
    expect(cleared).toEqual([session(1).id]);
  });

  it("a tab that waited for the lock re-reads the store and clears nothing another tab cleared", async () => {
    const { rejection, cleared, counts, held } = guard({ waited: true });
    rejection.noteSignature(session(1), { leg: 2, requestId: "Request:1" });
    held.delete(session(1).id); // the other tab's clearing, seen by the sync
    rejection.ended(failed({}));
    await rejection.settled();
    expect(cleared).toEqual([]);
    expect(counts().synced).toBe(1);
  });

  it("quote execute (no request id): the session is asked about, never guessed between two", async () => {
    const direct = { mode: "direct" as const, operation: "executeQuote", requestId: undefined };
    const one = guard();
    one.rejection.noteSignature(session(1), { leg: 1, operation: "executeQuote" });
    one.rejection.ended(failed(direct));
    await one.rejection.settled();
    expect(one.cleared).toEqual([session(1).id]);
    expect(one.counts().asked).toBe(1);

    const two = guard();
    two.rejection.noteSignature(session(1), { leg: 1, operation: "executeQuote" });
    two.rejection.noteSignature(session(2), { leg: 1, operation: "executeQuote" });
    two.rejection.ended(failed(direct));
    await two.rejection.settled();
    expect(two.cleared).toEqual([]);
  });
});
