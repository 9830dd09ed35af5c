// Reliability of held sessions, as counts (RELIABILITY.md "Key hygiene" and "Several tabs"): real
// sign-ins through core → relay → emulator over HTTP. `npm test` runs it with small counts and
// asserts each must-never is 0; `pnpm reliability` runs it with large ones and prints the counts.
import { inspect } from "node:util";
import {
  type CreateClientParameters,
  type CryptoApi,
  createCryptoApi,
  createMemoryKeyStore,
  createWebCryptoBackend,
  type KeyStore,
  refreshSession,
  revokeSession,
  type SignetClient,
  type SignetEvent,
  signOut,
  updateWalletPrivacy,
} from "@signet/core";
import { createNobleBackend } from "../../packages/core/src/crypto/noble.js";
import { createStringKeyStore } from "../../packages/core/src/keys/string-store.js";
import { signInWithEmail } from "../support/signIn.js";
import type { Stack } from "../support/stack.js";

type Tab = { client: SignetClient; events: SignetEvent[] };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Every spelling of a scalar a dump could hold it in. */
const spellings = (scalarHex: string) => {
  const bytes = Buffer.from(scalarHex, "hex");
  return [
    scalarHex,
    scalarHex.toUpperCase(),
    bytes.toString("base64"),
    bytes.toString("base64url"),
  ];
};
const occurrences = (text: string, scalars: readonly string[]) =>
  scalars.reduce(
    (sum, scalar) => sum + spellings(scalar).filter((form) => text.includes(form)).length,
    0,
  );

