// Kept calls hardened (docs/protocol.md §2.5): a kept record is tied to its account and only ever
// names one of the resumable routes (a record planted in the origin's storage is never sent), a
// resume for some accounts leaves the others' calls alone, a lapsed record is deleted even by a
// client that does not resume, and a direct call is shown pending but never kept.
import { describe, expect, it } from "vitest";
import { CREDENTIAL_ADD } from "../actions/addPasskey.js";
import { CREDENTIAL_REVOKE } from "../actions/revokeCredential.js";
import { SESSION_REVOKE } from "../actions/revokeSession.js";
import { at } from "../catalog/actionRow.js";
import { createClient } from "../index.js";
import type { SignetEvent } from "../session/events.js";
import { createPendingView, type PendingEvent } from "./pendingCalls.js";
import {
  createMemoryPendingStore,
  isResumableRoute,
  type KeptCall,
  type PendingStore,
  readKeptCall,
} from "./pendingStore.js";
import { type ResumeSeams, resumeKeptCalls } from "./resume.js";
import { createPendingTracker } from "./track.js";

const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
const otherAccountId = "InternalAccount:99999999-9999-4999-8999-999999999999";
const sessionId = "Session:22222222-2222-4222-8222-222222222222";
const NOW = 1_800_000_000_000;

let ids = 0;
const requestId = () => `Request:00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;

/** A sign-out kept after its first PROCESSING answer, as the tracker writes it. */
const keptSignOut = (overrides: Partial<KeptCall> = {}): KeptCall => ({
  v: 1,
  action: "signOut",
  accountId,
  method: "DELETE",
  path: `/auth/sessions/${sessionId}`,
  expectedStatus: 204,
  requestId: requestId(),
  signature: "stamp-value",
  expiresAtMs: NOW + 60_000,
  since: NOW - 1_000,
  attempt: 1,
  finish: { kind: "forgetSessions", accountId, sessionId },
  ...overrides,
});

/** A store that takes whatever is written (an app's own storage, or a planted record). */
function rawStore(records: unknown[]): PendingStore & { records: Map<string, unknown> } {
  const map = new Map<string, unknown>();
  for (const r of records) map.set((r as { requestId: string }).requestId, r);
  return {
    persistence: "memory",
    records: map,
    get: async (id) => map.get(id) as KeptCall | undefined,
    set: async (call) => void map.set(call.requestId, call),
    delete: async (id) => void map.delete(id),
    list: async () => [...map.values()] as KeptCall[],
  };
}

const notASignIn = (): never => {
  throw new Error("a revoke's resume used a sign-in's seam");
};

/** Resume seams over `store` that record what would be sent and told. */
function seamsOver(store: PendingStore) {
  const sent: string[] = [];
  const told: PendingEvent[] = [];
  const view = createPendingView();
  const tracker = createPendingTracker(view, {
    store: async () => store,
    lock: (_key, task) => task(),
    now: () => NOW,
    emit: (event) => told.push(event),
  });
  const seams: ResumeSeams = {
    store,
    lock: (_key, task) => task(),
    now: () => NOW,
    has: view.has,
    told: tracker.told,
    signed: async (parameters) => {
      sent.push(`${parameters.method} ${parameters.path}`);
      return { status: parameters.expectedStatus as number, body: undefined };
    },
    read: async () => ({ data: [] }),
    held: async () => [],
    forget: async () => undefined,
    // A revoke's finish never adopts a session: any use of these fails the test.
    keys: {
      keyStore: notASignIn,
      restore: notASignIn,
      hold: notASignIn,
      emit: notASignIn,
      now: () => NOW,
      deviceNow: () => NOW,
    },
  };
  return { seams, sent, told };
}

describe("a kept record names a resumable route and its account", () => {
  it("the actions that keep their calls write paths the allowlist takes", () => {
    const credentialId = "AuthMethod:33333333-3333-4333-8333-333333333333";
    expect(isResumableRoute("addCredential", "POST", at(CREDENTIAL_ADD).path)).toBe(true);
    expect(isResumableRoute("addPasskey", "POST", at(CREDENTIAL_ADD).path)).toBe(true);
    const revoke = at(CREDENTIAL_REVOKE, [credentialId]);
    expect(isResumableRoute("revokeCredential", revoke.method, revoke.path)).toBe(true);
    const session = at(SESSION_REVOKE, [sessionId]);
    expect(isResumableRoute("signOut", session.method, session.path)).toBe(true);
    expect(isResumableRoute("revokeSession", session.method, session.path)).toBe(true);
  });

  it("reads back a sign-out as written", () => {
    const kept = keptSignOut();
    expect(readKeptCall(kept)).toBe(kept);
  });

  it.each([
    ["another path", { path: "/quotes/Quote:1/execute", method: "POST" }],
    [
      "a refresh (a sign-in, never kept)",
      { path: `/auth/sessions/${sessionId}/refresh`, method: "POST" },
    ],
    ["a path walking out of its route", { path: `/auth/sessions/${sessionId}/../../customers/x` }],
    ["a query string", { path: `/auth/sessions/${sessionId}?x=1` }],
    ["an absolute URL", { path: `https://attacker.example/auth/sessions/${sessionId}` }],
    ["another method", { method: "POST" }],
    ["a route of another action", { action: "addCredential" }],
    ["an unknown action", { action: "exportWallet" }],
    ["no account", { accountId: undefined }],
    ["an account that is not one", { accountId: "Customer:1" }],
    [
      "a finish for another account",
      { finish: { kind: "forgetSessions", accountId: otherAccountId, sessionId } },
    ],
  ])("refuses %s", (_what, change) => {
    expect(readKeptCall({ ...keptSignOut(), ...change })).toBeUndefined();
  });

  it("the memory store refuses to keep a record it would not read back", async () => {
    const store = createMemoryPendingStore();
    await expect(store.set(keptSignOut({ path: "/customers/Customer:1" }))).rejects.toThrow(
      TypeError,
    );
    expect(await store.list()).toEqual([]);
  });
});

