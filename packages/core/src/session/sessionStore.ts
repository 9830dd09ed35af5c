// Session state of a client: the session signing keys held in the KeyStore, their metadata, and a
// snapshot for `useSyncExternalStore`. The metadata rides in the key id, so any KeyStore (IndexedDB,
// a secure store of strings, memory) persists sessions without a second storage seam.
import type { CryptoApi } from "../crypto/api.js";
import type { SigningKey } from "../crypto/backend.js";
import { SignetError } from "../errors/errors.js";
import type { KeyStore } from "../keys/key-store.js";
import type { SignContext, SignedRequestEnd } from "../transport/signedRequest.js";
import { parseClockMark } from "./clockMark.js";
import { DEFAULT_EXPIRY_WARNING_MS, expiryByClocks } from "./expiry/lapse.js";
import { createSessionRejection } from "./sessionRejection.js";

/** A session this device holds the signing key of. No secret: safe to render and log. */
export type Session = {
  /** `Session:<uuid>`. */
  id: string;
  /** The Embedded Wallet internal account. */
  accountId: string;
  /** The credential that issued it, when this device verified it (the service does not say). */
  credentialId?: string;
  /** RFC 3339; authoritative. */
  expiresAt: string;
  /** Compressed public key of the session signing key. */
  publicKey: string;
  /**
   * When its user last proved themselves on this device (RFC 3339, the device's clock): the sign-in
   * by passkey or by a one-time code that made it. A refresh keeps the original time (it proves
   * only that the key is held); an OAuth sign-in and a session held before core recorded it carry
   * none. What `createClient`'s `stepUp` judges (docs/security.md "Step-up").
   */
  verifiedAt?: string;
  /**
   * @internal The same moment on the service's clock (the device clock corrected by the relay's
   * `Date`, `client.clock`), which the step-up check judges too: a device date set back later
   * leaves that clock where it was. Absent on a session stored before core recorded it.
   */
  verifiedAtService?: string;
};

/** A held session with its signing key. */
export type ActiveSession = Session & { key: SigningKey };

/** Sessions held on this device by account id, newest first. Immutable: a new object on change. */
export type SessionSnapshot = Readonly<Record<string, readonly Session[]>>;

const PREFIX = "signet.session|";

/**
 * Key ids carry the metadata: `signet.session|<accountId>|<sessionId>|<credentialId>|<expiresAt
 * ms>|<verifiedAt ms>|<verifiedAtService ms>`, a verification field empty when the session carries
 * none. An id written before `verifiedAt` (four fields) or `verifiedAtService` (five) existed still
 * reads, as a session without them.
 */
function encodeId(session: Session): string {
  const expires = Date.parse(session.expiresAt);
  const ms = (at: string | undefined) => (at === undefined ? "" : String(Date.parse(at)));
  const fields = [session.accountId, session.id, session.credentialId ?? "", String(expires)];
  return `${PREFIX}${[...fields, ms(session.verifiedAt), ms(session.verifiedAtService)].join("|")}`;
}

