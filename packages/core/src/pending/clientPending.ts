// A client's calls still processing (docs/protocol.md §2.5), wired: where kept calls are stored
// (beside the key store, on its persistence), the tracker the engine's calls report to, and the
// resume of kept calls. A chunk with ./track.ts, prefetched when a client is made: the page holds
// only the view (./pendingCalls.ts) and the loader (client.ts), so that a first render pays for
// none of this.
import { loadChunk } from "../crypto/chunk.js";
import { SignetError } from "../errors/errors.js";
import type { KeyPersistence } from "../keys/key-store.js";
import type { CallOptions, EventSink, SignetEvent } from "../session/events.js";
import type { Session } from "../session/sessionStore.js";
import type { PendingView, ResumedCall } from "./pendingCalls.js";
import type { PendingStore } from "./pendingStore.js";
import { createMemoryPendingStore } from "./pendingStore.js";
import type { ResumeSeams } from "./resume.js";
import { createPendingTracker, type PendingTracker } from "./track.js";

/** The resume of kept calls is a chunk of its own: only a client that finds one loads it. */
const loadResume = () => loadChunk(() => import("./resume.js"));

/** What the client hands its calls-still-processing wiring. */
export type ClientPendingSeams = {
  view: PendingView;
  /** The store `createClient` was given, if any. */
  given: PendingStore | undefined;
  /** The entry's IndexedDB store of kept calls, used where the key store is IndexedDB. */
  indexedDb: (() => Promise<PendingStore>) | undefined;
  persistence: () => Promise<KeyPersistence>;
  lock: <T>(key: string, task: () => Promise<T>) => Promise<T>;
  now: () => number;
  emit: (event: SignetEvent, onEvent?: EventSink) => void;
  lifetime: AbortSignal;
  /**
   * `createClient`'s `resumePending` (default true): carry kept calls on once wired; when false,
   * only delete those past their challenge's expiry, so that no dead stamp stays stored.
   */
  resumeAtStart: boolean;
  /** The client's signed and unsigned sends and its sessions, for a resume. */
  client: () => {
    /** A kept passkey sign-in's re-send and finish (./keptPasskey.ts), when the entry has it. */
    passkey: ResumeSeams["passkey"];
    signed: ResumeSeams["signed"];
    read: ResumeSeams["read"];
    /** What a kept sign-in's finish holds its session with. */
    keys: ResumeSeams["keys"];
    sessions: {
      list(accountId: string): Promise<readonly Session[]>;
      remove(accountId: string, sessionId: string): Promise<void>;
    };
  };
};

/** What a resume takes: the call's options, and the accounts whose kept calls it carries on. */
export type ResumeOptions = CallOptions & {
  /** Only the kept calls of these accounts (default: every kept call of the store). */
  accountIds?: readonly string[] | undefined;
};

/** The client's tracker and resume of calls still processing. */
export type ClientPending = {
  tracker: PendingTracker;
  resume(call?: ResumeOptions): Promise<ResumedCall[]>;
  /**
   * Deletes kept calls whose challenge has lapsed, and records that are not kept calls, sending
   * nothing: a client made with `resumePending: false` still never leaves a dead stamp stored.
   */
  sweep(): Promise<void>;
};

/**
 * Wires a client's calls still processing over its view.
 * @example
 * ```ts
 * const { tracker, resume } = createClientPending({ view, given, indexedDb, ...seams });
 * ```
 */
export function createClientPending(seams: ClientPendingSeams): ClientPending {
  const { view, given, indexedDb, lock, now, emit } = seams;
  let pendingStore: Promise<PendingStore> | undefined;
  // Beside the key store, on its persistence: IndexedDB where the key store is IndexedDB.
  const resolvePendingStore = () => {
    pendingStore ??= given
      ? Promise.resolve(given)
      : seams
          .persistence()
          .then((persistence) =>
            persistence === "indexeddb" && indexedDb ? indexedDb() : createMemoryPendingStore(),
          );
    return pendingStore;
  };
  const tracker = createPendingTracker(view, {
    store: resolvePendingStore,
    lock,
    now,
    emit: (event, onEvent) => emit(event, onEvent as EventSink | undefined),
  });
  const run = async (call: ResumeOptions, resend: boolean): Promise<ResumedCall[]> => {
    const store = await resolvePendingStore();
    // Nothing kept: the chunk is not loaded.
    if ((await store.list().catch(() => [])).length === 0) return [];
    const { resumeKeptCalls } = await loadResume();
    const client = seams.client();
    const { sessions } = client;
    const { signal, onEvent, accountIds } = call;
    return resumeKeptCalls(
      {
        store,
        lock,
        now,
        has: view.has,
        told: tracker.told,
        passkey: client.passkey,
        signed: client.signed,
        read: client.read,
        keys: client.keys,
        held: (accountId) => sessions.list(accountId),
        forget: async (session, options) => {
          await sessions.remove(session.accountId, session.id);
          const { accountId, id: sessionId } = session;
          emit({ type: "session", action: "revoked", accountId, sessionId }, options.onEvent);
        },
      },
      { signal: signal ?? seams.lifetime, onEvent, accountIds, resend },
    );
  };
  let resuming: Promise<ResumedCall[]> | undefined;
  const resume = (call: ResumeOptions = {}): Promise<ResumedCall[]> => {
    const { accountIds } = call;
    if (
      accountIds !== undefined &&
      !(Array.isArray(accountIds) && accountIds.every((id) => typeof id === "string"))
    )
      return Promise.reject(
        new SignetError(
          "INVALID_ARGUMENT",
          `"accountIds" expected an array of account ids, got ${typeof accountIds}`,
        ),
      );
    // Another resume of every account is joined; one for some accounts runs after the running
    // one, so that it tells only of its own. Set at once: a second call in the same task joins.
    if (resuming && call.accountIds === undefined) return resuming;
    const before = resuming?.catch(() => undefined);
    const running = (async () => {
      await before;
      return run(call, true);
    })().finally(() => {
      if (resuming === running) resuming = undefined;
    });
    resuming = running;
    return running;
  };
  const sweep = async () => {
    await run({}, false).catch(() => undefined);
  };
  // Wired once the client exists (client.ts): its kept calls are carried on, or only the lapsed
  // ones deleted.
  if (seams.resumeAtStart) resume().catch(() => undefined);
  else sweep();
  return { tracker, resume, sweep };
}