describe("a resume", () => {
  it("never sends a planted record whose route is not resumable, and deletes it", async () => {
    const planted = { ...keptSignOut(), method: "POST", path: "/quotes/Quote:1/execute" };
    const store = rawStore([planted]);
    const { seams, sent, told } = seamsOver(store);
    expect(await resumeKeptCalls(seams)).toEqual([]);
    expect(sent).toEqual([]);
    expect(told).toEqual([]);
    expect(store.records.size).toBe(0);
  });

  it("for some accounts: another account's call is neither sent nor told, and stays kept", async () => {
    const mine = keptSignOut();
    const theirs = keptSignOut({
      accountId: otherAccountId,
      finish: { kind: "forgetSessions", accountId: otherAccountId, sessionId },
    });
    const store = rawStore([theirs, mine]);
    const { seams, sent, told } = seamsOver(store);
    const ended = await resumeKeptCalls(seams, { accountIds: [accountId] });
    expect(ended.map((e) => [e.requestId, e.outcome])).toEqual([[mine.requestId, "settled"]]);
    expect(sent).toEqual([`DELETE /auth/sessions/${sessionId}`]);
    expect(told.every((e) => e.accountId === accountId)).toBe(true);
    expect(told.map((e) => e.state)).toEqual(["settled"]);
    expect([...store.records.keys()]).toEqual([theirs.requestId]);
  });

  it("for some accounts: another account's lapsed call is deleted without a word", async () => {
    const { finish: _mine, ...unfinished } = keptSignOut();
    const theirs = { ...unfinished, accountId: otherAccountId, expiresAtMs: NOW - 1 };
    const store = rawStore([theirs]);
    const { seams, sent, told } = seamsOver(store);
    expect(await resumeKeptCalls(seams, { accountIds: [accountId] })).toEqual([]);
    expect(sent).toEqual([]);
    expect(told).toEqual([]);
    expect(store.records.size).toBe(0);
  });

  it("without re-sending (`resend: false`): lapsed calls are deleted and told, live ones stay", async () => {
    const lapsed = keptSignOut({ expiresAtMs: NOW });
    const live = keptSignOut();
    const store = rawStore([lapsed, live]);
    const { seams, sent, told } = seamsOver(store);
    const ended = await resumeKeptCalls(seams, { resend: false });
    expect(ended).toEqual([
      {
        action: "signOut",
        requestId: lapsed.requestId,
        outcome: "dropped",
        code: "CHALLENGE_EXPIRED",
      },
    ]);
    expect(told).toMatchObject([{ state: "dropped", accountId, requestId: lapsed.requestId }]);
    expect(sent).toEqual([]);
    expect([...store.records.keys()]).toEqual([live.requestId]);
  });
});

