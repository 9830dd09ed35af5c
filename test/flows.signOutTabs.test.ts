// Sign-out in several tabs at once, over real HTTP (core → relay → emulator): the tabs of an origin
// share one key store, so one revoke per session goes out however many tabs (or calls in one tab)
// sign out together, and every caller resolves. Tabs are clients sharing a memory key store, a
// lock manager with Web Locks' queueing (the browser's, which Node 20 lacks) and Node's
// BroadcastChannel (which reaches every channel of the name in the process, as a browser's reaches
// every tab of the origin).
import { createMemoryKeyStore, type SignetEvent, signOut } from "@signet/core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** Web Locks' `request`: callbacks of one name run one after the other, in the order asked. */
function lockManager() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const run = (tails.get(name) ?? Promise.resolve()).then(callback, callback);
      tails.set(
        name,
        run.catch(() => {}),
      );
      return run;
    },
  };
}

const opened: { destroy(): void }[] = [];
let hadNavigator: PropertyDescriptor | undefined;
beforeEach(() => {
  hadNavigator = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  Object.defineProperty(globalThis, "navigator", {
    value: { ...(globalThis as { navigator?: object }).navigator, locks: lockManager() },
    configurable: true,
    writable: true,
  });
});
afterEach(() => {
  for (const client of opened.splice(0)) client.destroy();
  if (hadNavigator) Object.defineProperty(globalThis, "navigator", hadNavigator);
  else delete (globalThis as { navigator?: unknown }).navigator;
});

/** A customer signed in twice (two sessions) in the first of `count` tabs; every tab holds both. */
async function tabsSignedIn(count: number) {
  const user = await stack.signUp();
  const keyStore = createMemoryKeyStore();
  const tabs = Array.from({ length: count }, () => {
    const tab = stack.client(user.customerId, { keyStore });
    opened.push(tab.client);
    return tab;
  });
  const first = await signInWithEmail(tabs[0]!.client, user.emailCredentialId);
  const second = await signInWithEmail(tabs[0]!.client, user.emailCredentialId);
  await Promise.all(tabs.map((tab) => tab.client.sessions.sync()));
  for (const tab of tabs) {
    expect(tab.client.sessions.getSnapshot()[user.accountId]).toHaveLength(2);
  }
  await stack.clearRequests();
  return { user, keyStore, tabs, sessionIds: [first.id, second.id].sort() };
}

/** The signed session DELETEs the emulator received, as `path status`. */
async function revokes() {
  return (await stack.requests())
    .filter((r) => r.method === "DELETE" && r.path.startsWith("/auth/sessions/") && r.hasSignature)
    .map((r) => `${r.path} ${r.status}`)
    .sort();
}

const signedOutIds = (events: SignetEvent[]) =>
  events.flatMap((e) => (e.type === "session" && e.action === "signedOut" ? [e.sessionId] : []));

describe("sign-out in several tabs at once", () => {
  it("two tabs: one revoke per session, both calls resolve, the store and both tabs are empty", async () => {
    const { user, keyStore, tabs, sessionIds } = await tabsSignedIn(2);
    const results = await Promise.allSettled(
      tabs.map((tab) => signOut(tab.client, { accountId: user.accountId })),
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    // Each session revoked once, and no revoke met a session already gone (404, or the relay's 403).
    expect(await revokes()).toEqual(sessionIds.map((id) => `/auth/sessions/${id} 204`));
    expect(await keyStore.list()).toEqual([]);
    for (const tab of tabs) expect(tab.client.sessions.getSnapshot()).toEqual({});
    // The tab that revoked says so once per session; the tab that waited found nothing to do.
    const told = tabs.map((tab) => signedOutIds(tab.events).sort());
    expect(told).toContainEqual(sessionIds);
    expect(told).toContainEqual([]);
  });

  it("four tabs: still one revoke per session", async () => {
    const { user, keyStore, tabs, sessionIds } = await tabsSignedIn(4);
    await Promise.all(tabs.map((tab) => signOut(tab.client, { accountId: user.accountId })));
    expect(await revokes()).toEqual(sessionIds.map((id) => `/auth/sessions/${id} 204`));
    expect(await keyStore.list()).toEqual([]);
    expect(tabs.flatMap((tab) => signedOutIds(tab.events)).sort()).toEqual(sessionIds);
  });

  it("calls at once in one tab share its sign-out", async () => {
    const { user, tabs, sessionIds } = await tabsSignedIn(1);
    const tab = tabs[0]!;
    const calls = [1, 2, 3].map(() => signOut(tab.client, { accountId: user.accountId }));
    await expect(Promise.all(calls)).resolves.toEqual([undefined, undefined, undefined]);
    expect(await revokes()).toEqual(sessionIds.map((id) => `/auth/sessions/${id} 204`));
    expect(signedOutIds(tab.events).sort()).toEqual(sessionIds);
  });

  it("a tab that signs out after another tab did sends nothing", async () => {
    const { user, keyStore, tabs, sessionIds } = await tabsSignedIn(2);
    // Tab 1 hears nothing from tab 0 (as when the word comes late): destroy() closes its channel,
    // and the client stays usable. It still holds both sessions in memory when it signs out.
    tabs[1]!.client.destroy();
    await signOut(tabs[0]!.client, { accountId: user.accountId });
    expect(tabs[1]!.client.sessions.getSnapshot()[user.accountId]).toHaveLength(2);
    await signOut(tabs[1]!.client, { accountId: user.accountId });
    expect(await revokes()).toEqual(sessionIds.map((id) => `/auth/sessions/${id} 204`));
    expect(await keyStore.list()).toEqual([]);
    expect(tabs[1]!.client.sessions.getSnapshot()).toEqual({});
    expect(signedOutIds(tabs[1]!.events)).toEqual([]);
  });

  it("the next sign-in after a shared sign-out signs in and out as usual", async () => {
    const { user, keyStore, tabs } = await tabsSignedIn(2);
    await Promise.all(tabs.map((tab) => signOut(tab.client, { accountId: user.accountId })));
    const again = await signInWithEmail(tabs[1]!.client, user.emailCredentialId);
    await stack.clearRequests();
    await signOut(tabs[0]!.client, { accountId: user.accountId });
    expect(await revokes()).toEqual([`/auth/sessions/${again.id} 204`]);
    expect(await keyStore.list()).toEqual([]);
  });
});