/** Waits until `done()` holds, for at most `ms` (propagation between tabs is asynchronous). */
async function until(done: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

/**
 * A crypto API whose session keys come from scalars this run knows (imported, so the engine's
 * defaults apply: non-extractable under WebCrypto), to look for them in dumps afterwards.
 */
function knownScalars(api: CryptoApi, random: (n: number) => Uint8Array) {
  const scalars: string[] = [];
  const crypto: CryptoApi = {
    ...api,
    generateSigningKey: async () => {
      const scalar = hex(random(32));
      scalars.push(scalar);
      return api.importSigningKey(scalar);
    },
  };
  return { crypto, scalars };
}

/** One row of the key hygiene table. */
export type KeyHygieneRow = {
  engine: string;
  /** Where the keys were kept in this run. */
  store: string;
  signIns: number;
  keysHeld: number;
  /** WebCrypto: private keys that `crypto.subtle.exportKey` could read. */
  exportable: number;
  /** Noble: keys kept as a scalar, which only the app's secure store protects (by design). */
  scalarRecords: number;
  /**
   * The search's own check: the scalars found where they are meant to be (noble's record field),
   * so that a 0 elsewhere is a search that works finding nothing.
   */
  scalarInOwnRecord: number;
  /** The scalar (hex, HEX, base64, base64url) in the store's dump outside the key's own record field. */
  scalarInStoreDump: number;
  /** The scalar in the events, the session snapshot, the key ids or the errors. */
  scalarInEventsOrErrors: number;
  keysLeftAfterSignOut: number;
  keysLeftAfterRejected: number;
  keysLeftAfterLost: number;
};

type Engine = {
  name: string;
  store: string;
  api: CryptoApi;
  random: (n: number) => Uint8Array;
  /** A fresh store and what a script dumping it would read. */
  makeStore(): { keyStore: KeyStore; dump(): Promise<string>; raw?(): string };
};

const webCrypto = (): Engine => {
  const backend = createWebCryptoBackend();
  return {
    name: "WebCrypto (Node)",
    store: "key objects in memory, as IndexedDB holds them",
    api: createCryptoApi(backend),
    random: (n) => backend.randomBytes(n),
    makeStore() {
      const keyStore = createMemoryKeyStore();
      return {
        keyStore,
        async dump() {
          const records = await Promise.all(
            (await keyStore.list()).map(async (id) => ({ id, record: await keyStore.get(id) })),
          );
          // What structured clone keeps of a CryptoKey is what inspect shows of it, and more.
          return `${inspect(records, { depth: null, showHidden: true })}${JSON.stringify(records)}`;
        },
      };
    },
  };
};

const noble = (): Engine => {
  const backend = createNobleBackend();
  return {
    name: "noble",
    store: "createStringKeyStore over a string store (the secure store's place)",
    api: createCryptoApi(backend),
    random: (n) => backend.randomBytes(n),
    makeStore() {
      const entries = new Map<string, string>();
      const keyStore = createStringKeyStore({
        getItem: (key) => entries.get(key),
        setItem: (key, value) => void entries.set(key, value),
        removeItem: (key) => void entries.delete(key),
      });
      return {
        keyStore,
        raw: () => [...entries].join("\n"),
        async dump() {
          // The record's own `privateKey` field is the secure store's to protect; any other place
          // a scalar shows up in (ids, other fields, other entries) is a leak.
          return [...entries]
            .map(([key, value]) => {
              let parsed: unknown = value;
              try {
                parsed = JSON.parse(value);
              } catch {}
              if (parsed && typeof parsed === "object" && "privateKey" in parsed) {
                const { privateKey: _secret, ...rest } = parsed as Record<string, unknown>;
                parsed = rest;
              }
              return `${key}=${JSON.stringify(parsed)}`;
            })
            .join("\n");
        },
      };
    },
  };
};

/**
 * Key hygiene per engine, over `signIns` rounds of: sign in (check the key and dump the store),
 * sign out (count keys left); sign in and make the stored key unreadable, reload (lost); sign in,
 * have another device revoke the session, make a signed call (rejected, 401).
 */
export async function runKeyHygiene(
  stack: Stack,
  { signIns }: { signIns: number },
): Promise<KeyHygieneRow[]> {
  const rows: KeyHygieneRow[] = [];
  for (const engine of [webCrypto(), noble()]) {
    const row: KeyHygieneRow = {
      engine: engine.name,
      store: engine.store,
      signIns: 0,
      keysHeld: 0,
      exportable: 0,
      scalarRecords: 0,
      scalarInOwnRecord: 0,
      scalarInStoreDump: 0,
      scalarInEventsOrErrors: 0,
      keysLeftAfterSignOut: 0,
      keysLeftAfterRejected: 0,
      keysLeftAfterLost: 0,
    };
    for (let i = 0; i < signIns; i += 1) {
      const user = await stack.signUp();
      const { crypto, scalars } = knownScalars(engine.api, engine.random);
      const device = (keyStore: KeyStore, extra: Partial<CreateClientParameters> = {}) =>
        stack.client(user.customerId, { crypto, keyStore, ...extra });
      const errors: unknown[] = [];

      // 1. Sign in, look at the key, dump the store; sign out.
      const store = engine.makeStore();
      const phone = device(store.keyStore);
      await signInWithEmail(phone.client, user.emailCredentialId);
      row.signIns += 1;
      const ids = await store.keyStore.list();
      row.keysHeld += ids.length;
      for (const id of ids) {
        const record = await store.keyStore.get(id);
        if (record?.type === "scalar") row.scalarRecords += 1;
        if (record?.type === "webcrypto") {
          const exported = await globalThis.crypto.subtle.exportKey("jwk", record.privateKey).then(
            () => true,
            (error: unknown) => {
              errors.push(error);
              return false;
            },
          );
          if (exported || record.privateKey.extractable) row.exportable += 1;
        }
      }
      row.scalarInStoreDump += occurrences(await store.dump(), scalars);
      if (store.raw) row.scalarInOwnRecord += occurrences(store.raw(), scalars) > 0 ? 1 : 0;
      await signOut(phone.client, { accountId: user.accountId });
      row.keysLeftAfterSignOut += (await store.keyStore.list()).length;

      // 2. Sign in, then the stored key becomes unreadable (evicted, corrupted); the app reloads.
      const lostStore = engine.makeStore();
      const before = device(lostStore.keyStore);
      await signInWithEmail(before.client, user.emailCredentialId);
      const unreadable = new Set(await lostStore.keyStore.list());
      const corrupt: KeyStore = {
        ...lostStore.keyStore,
        list: () => lostStore.keyStore.list(),
        get: async (id) =>
          unreadable.has(id)
            ? { type: "scalar", privateKey: "not a key", publicKey: "02" }
            : lostStore.keyStore.get(id),
        set: (id, record) => lostStore.keyStore.set(id, record),
        delete: (id) => lostStore.keyStore.delete(id),
      };
      const after = device(corrupt);
      await after.client.sessions.load();
      row.keysLeftAfterLost += (await lostStore.keyStore.list()).length;

      // 3. Sign in; another device revokes the session; a signed call meets the 401.
      const rejectedStore = engine.makeStore();
      const revokedPhone = device(rejectedStore.keyStore);
      const revoked = await signInWithEmail(revokedPhone.client, user.emailCredentialId);
      const laptop = stack.client(user.customerId);
      await signInWithEmail(laptop.client, user.emailCredentialId);
      await revokeSession(laptop.client, { accountId: user.accountId, sessionId: revoked.id });
      await updateWalletPrivacy(revokedPhone.client, {
        accountId: user.accountId,
        privateEnabled: true,
      }).catch((error: unknown) => errors.push(error));
      await revokedPhone.client.sessions.settled();
      row.keysLeftAfterRejected += (await rejectedStore.keyStore.list()).length;

      const told = JSON.stringify([
        phone.events,
        before.events,
        after.events,
        revokedPhone.events,
        phone.client.sessions.getSnapshot(),
        ids,
        errors.map((e) => [String(e), JSON.stringify(e), inspect(e, { depth: 6 })]),
      ]);
      row.scalarInEventsOrErrors += occurrences(told, scalars);
      for (const c of [phone, before, after, revokedPhone, laptop]) c.client.destroy();
    }
    rows.push(row);
  }
  return rows;
}

/** Counts of the several-tabs runs. */
export type SeveralTabsCounts = {
  tabs: number;
  rounds: number;
  /** Every tab refreshes the one session at the same moment. */
  refresh: { networkRefreshes: number; extraRefreshes: number; tabsOnAnotherSession: number };
  /** One tab signs out. */
  signOut: {
    revokes: number;
    sessionsRevokedTwice: number;
    tabsStillSignedIn: number;
    signedOutEventsInOtherTabs: number;
  };
  /** Every tab signs out at the same moment (a shared sign-out button pressed in each). */
  signOutAtOnce: {
    revokes: number;
    sessionsRevokedTwice: number;
    failedSignOuts: number;
    tabsStillSignedIn: number;
  };
  /** The session is revoked on another device; every tab makes a signed call at once. */
  rejected: {
    unauthorizedAnswers: number;
    clearings: number;
    extraClearings: number;
    missedClearings: number;
    tabsStillHolding: number;
  };
  /** Tab 1 signs in after tab 0; tab 0's session expires while tab 1's does not. */
  expiry: { expiredDropped: number; otherSessionDropped: number; expiredStillHeld: number };
};

/**
 * What the tabs of an origin share in a browser, for this process: one lock manager (Web Locks'
 * `request`, serialising by name) and `BroadcastChannel` (Node's, which reaches every channel of
 * the name in the process). Returns a function that takes the lock manager away again.
 */
function installTabs(): () => void {
  const tails = new Map<string, Promise<unknown>>();
  const locks = {
    request(name: string, callback: () => Promise<unknown>) {
      const run = (tails.get(name) ?? Promise.resolve()).then(callback, callback);
      tails.set(
        name,
        run.catch(() => {}),
      );
      return run;
    },
  };
  const had = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  Object.defineProperty(globalThis, "navigator", {
    value: { ...(globalThis as { navigator?: object }).navigator, locks },
    configurable: true,
    writable: true,
  });
  return () => {
    if (had) Object.defineProperty(globalThis, "navigator", had);
    else delete (globalThis as { navigator?: unknown }).navigator;
  };
}

/**
 * `rounds` rounds of `tabs` clients sharing one key store and the cross-tab channel, each round a
 * new customer: refresh at once, sign out in one tab, a 401 in every tab, one session expiring
 * beside another. The emulator's clock and the tabs' clocks move together (by `advance`).
 */
export async function runSeveralTabs(
  stack: Stack,
  { rounds, tabs: count }: { rounds: number; tabs: number },
): Promise<SeveralTabsCounts> {
  const counts: SeveralTabsCounts = {
    tabs: count,
    rounds: 0,
    refresh: { networkRefreshes: 0, extraRefreshes: 0, tabsOnAnotherSession: 0 },
    signOut: {
      revokes: 0,
      sessionsRevokedTwice: 0,
      tabsStillSignedIn: 0,
      signedOutEventsInOtherTabs: 0,
    },
    signOutAtOnce: { revokes: 0, sessionsRevokedTwice: 0, failedSignOuts: 0, tabsStillSignedIn: 0 },
    rejected: {
      unauthorizedAnswers: 0,
      clearings: 0,
      extraClearings: 0,
      missedClearings: 0,
      tabsStillHolding: 0,
    },
    expiry: { expiredDropped: 0, otherSessionDropped: 0, expiredStillHeld: 0 },
  };
  let offsetMs = 0;
  const advance = async (ms: number) => {
    await fetch(`${stack.emulator.url}/_emulator/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advanceMs: ms }),
    });
    offsetMs += ms;
  };
  const uninstall = installTabs();
  const opened: Tab[] = [];
  try {
    for (let round = 0; round < rounds; round += 1) {
      const user = await stack.signUp();
      const { accountId } = user;
      const keyStore = createMemoryKeyStore();
      const wake: (() => void)[] = [];
      const open = (): Tab => {
        const tab = stack.client(user.customerId, {
          keyStore,
          clock: { now: () => Date.now() + offsetMs },
          appState: (onActive) => {
            wake.push(onActive);
            return () => {};
          },
        });
        opened.push(tab);
        return tab;
      };
      const tabs = Array.from({ length: count }, open);
      const held = (tab: Tab) => tab.client.sessions.getSnapshot()[accountId] ?? [];
      const syncAll = () => Promise.all(tabs.map((t) => t.client.sessions.sync()));
      const sessionEvents = (tab: Tab, action: string) =>
        tab.events.filter((e) => e.type === "session" && e.action === action).length;

      // Refresh at once.
      await signInWithEmail(tabs[0]!.client, user.emailCredentialId);
      await syncAll();
      await stack.clearRequests();
      const refreshed = await Promise.allSettled(
        tabs.map((t) => refreshSession(t.client, { accountId })),
      );
      const refreshes = (await stack.requests()).filter(
        (r) => r.method === "POST" && r.path.endsWith("/refresh") && r.hasSignature,
      ).length;
      counts.refresh.networkRefreshes += refreshes;
      counts.refresh.extraRefreshes += Math.max(0, refreshes - 1);
      const winner = refreshed.find((r) => r.status === "fulfilled")?.value.id;
      await until(() => tabs.every((t) => held(t).length === 1 && held(t)[0]?.id === winner));
      counts.refresh.tabsOnAnotherSession += tabs.filter(
        (t, i) =>
          refreshed[i]?.status !== "fulfilled" ||
          (refreshed[i] as PromiseFulfilledResult<{ id: string }>).value.id !== winner ||
          held(t)[0]?.id !== winner,
      ).length;

      // Sign out in the last tab.
      await stack.clearRequests();
      const leaving = tabs[count - 1]!;
      await signOut(leaving.client, { accountId });
      await until(() => tabs.every((t) => held(t).length === 0));
      const deletes = (await stack.requests()).filter(
        (r) => r.method === "DELETE" && r.path.startsWith("/auth/sessions/") && r.hasSignature,
      );
      counts.signOut.revokes += deletes.length;
      const perPath = new Map<string, number>();
      for (const d of deletes) perPath.set(d.path, (perPath.get(d.path) ?? 0) + 1);
      counts.signOut.sessionsRevokedTwice += [...perPath.values()].filter((n) => n > 1).length;
      counts.signOut.tabsStillSignedIn += tabs.filter((t) => held(t).length > 0).length;
      counts.signOut.signedOutEventsInOtherTabs += tabs
        .filter((t) => t !== leaving)
        .reduce((sum, t) => sum + sessionEvents(t, "signedOut"), 0);

      // Every tab signs out at once: one revoke per session across the tabs, none fails.
      await signInWithEmail(tabs[0]!.client, user.emailCredentialId);
      await syncAll();
      await stack.clearRequests();
      const signOuts = await Promise.allSettled(tabs.map((t) => signOut(t.client, { accountId })));
      await until(() => tabs.every((t) => held(t).length === 0));
      const revokesAtOnce = (await stack.requests()).filter(
        (r) => r.method === "DELETE" && r.path.startsWith("/auth/sessions/") && r.hasSignature,
      );
      counts.signOutAtOnce.revokes += revokesAtOnce.length;
      const perSession = new Map<string, number>();
      for (const d of revokesAtOnce) perSession.set(d.path, (perSession.get(d.path) ?? 0) + 1);
      counts.signOutAtOnce.sessionsRevokedTwice += [...perSession.values()].filter(
        (n) => n > 1,
      ).length;
      counts.signOutAtOnce.failedSignOuts += signOuts.filter((r) => r.status === "rejected").length;
      counts.signOutAtOnce.tabsStillSignedIn += tabs.filter((t) => held(t).length > 0).length;

      // A 401 in every tab at once.
      const session = await signInWithEmail(tabs[0]!.client, user.emailCredentialId);
      await syncAll();
      const laptop = stack.client(user.customerId);
      opened.push(laptop);
      await signInWithEmail(laptop.client, user.emailCredentialId);
      await revokeSession(laptop.client, { accountId, sessionId: session.id });
      const rejectedBefore = tabs.reduce((sum, t) => sum + sessionEvents(t, "rejected"), 0);
      const calls = await Promise.allSettled(
        tabs.map((t) => updateWalletPrivacy(t.client, { accountId, privateEnabled: true })),
      );
      counts.rejected.unauthorizedAnswers += calls.filter(
        (c) => c.status === "rejected" && (c.reason as { status?: number }).status === 401,
      ).length;
      await Promise.all(tabs.map((t) => t.client.sessions.settled()));
      await until(() => tabs.every((t) => held(t).length === 0));
      const clearings =
        tabs.reduce((sum, t) => sum + sessionEvents(t, "rejected"), 0) - rejectedBefore;
      counts.rejected.clearings += clearings;
      counts.rejected.extraClearings += Math.max(0, clearings - 1);
      counts.rejected.missedClearings += clearings === 0 ? 1 : 0;
      counts.rejected.tabsStillHolding += tabs.filter((t) =>
        held(t).some((s) => s.id === session.id),
      ).length;

      // Tab 1 signs in ten minutes after tab 0; six minutes later tab 0's session has expired.
      const first = await signInWithEmail(tabs[0]!.client, user.emailCredentialId);
      await advance(10 * 60_000);
      const second = await signInWithEmail(tabs[1 % count]!.client, user.emailCredentialId);
      await syncAll();
      await advance(6 * 60_000);
      for (const onActive of wake.splice(0)) onActive();
      await until(() => tabs.every((t) => !held(t).some((s) => s.id === first.id)));
      counts.expiry.expiredDropped += tabs.filter(
        (t) => !held(t).some((s) => s.id === first.id),
      ).length;
      counts.expiry.expiredStillHeld += tabs.filter((t) =>
        held(t).some((s) => s.id === first.id),
      ).length;
      counts.expiry.otherSessionDropped += tabs.filter(
        (t) => !held(t).some((s) => s.id === second.id),
      ).length;
      counts.rounds += 1;
      for (const tab of [...tabs, laptop]) tab.client.destroy();
    }
  } finally {
    for (const tab of opened) tab.client.destroy();
    uninstall();
  }
  return counts;
}
