// Session state of a client: the session signing keys held in the KeyStore, their metadata, and a
// snapshot for `useSyncExternalStore`. The metadata rides in the key id, so any KeyStore (IndexedDB,
// a secure store of strings, memory) persists sessions without a second storage seam.
import type { CryptoApi } from "../crypto/api.js";
import type { SigningKey } from "../crypto/backend.js";
import { SignetError } from "../errors.js";
import type { KeyStore } from "../keys/key-store.js";

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
};

/** A held session with its signing key. */
export type ActiveSession = Session & { key: SigningKey };

/** Sessions held on this device by account id, newest first. Immutable: a new object on change. */
export type SessionSnapshot = Readonly<Record<string, readonly Session[]>>;

const PREFIX = "signet.session|";
const FIELDS = 5;

/** Key ids carry the metadata: `signet.session|<accountId>|<sessionId>|<credentialId>|<expiresAt ms>`. */
function encodeId(session: Session): string {
  const expires = Date.parse(session.expiresAt);
  return `${PREFIX}${[session.accountId, session.id, session.credentialId ?? "", String(expires)].join("|")}`;
}

function decodeId(id: string, publicKey: string): Session | undefined {
  if (!id.startsWith(PREFIX)) return undefined;
  const parts = id.slice(PREFIX.length).split("|");
  if (parts.length !== FIELDS - 1) return undefined;
  const [accountId, sessionId, credentialId, expires] = parts as [string, string, string, string];
  const ms = Number(expires);
  if (!accountId || !sessionId || !Number.isFinite(ms)) return undefined;
  return {
    id: sessionId,
    accountId,
    ...(credentialId ? { credentialId } : {}),
    expiresAt: new Date(ms).toISOString(),
    publicKey,
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
  /** Stores a new session key (persisted before it is visible). */
  add(session: Session, key: SigningKey): Promise<void>;
  /** Forgets a session and deletes its key. */
  remove(accountId: string, sessionId: string): Promise<void>;
  /**
   * Re-reads the key store, which another tab of the origin may have changed: holds the sessions
   * stored there since, forgets those deleted.
   */
  sync(): Promise<void>;
};

/**
 * Sessions within this margin of `expiresAt` are treated as expired: a stamp must arrive in time.
 * The one expiry rule: core's actions and `@signet/react`'s `useSession` both judge by it.
 */
export const SESSION_EXPIRY_MARGIN_MS = 5_000;

/** Whether `session` is too close to `expiresAt` to sign with at `now`. */
export const isExpired = (session: Session, now: number): boolean =>
  Date.parse(session.expiresAt) - SESSION_EXPIRY_MARGIN_MS <= now;

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
  onGone?: (session: Session, why: "expired" | "lost") => void;
  /** Called after this store added or removed a session (to tell other tabs). */
  onChange?: () => void;
}): SessionStore {
  const { keyStore, crypto, now } = parameters;
  const deviceNow = parameters.deviceNow ?? now;
  /** Expired by both clocks, by one of them (ask the service), or by neither. */
  const expiry = (session: Session): "expired" | "disputed" | "alive" => {
    const byService = isExpired(session, now());
    const byDevice = isExpired(session, deviceNow());
    return byService && byDevice ? "expired" : byService || byDevice ? "disputed" : "alive";
  };
  const gone = async (session: Session) => {
    try {
      return (await parameters.confirmGone?.(session)) ?? true;
    } catch {
      // The service could not be asked: keep the key; a stamp the service refuses costs nothing.
      return false;
    }
  };
  const held = new Map<string, ActiveSession>(); // by session id
  const listeners = new Set<() => void>();
  let snapshot: SessionSnapshot = Object.freeze({});
  let loading: Promise<void> | undefined;

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

  const load = () => {
    loading ??= (async () => {
      const store = await keyStore();
      for (const id of await store.list()) {
        const record = await store.get(id);
        const session = record && decodeId(id, record.publicKey);
        if (!record || !session) continue;
        try {
          held.set(session.id, { ...session, key: await crypto.restoreSigningKey(record) });
        } catch {
          // Unreadable (an evicted or corrupted key): never usable again. Say so, once.
          await store.delete(id);
          parameters.onGone?.(session, "lost");
        }
      }
      if (held.size) publish();
    })().catch((cause) => {
      loading = undefined;
      throw cause instanceof SignetError
        ? cause
        : new SignetError("KEY_STORAGE_UNAVAILABLE", "Could not read stored session keys", {
            cause,
          });
    });
    return loading;
  };

  const remove = async (accountId: string, sessionId: string) => {
    const session = held.get(sessionId);
    if (!session || session.accountId !== accountId) return;
    await (await keyStore()).delete(encodeId(session));
    held.delete(sessionId);
    publish();
    parameters.onChange?.();
  };

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
        const state = expiry(session);
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
      await (await keyStore()).set(encodeId(session), key.toRecord());
      held.set(session.id, { ...session, key });
      publish();
      parameters.onChange?.();
    },
    remove,
    async sync() {
      await load();
      // Reading everything again is simplest, and cheap: a device holds a handful of sessions.
      held.clear();
      loading = undefined;
      await load();
      publish();
    },
  };
}
