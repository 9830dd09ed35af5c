// The demo's sign-in sessions, kept on the server: the cookie carries only an opaque random id
// (256 bits) naming a record here, so signing out deletes the record and a copied cookie is
// refused afterwards. In memory, bounded in count, each record with an absolute expiry.
import { randomBytes } from "node:crypto";

/**
 * Who is signed in to the demo (not a wallet session: the app's own login). Keyed by the
 * customer, never by the email the user typed: the email can change (a verified contact change),
 * the customer cannot. The current email is read from the service when it is shown.
 */
export type DemoUser = {
  customerId: string;
  accountId: string;
  region: string;
};

export type SessionStoreOptions = {
  /** How long a sign-in lasts, in ms (default 24 h). */
  ttlMs?: number;
  /** At most this many live sessions (default 10 000); the oldest goes first beyond it. */
  maxSessions?: number;
  /** Milliseconds since the epoch (tests pass a fake clock). */
  now?: () => number;
};

export type SessionStore = {
  /** A new session for `user`; returns its id (43 base64url characters, 256 random bits). */
  create(user: DemoUser): string;
  /** The user of a live session, or `null` when the id is unknown, deleted or expired. */
  get(id: string | null | undefined): DemoUser | null;
  /** Ends a session (sign-out). Unknown ids are ignored. */
  delete(id: string | null | undefined): void;
  /** Live and not yet purged sessions. */
  readonly size: number;
  /** Seconds a new session lasts (the cookie's `Max-Age`). */
  readonly maxAgeSeconds: number;
};

/** A session id as `create` makes them: anything else is not looked up. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const { ttlMs = 24 * 60 * 60 * 1000, maxSessions = 10_000, now = Date.now } = options;
  if (!(ttlMs > 0) || !Number.isSafeInteger(maxSessions) || maxSessions < 1)
    throw new RangeError("ttlMs must be positive and maxSessions a positive integer.");
  // Insertion order is creation order, and every record lives ttlMs: the first is the oldest.
  const records = new Map<string, { user: DemoUser; expiresAt: number }>();

  const purgeExpired = (at: number) => {
    for (const [id, record] of records) {
      if (record.expiresAt > at) break;
      records.delete(id);
    }
  };

  return {
    create(user) {
      const at = now();
      purgeExpired(at);
      while (records.size >= maxSessions) {
        const oldest = records.keys().next().value;
        if (oldest === undefined) break;
        records.delete(oldest);
      }
      const id = randomBytes(32).toString("base64url");
      records.set(id, { user: { ...user }, expiresAt: at + ttlMs });
      return id;
    },
    get(id) {
      if (!id || !SESSION_ID.test(id)) return null;
      const record = records.get(id);
      if (!record) return null;
      if (record.expiresAt <= now()) {
        records.delete(id);
        return null;
      }
      return { ...record.user };
    },
    delete(id) {
      if (id) records.delete(id);
    },
    get size() {
      return records.size;
    },
    maxAgeSeconds: Math.max(1, Math.floor(ttlMs / 1000)),
  };
}
