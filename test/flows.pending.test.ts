// Calls the service still answers PROCESSING for (docs/protocol.md §2.5, #850 and #854), over the
// real chain (device → relay → emulator): the pending state while they are re-sent, the kept copy
// a reload resumes (same body, stamp and request id) and finishes, one tab at a time, an expired
// copy dropped, an export that a reload cannot carry on, and the direct calls (quote execute, a
// contact-change submit) that are pending while re-sent but never kept.
import {
  addCredential,
  changeContact,
  createMemoryKeyStore,
  executeQuote,
  exportWallet,
  type FetchFunction,
  getQuote,
  isSignetError,
  signOut,
} from "@signet/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxIdToken } from "./support/oidc.js";
import { pendingOf, quiet, sharedPendingStore, until } from "./support/pendingStore.js";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());
beforeEach(() => stack.clearRequests());
afterEach(() => fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" }));

type Sent = { method: string; url: string; body: string | undefined; headers: Headers };

const record = (input: string, init: RequestInit | undefined): Sent => ({
  method: String(init?.method ?? "GET"),
  url: String(input),
  body: init?.body === undefined || init.body === null ? undefined : String(init.body),
  headers: new Headers(init?.headers),
});

/** A fetch that records what the device sends (the stamp included: never printed). */
function recording(sent: Sent[]): FetchFunction {
  return async (input, init) => {
    sent.push(record(input, init));
    return fetch(input, init);
  };
}

/**
 * A device → relay fault, once: the device's fetch (recording into `sent`) fails the first request
 * `picks` chooses. `fail`: nothing reaches the relay (the connection never opened); `lose`: the
 * relay answers (the service acted) and the answer never reaches the page. `met` lists the
 * request it failed.
 */
function faultyOnce(sent: Sent[], picks: (request: Sent) => boolean, kind: "fail" | "lose") {
  const met: Sent[] = [];
  const faulty: FetchFunction = async (input, init) => {
    const request = record(input, init);
    sent.push(request);
    if (met.length > 0 || !picks(request)) return fetch(input, init);
    met.push(request);
    if (kind === "fail") throw new TypeError("fetch failed (injected: the relay was not reached)");
    await (await fetch(input, init)).arrayBuffer();
    throw new TypeError("fetch failed (injected: the relay's answer was lost)");
  };
  return { fetch: faulty, met };
}

/** A signed-in user and the storage a reload keeps (key store and kept calls). */
async function signedIn(extra: Record<string, unknown> = {}) {
  const user = await stack.signUp(undefined, extra);
  const keyStore = createMemoryKeyStore();
  const pendingStore = sharedPendingStore();
  const first = stack.client(user.customerId, { keyStore, pendingStore });
  await signInWithEmail(first.client, user.emailCredentialId);
  const [session] = await first.client.sessions.list(user.accountId);
  if (!session) throw new Error("no session");
  return { ...user, keyStore, pendingStore, first, session };
}

/**
 * Starts `signOut` held in PROCESSING, waits until it is kept, and lets the page go (the call
 * aborted, the client destroyed), as a reload does.
 */
async function signOutThenReload(setup: Awaited<ReturnType<typeof signedIn>>, sent: Sent[]) {
  const { customerId, accountId, keyStore, pendingStore, session } = setup;
  const tab = stack.client(customerId, { keyStore, pendingStore, fetch: recording(sent) });
  await stack.fault({
    match: { method: "DELETE", path: `/auth/sessions/${session.id}` },
    count: 1000,
    kind: "processing",
  });
  const controller = new AbortController();
  const call = signOut(tab.client, { accountId, signal: controller.signal });
  await until(
    async () => (await pendingStore.list()).length === 1 && pendingOf(tab.events).length >= 2,
    "the kept call",
  );
  const shown = tab.client.pending.getSnapshot();
  controller.abort();
  await expect(call).rejects.toMatchObject({ code: "ABORTED" });
  tab.client.destroy();
  // The send in flight when the page went still reaches the service (the relay does not cut its
  // upstream call when the page goes): let every send the page made land on the armed fault
  // before the faults go. A wait on a quiet log alone let a loaded machine's straggler through.
  const path = `/auth/sessions/${session.id}`;
  const made = sent.filter((s) => s.method === "DELETE" && s.url.endsWith(path)).length;
  const landed = async () =>
    (await stack.requests()).filter((r) => r.method === "DELETE" && r.path.endsWith(path)).length;
  await until(async () => (await landed()) >= made, "the page's last send at the service");
  await quiet(stack);
  await fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" });
  return { tab, shown };
}

describe("a call still processing", () => {
  it("is pending while re-sent: events and the snapshot name the action and the attempt, never the stamp", async () => {
    const setup = await signedIn();
    const sent: Sent[] = [];
    const { tab, shown } = await signOutThenReload(setup, sent);
    expect(shown).toEqual([
      {
        action: "signOut",
        requestId: expect.stringMatching(/^Request:/),
        accountId: setup.accountId,
        since: expect.any(Number),
        attempt: expect.any(Number),
        resumed: false,
        resumable: true,
      },
    ]);
    const events = pendingOf(tab.events);
    expect(events.map((e) => e.state).slice(0, 2)).toEqual(["processing", "processing"]);
    expect(events.map((e) => e.attempt).slice(0, 2)).toEqual([1, 2]);
    expect(new Set(events.map((e) => e.since)).size).toBe(1);
    // Given up in this tab (aborted): still in flight at the service, so the copy stays.
    expect(events.at(-1)).toMatchObject({ state: "failed", code: "ABORTED", action: "signOut" });
    const stamp = sent.find((s) => s.headers.has("Grid-Wallet-Signature"))!.headers;
    const signature = stamp.get("Grid-Wallet-Signature")!;
    expect(JSON.stringify(tab.events)).not.toContain(signature);
    const [kept] = await setup.pendingStore.list();
    expect(kept).toMatchObject({ action: "signOut", method: "DELETE", signature });
    expect(kept?.requestId).toBe(stamp.get("Request-Id"));
    // No private key travels with it: the finish names the session, not its key.
    expect(Object.keys(kept!).sort()).toEqual(
      [
        "accountId",
        "action",
        "attempt",
        "expectedStatus",
        "expiresAtMs",
        "finish",
        "method",
        "path",
        "requestId",
        "signature",
        "since",
        "v",
      ].sort(),
    );
    expect(kept?.finish).toEqual({
      kind: "forgetSessions",
      accountId: setup.accountId,
      sessionId: setup.session.id,
    });
  });

  it("resumes after a reload: the identical request re-sent to its end, then the session forgotten", async () => {
    const setup = await signedIn();
    const before: Sent[] = [];
    await signOutThenReload(setup, before);
    const [kept] = await setup.pendingStore.list();
    await stack.clearRequests();
    await stack.fault({
      match: { method: "DELETE", path: `/auth/sessions/${setup.session.id}` },
      count: 2,
      kind: "processing",
    });
    const after: Sent[] = [];
    const reloaded = stack.client(setup.customerId, {
      keyStore: setup.keyStore,
      pendingStore: setup.pendingStore,
      fetch: recording(after),
    });
    // createClient started the resume; asking again joins it.
    const ended = await reloaded.client.pending.resume();
    expect(ended).toEqual([
      {
        action: "signOut",
        requestId: kept!.requestId,
        outcome: "settled",
        status: 204,
        body: undefined,
      },
    ]);
    const signed = (list: Sent[]) =>
      list.filter((s) => s.method === "DELETE" && s.headers.has("Request-Id"));
    const [original] = signed(before);
    expect(signed(after).length).toBe(3);
    for (const resent of signed(after)) {
      expect(resent.url).toBe(original!.url);
      expect(resent.body).toBe(original!.body);
      expect(resent.headers.get("Request-Id")).toBe(original!.headers.get("Request-Id"));
      expect(resent.headers.get("Grid-Wallet-Signature")).toBe(
        original!.headers.get("Grid-Wallet-Signature"),
      );
    }
    // No new challenge: the resume only re-sends.
    const log = (await stack.requests()).filter((r) => r.method === "DELETE");
    expect(log.map((r) => r.fault ?? r.status)).toEqual(["processing", "processing", 204]);
    expect(await reloaded.client.sessions.list(setup.accountId)).toEqual([]);
    expect(await setup.pendingStore.list()).toEqual([]);
    expect(reloaded.client.pending.getSnapshot()).toEqual([]);
    expect(pendingOf(reloaded.events).map((e) => [e.state, e.attempt])).toEqual([
      ["resumed", kept!.attempt],
      ["processing", 1],
      ["processing", 2],
      // The end tells the kept copy's count: the previous page's answers (how many it saw
      // before it went depends on when the reload came) or this page's, whichever is more.
      ["settled", Math.max(kept!.attempt, 2)],
    ]);
  });

  it("is resumed by one tab only: a second tab waits for the lock and finds it done", async () => {
    const locks = installLocks();
    try {
      const setup = await signedIn();
      await signOutThenReload(setup, []);
      await stack.clearRequests();
      await stack.fault({
        match: { method: "DELETE", path: `/auth/sessions/${setup.session.id}` },
        count: 3,
        kind: "processing",
      });
      const shared = { keyStore: setup.keyStore, pendingStore: setup.pendingStore };
      const one = stack.client(setup.customerId, { ...shared, resumePending: false });
      const two = stack.client(setup.customerId, { ...shared, resumePending: false });
      const [a, b] = await Promise.all([one.client.pending.resume(), two.client.pending.resume()]);
      // One tab carried it to its end; the other found nothing left once it held the lock.
      expect([...a, ...b].map((r) => r.outcome)).toEqual(["settled"]);
      const log = (await stack.requests()).filter((r) => r.method === "DELETE");
      // Never a re-send after the terminal answer (which would meet the spent id's 401).
      expect(log.map((r) => r.fault ?? r.status)).toEqual([
        "processing",
        "processing",
        "processing",
        204,
      ]);
      expect(locks.held()).toEqual([]);
    } finally {
      locks.remove();
    }
  });

  it("drops a kept call whose challenge has lapsed, sending nothing", async () => {
    const setup = await signedIn();
    await signOutThenReload(setup, []);
    const [kept] = await setup.pendingStore.list();
    await setup.pendingStore.set({ ...kept!, expiresAtMs: Date.now() - 1 });
    await stack.clearRequests();
    const reloaded = stack.client(setup.customerId, {
      keyStore: setup.keyStore,
      pendingStore: setup.pendingStore,
    });
    expect(await reloaded.client.pending.resume()).toEqual([
      {
        action: "signOut",
        requestId: kept!.requestId,
        outcome: "dropped",
        code: "CHALLENGE_EXPIRED",
      },
    ]);
    expect(pendingOf(reloaded.events)).toMatchObject([
      { state: "dropped", code: "CHALLENGE_EXPIRED", action: "signOut" },
    ]);
    expect((await stack.requests()).filter((r) => r.method === "DELETE")).toEqual([]);
    expect(await setup.pendingStore.list()).toEqual([]);
  });

  it("settles by asking when the send of the page before landed after it went (the re-send meets the session gone)", async () => {
    const setup = await signedIn();
    const before: Sent[] = [];
    await signOutThenReload(setup, before);
    // The last send of the page before, answered after the reload cut it: the service acted.
    const original = before.find((s) => s.headers.has("Request-Id"))!;
    const landed = await fetch(original.url, { method: "DELETE", headers: original.headers });
    expect(landed.status).toBe(204);
    await stack.clearRequests();
    const reloaded = stack.client(setup.customerId, {
      keyStore: setup.keyStore,
      pendingStore: setup.pendingStore,
    });
    const [ended] = await reloaded.client.pending.resume();
    expect(ended).toMatchObject({ action: "signOut", outcome: "settled", status: 204 });
    const log = (await stack.requests()).filter((r) => !r.path.startsWith("/customers"));
    expect(log.map((r) => `${r.method} ${r.path.split("?")[0]} ${r.status}`)).toEqual([
      `DELETE /auth/sessions/${setup.session.id} 404`,
      "GET /auth/sessions 200",
    ]);
    expect(pendingOf(reloaded.events).map((e) => e.state)).toEqual(["resumed", "settled"]);
    expect(await setup.pendingStore.list()).toEqual([]);
  });

  it("an export is pending but never kept: its one-time key dies with the page", async () => {
    const setup = await signedIn();
    const { client, events } = setup.first;
    await stack.fault({
      match: { method: "POST", path: `/internal-accounts/${setup.accountId}/export` },
      count: 2,
      kind: "processing",
    });
    let keptMeanwhile = 0;
    const mnemonic = await exportWallet(client, {
      accountId: setup.accountId,
      onEvent: (event) => {
        if (event.type === "pending" && event.state === "processing")
          setup.pendingStore.list().then((l) => {
            keptMeanwhile += l.length;
          });
      },
    });
    expect(mnemonic.split(" ")).toHaveLength(12);
    expect(pendingOf(events).map((e) => [e.state, e.action, e.resumable])).toEqual([
      ["processing", "exportWallet", false],
      ["processing", "exportWallet", false],
      ["settled", "exportWallet", false],
    ]);
    expect(keptMeanwhile).toBe(0);
    expect(await setup.pendingStore.list()).toEqual([]);
  });

  it("a credential add answered PROCESSING settles in the tab, its kept copy deleted", async () => {
    const setup = await signedIn({ phoneNumber: "+14155550123" });
    const { client, events } = setup.first;
    await stack.fault({
      match: { method: "POST", path: "/auth/credentials" },
      count: 2,
      kind: "processing",
    });
    const added = await addCredential(client, {
      accountId: setup.accountId,
      type: "SMS_OTP",
      phoneNumber: "+14155550123",
    }).catch((error: unknown) => (isSignetError(error) ? error : Promise.reject(error)));
    expect(added).toMatchObject({ type: "SMS_OTP" });
    expect(pendingOf(events).map((e) => e.state)).toEqual(["processing", "processing", "settled"]);
    await until(async () => (await setup.pendingStore.list()).length === 0, "the copy's delete");
  });

  it("an OAuth credential add is pending but never kept: its ID token is never written to storage", async () => {
    const setup = await signedIn();
    const { client, events } = setup.first;
    await stack.fault({
      match: { method: "POST", path: "/auth/credentials" },
      count: 2,
      kind: "processing",
    });
    const oidcToken = sandboxIdToken({ sub: `google-pending-${Date.now()}` });
    const kept: string[] = [];
    const added = await addCredential(client, {
      accountId: setup.accountId,
      type: "OAUTH",
      oidcToken,
      onEvent: (event) => {
        if (event.type === "pending" && event.state === "processing")
          setup.pendingStore.list().then((calls) => {
            for (const call of calls) kept.push(JSON.stringify(call));
          });
      },
    });
    expect(added).toMatchObject({ type: "OAUTH" });
    expect(pendingOf(events).map((e) => [e.state, e.resumable])).toEqual([
      ["processing", false],
      ["processing", false],
      ["settled", false],
    ]);
    expect(kept).toEqual([]);
    expect(JSON.stringify(await setup.pendingStore.list())).not.toContain(oidcToken);
  });
});

describe("a direct call still processing (no Request-Id: shown, never kept)", () => {
  it("a quote execute answered PROCESSING is pending under its Idempotency-Key, then settles; nothing is kept", async () => {
    const setup = await signedIn();
    const { quoteId } = await stack.walletQuote(setup);
    const sent: Sent[] = [];
    const tab = stack.client(setup.customerId, {
      keyStore: setup.keyStore,
      pendingStore: setup.pendingStore,
      fetch: recording(sent),
    });
    const quote = await getQuote(tab.client, { quoteId });
    await stack.fault({
      match: { method: "POST", path: `/quotes/${quoteId}/execute` },
      count: 2,
      kind: "processing",
    });
    const shown: unknown[] = [];
    const kept: number[] = [];
    const executed = await executeQuote(tab.client, {
      quote,
      onEvent: (event) => {
        if (event.type !== "pending" || event.state !== "processing") return;
        shown.push(tab.client.pending.getSnapshot());
        setup.pendingStore.list().then((calls) => kept.push(calls.length));
      },
    });
    expect(executed.id).toBe(quoteId);
    const executes = sent.filter((s) => s.url.endsWith(`/quotes/${quoteId}/execute`));
    expect(executes).toHaveLength(3);
    const key = executes[0]!.headers.get("Idempotency-Key");
    expect(key).toBeTruthy();
    const events = pendingOf(tab.events);
    expect(events.map((e) => [e.state, e.action, e.attempt, e.resumable])).toEqual([
      ["processing", "executeQuote", 1, false],
      ["processing", "executeQuote", 2, false],
      ["settled", "executeQuote", 2, false],
    ]);
    expect(events.every((e) => e.requestId === key)).toBe(true);
    expect(events.at(-1)?.status).toBe(200);
    expect(shown[0]).toEqual([
      {
        action: "executeQuote",
        requestId: key,
        since: expect.any(Number),
        attempt: 1,
        resumed: false,
        resumable: false,
      },
    ]);
    expect(tab.client.pending.getSnapshot()).toEqual([]);
    const signature = executes[0]!.headers.get("Grid-Wallet-Signature")!;
    expect(JSON.stringify(tab.events)).not.toContain(signature);
    await until(() => kept.length === 2, "the store reads");
    expect(kept).toEqual([0, 0]);
    expect(await setup.pendingStore.list()).toEqual([]);
  });

  it("a quote execute that ends in an error after PROCESSING tells `failed` with its code", async () => {
    const setup = await signedIn();
    const { quoteId } = await stack.walletQuote(setup);
    const quote = await getQuote(setup.first.client, { quoteId });
    await stack.fault({
      faults: [
        { match: { method: "POST", path: `/quotes/${quoteId}/execute` }, kind: "processing" },
        {
          match: { method: "POST", path: `/quotes/${quoteId}/execute` },
          kind: "error",
          at: "signed",
          status: 409,
          code: "QUOTE_ALREADY_EXECUTED",
        },
      ],
    });
    const error = await executeQuote(setup.first.client, { quote }).catch((e: unknown) => e);
    expect(isSignetError(error)).toBe(true);
    const events = pendingOf(setup.first.events).filter((e) => e.action === "executeQuote");
    expect(events.map((e) => [e.state, e.status])).toEqual([
      ["processing", undefined],
      ["failed", 409],
    ]);
    expect(events.at(-1)?.code).toBe((error as { code: string }).code);
    expect(setup.first.client.pending.getSnapshot()).toEqual([]);
  });

  it("a contact-change submit answered PROCESSING is pending, then settles; nothing is kept", async () => {
    const user = await stack.signUp();
    const pendingStore = sharedPendingStore();
    const tab = stack.client(user.customerId, { contactChanges: "resource", pendingStore });
    await signInWithEmail(tab.client, user.emailCredentialId);
    await stack.fault({
      match: { method: "POST", path: `/customers/${user.customerId}/contact-changes/` },
      kind: "processing",
      count: 2,
    });
    const kept: number[] = [];
    const outcome = await changeContact(tab.client, {
      customerId: user.customerId,
      accountId: user.accountId,
      email: `pending-${Date.now()}@example.com`,
      onEvent: (event) => {
        if (event.type === "pending" && event.state === "processing")
          pendingStore.list().then((calls) => kept.push(calls.length));
      },
    });
    expect(outcome).toMatchObject({ via: "resource", status: "APPLIED" });
    const events = pendingOf(tab.events);
    expect(events.map((e) => [e.state, e.action, e.attempt, e.resumable])).toEqual([
      ["processing", "changeContact", 1, false],
      ["processing", "changeContact", 2, false],
      ["settled", "changeContact", 2, false],
    ]);
    // No Idempotency-Key on a submit: the device names the call itself, one id throughout.
    expect(new Set(events.map((e) => e.requestId)).size).toBe(1);
    expect(events[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => kept.length === 2, "the store reads");
    expect(kept).toEqual([0, 0]);
    expect(tab.client.pending.getSnapshot()).toEqual([]);
  });
});

/**
 * The reloaded page's client, under the library's default retry policy: the stack's clients pin
 * a short backoff, and a recovery is tested as users get it.
 */
function reloadWithDefaults(
  setup: Awaited<ReturnType<typeof signedIn>>,
  fetchFunction: FetchFunction,
) {
  return stack.client(setup.customerId, {
    keyStore: setup.keyStore,
    pendingStore: setup.pendingStore,
    fetch: fetchFunction,
    signedRequests: undefined,
  });
}

/** The device's signed DELETEs: the resume's re-sends of the kept call. */
const resends = (sent: Sent[]) =>
  sent.filter((s) => s.method === "DELETE" && s.headers.has("Request-Id"));

/** The emulator's log of the session's DELETE and the sessions list, as `method path outcome`. */
async function serviceLog(sessionId: string) {
  return (await stack.requests())
    .filter(
      (r) =>
        (r.method === "DELETE" && r.path.endsWith(`/auth/sessions/${sessionId}`)) ||
        (r.method === "GET" && r.path.split("?")[0]!.endsWith("/auth/sessions")),
    )
    .map((r) => `${r.method} ${r.fault ?? r.status}`);
}

/**
 * The end every recovered resume must reach: settled once (204), the held session forgotten,
 * the kept copy deleted, and the session gone at the service (read last: the read is logged).
 */
async function expectResumedOnce(
  setup: Awaited<ReturnType<typeof signedIn>>,
  reloaded: ReturnType<Stack["client"]>,
  ended: Awaited<ReturnType<ReturnType<Stack["client"]>["client"]["pending"]["resume"]>>,
  requestId: string,
) {
  expect(ended).toEqual([
    { action: "signOut", requestId, outcome: "settled", status: 204, body: undefined },
  ]);
  expect(await reloaded.client.sessions.list(setup.accountId)).toEqual([]);
  expect(await setup.pendingStore.list()).toEqual([]);
  expect(pendingOf(reloaded.events).map((e) => e.state)).toEqual(["resumed", "settled"]);
  const listed = await stack.platform<{ data: { id: string }[] }>(
    "GET",
    `/auth/sessions?accountId=${setup.accountId}`,
  );
  expect(listed.body.data.map((s) => s.id)).not.toContain(setup.session.id);
}

describe("a resumed call whose recovery meets a fault (default retry policy)", () => {
  it("relay → service: the resume's re-send dropped before the service read it is sent again, and ends once", async () => {
    const setup = await signedIn();
    await signOutThenReload(setup, []);
    const [kept] = await setup.pendingStore.list();
    await stack.clearRequests();
    await stack.fault({
      match: { method: "DELETE", path: `/auth/sessions/${setup.session.id}` },
      kind: "drop",
    });
    const after: Sent[] = [];
    const reloaded = reloadWithDefaults(setup, recording(after));
    const ended = await reloaded.client.pending.resume();
    const log = await serviceLog(setup.session.id);
    await expectResumedOnce(setup, reloaded, ended, kept!.requestId);
    // The same stamp and request id twice: the dropped one, then the one the service took.
    expect(resends(after)).toHaveLength(2);
    expect(new Set(resends(after).map((s) => s.headers.get("Grid-Wallet-Signature"))).size).toBe(1);
    expect(log).toEqual(["DELETE drop", "DELETE 204"]);
  });

  it("relay → service: the resume's re-send answered 503 is sent again, and ends once", async () => {
    const setup = await signedIn();
    await signOutThenReload(setup, []);
    const [kept] = await setup.pendingStore.list();
    await stack.clearRequests();
    await stack.fault({
      match: { method: "DELETE", path: `/auth/sessions/${setup.session.id}` },
      kind: "error",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
    });
    const after: Sent[] = [];
    const reloaded = reloadWithDefaults(setup, recording(after));
    const ended = await reloaded.client.pending.resume();
    const log = await serviceLog(setup.session.id);
    await expectResumedOnce(setup, reloaded, ended, kept!.requestId);
    expect(resends(after)).toHaveLength(2);
    expect(log).toEqual(["DELETE error", "DELETE 204"]);
  });

  it("device → relay: the new page's re-send fails before reaching the relay; sent again, ends once", async () => {
    const setup = await signedIn();
    await signOutThenReload(setup, []);
    const [kept] = await setup.pendingStore.list();
    await stack.clearRequests();
    const after: Sent[] = [];
    const device = faultyOnce(after, (s) => resends([s]).length === 1, "fail");
    const reloaded = reloadWithDefaults(setup, device.fetch);
    const ended = await reloaded.client.pending.resume();
    const log = await serviceLog(setup.session.id);
    await expectResumedOnce(setup, reloaded, ended, kept!.requestId);
    expect(device.met).toHaveLength(1);
    expect(resends(after)).toHaveLength(2);
    // The service saw only the one that reached it.
    expect(log).toEqual(["DELETE 204"]);
  });

  it("device → relay: the re-send's answer is lost after the service acted; the spent id is settled by reading, applied once", async () => {
    const setup = await signedIn();
    await signOutThenReload(setup, []);
    const [kept] = await setup.pendingStore.list();
    await stack.clearRequests();
    const after: Sent[] = [];
    const device = faultyOnce(after, (s) => resends([s]).length === 1, "lose");
    const reloaded = reloadWithDefaults(setup, device.fetch);
    const ended = await reloaded.client.pending.resume();
    const log = await serviceLog(setup.session.id);
    await expectResumedOnce(setup, reloaded, ended, kept!.requestId);
    expect(device.met).toHaveLength(1);
    // Revoked by the first re-send (its answer lost); the second finds the session gone, and
    // the list read says the call ended. One revoke.
    expect(log).toEqual(["DELETE 204", "DELETE 404", "GET 200"]);
  });

  // A 5xx, not a dropped connection: Node's fetch in the relay sends an idempotent GET again by
  // itself when its pooled connection is cut, which would leave the device's own retry untested.
  it("relay → service: the list read that settles a spent request id is answered 500 once, read again, and settles", async () => {
    const setup = await signedIn();
    const before: Sent[] = [];
    await signOutThenReload(setup, before);
    const [kept] = await setup.pendingStore.list();
    // The send of the page before landed after it went: the service revoked the session.
    const original = before.find((s) => s.headers.has("Request-Id"))!;
    expect(
      (await fetch(original.url, { method: "DELETE", headers: original.headers })).status,
    ).toBe(204);
    await stack.clearRequests();
    await stack.fault({ match: { method: "GET", path: "/auth/sessions" }, kind: "error" });
    const reloaded = reloadWithDefaults(setup, recording([]));
    const ended = await reloaded.client.pending.resume();
    const log = await serviceLog(setup.session.id);
    await expectResumedOnce(setup, reloaded, ended, kept!.requestId);
    expect(log).toEqual(["DELETE 404", "GET error", "GET 200"]);
  });

  it("device → relay: the list read that settles a spent request id loses its answer once, is read again, and settles", async () => {
    const setup = await signedIn();
    const before: Sent[] = [];
    await signOutThenReload(setup, before);
    const [kept] = await setup.pendingStore.list();
    const original = before.find((s) => s.headers.has("Request-Id"))!;
    expect(
      (await fetch(original.url, { method: "DELETE", headers: original.headers })).status,
    ).toBe(204);
    await stack.clearRequests();
    const after: Sent[] = [];
    const device = faultyOnce(
      after,
      (s) => s.method === "GET" && new URL(s.url).pathname.endsWith("/auth/sessions"),
      "lose",
    );
    const reloaded = reloadWithDefaults(setup, device.fetch);
    const ended = await reloaded.client.pending.resume();
    const log = await serviceLog(setup.session.id);
    await expectResumedOnce(setup, reloaded, ended, kept!.requestId);
    expect(device.met).toHaveLength(1);
    // The service answered both reads; the page heard the second.
    expect(log).toEqual(["DELETE 404", "GET 200", "GET 200"]);
  });
});

/** Web Locks, as a browser's tabs share them, for the tabs of one test process. */
function installLocks() {
  const queues = new Map<string, Promise<unknown>>();
  const holding = new Set<string>();
  const navigatorLike = {
    locks: {
      request<T>(name: string, callback: () => Promise<T>): Promise<T> {
        const before = queues.get(name) ?? Promise.resolve();
        const run = before
          .catch(() => undefined)
          .then(async () => {
            holding.add(name);
            try {
              return await callback();
            } finally {
              holding.delete(name);
            }
          });
        queues.set(name, run);
        return run;
      },
    },
  };
  const had = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  Object.defineProperty(globalThis, "navigator", { value: navigatorLike, configurable: true });
  return {
    held: () => [...holding],
    remove() {
      if (had) Object.defineProperty(globalThis, "navigator", had);
      else Reflect.deleteProperty(globalThis, "navigator");
    },
  };
}