/** An RFC 3339 time from an id's field of epoch ms, or `undefined` for an empty one. */
function timeField(field: string | undefined): string | undefined {
  const ms = field === undefined || field === "" ? Number.NaN : Number(field);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function decodeId(id: string, publicKey: string): Session | undefined {
  if (!id.startsWith(PREFIX)) return undefined;
  const parts = id.slice(PREFIX.length).split("|");
  if (parts.length < 4 || parts.length > 6) return undefined;
  const [accountId, sessionId, credentialId, expires, verified, verifiedService] = parts as [
    string,
    string,
    string,
    string,
    string?,
    string?,
  ];
  const ms = Number(expires);
  if (!accountId || !sessionId || !Number.isFinite(ms)) return undefined;
  const verifiedAt = timeField(verified);
  // The service's moment only with the device's: it never stands for a verification alone.
  const verifiedAtService = verifiedAt && timeField(verifiedService);
  return {
    id: sessionId,
    accountId,
    ...(credentialId ? { credentialId } : {}),
    expiresAt: new Date(ms).toISOString(),
    publicKey,
    ...(verifiedAt ? { verifiedAt } : {}),
    ...(verifiedAtService ? { verifiedAtService } : {}),
  };
}

export type SessionStore = {
  /** Loads held sessions from the key store once (later calls reuse the first load). */
  load(): Promise<void>;
  /** The current snapshot (stable reference until something changes). */
  getSnapshot(): SessionSnapshot;
  subscribe(listener: () => void): () => void;
  /** Held, unexpired sessions of `accountId`, newest first, with keys. Expired ones are dropped. */
  list(accountId: string): Promise<ActiveSession[]>;
  /**
   * @internal Stores a new session key (persisted before it is visible).
   * @throws {SignetError} `KEY_INVALID` when the key store (of any tab) already holds this
   *   session id with another key: that key is never replaced.
   */
  add(session: Session, key: SigningKey): Promise<void>;
  /** @internal Forgets a session and deletes its key. */
  remove(accountId: string, sessionId: string): Promise<void>;
  /**
   * @internal
   * Re-reads the key store, which another tab of the origin may have changed: holds the sessions
   * stored there since, forgets those deleted.
   */
  sync(): Promise<void>;
  /**
   * How long before its end a held session counts as expiring: the watcher emits a `session`
   * event with `action: "expiring"` then, and `useSession` reports `expiring: true`.
   */
  readonly expiryWarningMs: number;
  /** @internal Notes that `session` stamped the request of `context` (called by `signWithSession`). */
  noteSignature(session: Session, context: SignContext): void;
  /**
   * @internal
   * Called by the signed-request engine when a request ends (the client hands it over as the
   * engine's `onEnd`): a 401 ending a signed request that a held session stamped clears that
   * session once, in every tab (concurrent 401s make one clearing), and emits a `session` event
   * with `action: "rejected"`. A 401 about the request itself (a lapsed challenge, a missing
   * header) keeps the session; any 401 but the service's refusal of the key is first checked
   * against the service's list of active sessions.
   */
  ended(end: SignedRequestEnd): void;
  /** @internal Resolves once the clearings that 401s started have finished. */
  settled(): Promise<void>;
  /** @internal Whether the first `load` has finished: `getSnapshot` then holds what is stored. */
  loaded(): boolean;
  /**
   * @internal
   * The device's time, never below the highest it has shown this store: the marks read from the
   * key store (session/clockMark.ts, kept there by the step-up check), every reading, and every
   * session added. A date set back does not take it back. What the step-up check reads as the
   * device's "now" (docs/security.md "Step-up").
   */
  deviceTime(): number;
  /**
   * @internal The highest clock mark the key store held when this store last read it (epoch ms,
   * 0 for none): the last one written, which the step-up check writes again only once the
   * device's time has risen well past it.
   */
  storedMark(): number;
};

/** `key`, on which a `KEY_INVALID` before its first signature calls `lost` (then rethrows). */
function lostIfUnproven(key: SigningKey, lost: () => Promise<void>): SigningKey {
  let proven = false;
  return {
    publicKey: key.publicKey,
    // Read when asked: a restored key may work its uncompressed form out only then.
    get publicKeyUncompressed() {
      return key.publicKeyUncompressed;
    },
    extractable: key.extractable,
    toRecord: () => key.toRecord(),
    async sign(message) {
      try {
        const signature = await key.sign(message);
        proven = true;
        return signature;
      } catch (error) {
        if (!proven && error instanceof SignetError && error.code === "KEY_INVALID")
          await lost().catch(() => undefined);
        throw error;
      }
    },
  };
}

export function createSessionStore(parameters: {
  keyStore: () => Promise<KeyStore>;
  crypto: CryptoApi;
  /** The service's time (the device clock, corrected by the relay's `Date`). */
  now: () => number;
  /**
   * The device's own clock. A session is removed as expired when both clocks say so; when only
   * one does, `confirmGone` asks the service first (docs/protocol.md §11: a `Date` header alone
   * never deletes a key).
   */
  deviceNow?: () => number;
  /** Whether the service no longer lists the session as active; an error keeps the session. */
  confirmGone?: (session: Session) => Promise<boolean>;
  /**
   * A held session ended on this device without a call: `expired`, or `lost` when its stored key
   * could no longer be read (storage evicted or corrupted); either way it is already removed.
   */
  onGone?: (session: Session, why: "expired" | "lost" | "rejected") => void;
  /** Called after this store added or removed a session (to tell other tabs). */
  onChange?: () => void;
  /** An origin-wide lock (the client's cross-tab lock). Default: none, run at once. */
  lock?: <T>(key: string, task: (waited: boolean) => Promise<T>) => Promise<T>;
  /** `expiryWarningMs`. Default {@link DEFAULT_EXPIRY_WARNING_MS}. */
  expiryWarningMs?: number;
}): SessionStore {
  const { keyStore, crypto, now } = parameters;
  const deviceNow = parameters.deviceNow ?? now;
  const gone = async (session: Session) => {
    try {
      return (await parameters.confirmGone?.(session)) ?? true;
    } catch {
      // The service could not be asked: keep the key; a stamp the service refuses costs nothing.
      return false;
    }
  };
  // By session id. Replaced whole by a re-read, never emptied in place: a reader between two
  // awaits always sees every held session (a flood of cross-tab messages once made `getSession`
  // report none while the key was held).
  let held = new Map<string, ActiveSession>();
  const listeners = new Set<() => void>();
  let snapshot: SessionSnapshot = Object.freeze({});
  let loading: Promise<void> | undefined;
  /** While a re-read runs: this store's own changes meanwhile, to apply to what it read. */
  let changedDuringRead: ((sessions: Map<string, ActiveSession>) => void)[] | undefined;
  let isLoaded = false;
  /** The highest device time seen (epoch ms): stored marks, readings, sessions added. */
  let mark = 0;
  let storedMark = 0;
  const deviceTime = () => (mark = Math.max(mark, deviceNow()));

  const publish = () => {
    const byAccount: Record<string, Session[]> = {};
    for (const { key: _key, ...session } of held.values()) {
      const list = byAccount[session.accountId] ?? [];
      list.push(session);
      byAccount[session.accountId] = list;
    }
    for (const list of Object.values(byAccount)) {
      list.sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt));
    }
    snapshot = Object.freeze(byAccount);
    for (const listener of listeners) listener();
  };

  /** Every session stored in the key store, read into a new map. */
  const read = async (): Promise<Map<string, ActiveSession>> => {
    const sessions = new Map<string, ActiveSession>();
    try {
      const store = await keyStore();
      for (const id of await store.list()) {
        const marked = parseClockMark(id);
        if (marked !== undefined) {
          mark = Math.max(mark, marked);
          storedMark = Math.max(storedMark, marked);
          continue;
        }
        const record = await store.get(id);
        const session = record && decodeId(id, record.publicKey);
        if (!record || !session) continue;
        try {
          const key = await crypto.restoreSigningKey(record);
          sessions.set(session.id, { ...session, key: lostIfUnproven(key, () => lose(session)) });
        } catch {
          // Unreadable (an evicted or corrupted key): never usable again. Say so, once.
          await store.delete(id);
          parameters.onGone?.(session, "lost");
        }
      }
    } catch (cause) {
      throw cause instanceof SignetError
        ? cause
        : new SignetError("KEY_STORAGE_UNAVAILABLE", "Could not read stored session keys", {
            cause,
          });
    }
    return sessions;
  };

  const load = () => {
    loading ??= read().then(
      (sessions) => {
        held = sessions;
        isLoaded = true;
        if (held.size) publish();
      },
      (cause) => {
        loading = undefined;
        throw cause;
      },
    );
    return loading;
  };

  // A restored key whose first signature fails the proof of its public key (restoreSigningKey)
  // is what a record that fails to restore is: forgotten and reported lost, once.
  const lose = async (session: Session) => {
    if (!held.has(session.id)) return;
    await remove(session.accountId, session.id);
    parameters.onGone?.(session, "lost");
  };

  // One re-read at a time, swapped in whole with this store's own changes meanwhile. Calls while
  // one runs share the next, which starts when it ends and so sees every change announced before
  // them: a flood of messages is two reads.
  let queue: Promise<void> = Promise.resolve();
  let next: Promise<void> | undefined;
  const sync = (): Promise<void> =>
    (next ??= queue =
      queue
        .catch(() => undefined)
        .then(async () => {
          next = undefined;
          await load();
          changedDuringRead = [];
          try {
            const sessions = await read();
            for (const change of changedDuringRead) change(sessions);
            held = sessions;
          } finally {
            changedDuringRead = undefined;
          }
          publish();
        }));

  const remove = async (accountId: string, sessionId: string) => {
    const session = held.get(sessionId);
    if (!session || session.accountId !== accountId) return;
    await (await keyStore()).delete(encodeId(session));
    held.delete(sessionId);
    changedDuringRead?.push((sessions) => sessions.delete(sessionId));
    publish();
    parameters.onChange?.();
  };

  const rejection = createSessionRejection({
    held(sessionId) {
      const session = held.get(sessionId);
      if (!session) return undefined;
      const { key: _key, ...metadata } = session;
      return metadata;
    },
    confirmGone: async (session) => (await parameters.confirmGone?.(session)) ?? false,
    lock: parameters.lock ?? ((_key, task) => task(false)),
    sync: () => sync(),
    async clear(session) {
      await remove(session.accountId, session.id);
      parameters.onGone?.(session, "rejected");
    },
  });

  return {
    load,
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async list(accountId) {
      await load();
      const result: ActiveSession[] = [];
      for (const session of [...held.values()]) {
        if (session.accountId !== accountId) continue;
        const state = expiryByClocks(session, now(), deviceNow());
        if (state === "expired" || (state === "disputed" && (await gone(session)))) {
          await remove(accountId, session.id);
          const { key: _key, ...expired } = session;
          parameters.onGone?.(expired, "expired");
          continue;
        }
        result.push(session);
      }
      return result.sort((a, b) => Date.parse(b.expiresAt) - Date.parse(a.expiresAt));
    },
    async add(session, key) {
      await load();
      const store = await keyStore();
      const record = key.toRecord();
      // The key store is shared by the origin's tabs: a session id another tab holds keeps its
      // own key. Replacing it would break that tab's session, whatever this one believes.
      for (const id of await store.list()) {
        if (decodeId(id, "")?.id !== session.id) continue;
        const stored = await store.get(id);
        if (stored !== undefined && stored.publicKey !== record.publicKey) {
          throw new SignetError("KEY_INVALID", "The session is already held with another key", {
            details: { accountId: session.accountId, sessionId: session.id },
          });
        }
      }
      await store.set(encodeId(session), record);
      // Every sign-in and refresh is a device time seen: the mark follows the app while it runs.
      deviceTime();
      const active = { ...session, key };
      held.set(session.id, active);
      changedDuringRead?.push((sessions) => sessions.set(session.id, active));
      publish();
      parameters.onChange?.();
    },
    remove,
    sync,
    expiryWarningMs: parameters.expiryWarningMs ?? DEFAULT_EXPIRY_WARNING_MS,
    noteSignature: rejection.noteSignature,
    ended: rejection.ended,
    settled: rejection.settled,
    loaded: () => isLoaded,
    deviceTime,
    storedMark: () => storedMark,
  };
}