describe("the tracker", () => {
  const stamped = (path: string) => ({
    method: "DELETE",
    path,
    body: undefined,
    expectedStatus: 204,
    requestId: requestId(),
    signature: "stamp-value",
    expiresAtMs: NOW + 60_000,
    attempt: 1,
  });

  async function track(options: Parameters<ReturnType<typeof createPendingTracker>["track"]>[1]) {
    const store = createMemoryPendingStore();
    const told: PendingEvent[] = [];
    const view = createPendingView();
    const tracker = createPendingTracker(view, {
      store: async () => store,
      lock: (_key, task) => task(),
      now: () => NOW,
      emit: (event) => told.push(event),
    });
    return { store, told, view, call: tracker.track("signOut", options) };
  }

  it("keeps a call with its account, and names the account in its events", async () => {
    const { store, told, view, call } = await track({ resumable: true, accountId });
    call.onStillProcessing(stamped(`/auth/sessions/${sessionId}`));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect((await store.list()).map((k) => k.accountId)).toEqual([accountId]);
    expect(told).toMatchObject([{ state: "processing", accountId, resumable: true }]);
    expect(view.getSnapshot()).toMatchObject([{ accountId, resumable: true }]);
  });

  it("keeps nothing without an account, and says the call is not resumable", async () => {
    const { store, told, call } = await track({ resumable: true });
    call.onStillProcessing(stamped(`/auth/sessions/${sessionId}`));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await store.list()).toEqual([]);
    expect(told).toMatchObject([{ state: "processing", resumable: false }]);
  });

  it("keeps nothing for a route that is not resumable", async () => {
    const { store, told, call } = await track({ resumable: true, accountId });
    call.onStillProcessing(stamped(`/auth/sessions/${sessionId}/refresh`));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await store.list()).toEqual([]);
    expect(told).toMatchObject([{ state: "processing", resumable: false }]);
  });

  it("shows a direct call pending under its id, never kept, and tells its end", async () => {
    const { store, told, view, call } = await track({ resumable: true, accountId });
    call.onStillProcessing({ mode: "direct", requestId: "key-1", attempt: 1 });
    call.onStillProcessing({ mode: "direct", requestId: "key-1", attempt: 2 });
    expect(view.getSnapshot()).toMatchObject([
      { requestId: "key-1", attempt: 2, resumable: false },
    ]);
    call.onEnd({ mode: "direct", stage: "done", status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await store.list()).toEqual([]);
    expect(told.map((e) => [e.state, e.attempt, e.requestId])).toEqual([
      ["processing", 1, "key-1"],
      ["processing", 2, "key-1"],
      ["settled", 2, "key-1"],
    ]);
    expect(view.getSnapshot()).toEqual([]);
  });
});

describe("createClient with resumePending: false", () => {
  it("deletes a kept call whose challenge has lapsed at once, sending nothing", async () => {
    const store = createMemoryPendingStore();
    const lapsed = keptSignOut({ expiresAtMs: Date.now() - 1 });
    const live = keptSignOut({ expiresAtMs: Date.now() + 60_000 });
    await store.set(lapsed);
    await store.set(live);
    const fetched: string[] = [];
    const events: SignetEvent[] = [];
    createClient({
      relayUrl: "http://127.0.0.1:9/relay",
      pendingStore: store,
      resumePending: false,
      fetch: async (input) => {
        fetched.push(String(input));
        throw new TypeError("nothing is sent");
      },
      onEvent: (event) => events.push(event),
    });
    await expect
      .poll(async () => (await store.list()).map((k) => k.requestId))
      .toEqual([live.requestId]);
    expect(fetched).toEqual([]);
    expect(events.filter((e) => e.type === "pending")).toMatchObject([
      { state: "dropped", code: "CHALLENGE_EXPIRED", requestId: lapsed.requestId },
    ]);
  });
});

describe("client.pending.resume", () => {
  it("refuses accountIds that are not a list of ids with INVALID_ARGUMENT, sending nothing", async () => {
    const store = createMemoryPendingStore();
    const kept = keptSignOut();
    await store.set(kept);
    const client = createClient({
      relayUrl: "http://127.0.0.1:9/relay",
      pendingStore: store,
      resumePending: false,
      fetch: async () => {
        throw new TypeError("nothing is sent");
      },
    });
    const refused = await client.pending
      .resume({ accountIds: accountId as unknown as string[] })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: "SignetError", code: "INVALID_ARGUMENT" });
    expect((await store.list()).map((k) => k.requestId)).toEqual([kept.requestId]);
  });
});
