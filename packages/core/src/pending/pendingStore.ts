// Where a signed call that the service still answers PROCESSING for is kept, so that a reload or
// another tab carries it to its end (docs/protocol.md §2.5, core README "Calls still processing").
// The key store keeps signing-key records only (its ids carry session metadata); a kept call is
// text, so it has a sibling store on the same persistence: IndexedDB through idb-keyval in a
// browser (./idbPendingStore.ts, its own database, so the key store's database never needs an
// upgrade), memory elsewhere. No private key is ever written here; the stamp is, as the one way
// to re-send.

/**
 * What re-sends a kept call and finishes it: the stamped request as it went (method, path, body,
 * stamp, request id), its challenge's expiry, and what the action does once it ends.
 */
export type KeptCall = {
  v: 1;
  /** The action's name (`revokeCredential`). */
  action: string;
  /**
   * The account the call acts on (`InternalAccount:…`): only a client that holds a session of
   * it carries the call on or tells of it.
   */
  accountId: string;
  method: string;
  path: string;
  body?: string;
  expectedStatus: number | number[];
  requestId: string;
  /**
   * The `Grid-Wallet-Signature` value. Secret: never in an event, an error or a log. Absent for
   * a passkey sign-in's verify, which is sent unsigned: the WebAuthn assertion in its body is
   * its proof.
   */
  signature?: string;
  /** The challenge's expiry (epoch ms, service clock): the call cannot be re-sent after it. */
  expiresAtMs: number;
  /** When the first PROCESSING answer came (epoch ms). */
  since: number;
  /** PROCESSING answers so far. */
  attempt: number;
  /** What the action does after a success (held sessions to forget). */
  finish?: PendingFinish;
};

/**
 * What an action does after its call ends in success, kept beside the call: a revoke forgets the
 * held sessions it ended (`forgetSessions`); a sign-in adopts the session its one-time key was
 * sent for (`adoptSession`: the key itself stays in the key store, non-extractable, noted as a
 * key whose session this device may have made; the kept copy names only its public key).
 */
export type PendingFinish =
  | {
      kind: "forgetSessions";
      accountId: string;
      /** Forget this held session… */
      sessionId?: string;
      /** …or every held session of this credential. */
      credentialId?: string;
    }
  | {
      kind: "adoptSession";
      accountId: string;
      /** The credential signed in with (`AuthMethod:…`), the one the kept path names. */
      credentialId: string;
      /** The one-time key's compressed public key: the session adopted must be this key's. */
      publicKey: string;
    };

/**
 * Storage of kept calls by request id. Implement it to keep them somewhere else (an app's own
 * storage); `createClient`'s `pendingStore` takes one.
 */
export interface PendingStore {
  /** The kept call of `requestId`, or `undefined`. */
  get(requestId: string): Promise<KeptCall | undefined>;
  /** Keeps `call` under its request id, replacing any earlier copy. */
  set(call: KeptCall): Promise<void>;
  /** Deletes the copy of `requestId`; deleting a missing one is not an error. */
  delete(requestId: string): Promise<void>;
  /** Every kept call. */
  list(): Promise<KeptCall[]>;
  /** Whether kept calls outlive the page (`indexeddb`) or not (`memory`). */
  readonly persistence: "indexeddb" | "memory";
}

const isString = (value: unknown): value is string => typeof value === "string";

// A service id as the actions send them (arguments.ts): `<Type>:<id>`.
const ID = "[0-9A-Za-z][0-9A-Za-z-]{0,63}";
const ACCOUNT_ID = new RegExp(`^InternalAccount:${ID}$`);
const CREDENTIAL_ID = new RegExp(`^AuthMethod:${ID}$`);

/**
 * The only calls a kept record may re-send: the signed retries of the service's #850 that an
 * action keeps (a credential add, a credential or session revoke, an OTP or passkey sign-in's
 * verify), each
 * with the actions that make it. The store lives in the page's origin storage, so a record planted there must never
 * send a stamp to any other path: anything else reads back as no kept call, and is deleted.
 */
const RESUMABLE: readonly { method: string; path: RegExp; actions: readonly string[] }[] = [
  { method: "POST", path: /^\/auth\/credentials$/, actions: ["addCredential", "addPasskey"] },
  {
    method: "DELETE",
    path: new RegExp(`^/auth/credentials/AuthMethod:${ID}$`),
    actions: ["revokeCredential"],
  },
  {
    method: "DELETE",
    path: new RegExp(`^/auth/sessions/Session:${ID}$`),
    actions: ["revokeSession", "signOut"],
  },
  {
    method: "POST",
    path: new RegExp(`^/auth/credentials/AuthMethod:${ID}/verify$`),
    actions: ["verifyOtp", "signInWithPasskey"],
  },
];

/** Which finish each action's kept call may carry: a sign-in's is its session's adoption. */
const FINISH_OF: Readonly<Record<string, PendingFinish["kind"]>> = {
  verifyOtp: "adoptSession",
  signInWithPasskey: "adoptSession",
};

/**
 * The actions whose kept call goes without a stamp (a passkey sign-in's verify: its assertion is
 * its proof); every other kept call is a stamped signed retry, and must carry its stamp.
 */
const UNSIGNED: ReadonlySet<string> = new Set(["signInWithPasskey"]);

/** Whether `action` may keep a call to `method path` (one of the resumable routes). */
export function isResumableRoute(action: string, method: string, path: string): boolean {
  return RESUMABLE.some(
    (route) => route.method === method && route.path.test(path) && route.actions.includes(action),
  );
}
const isStatus = (value: unknown) => Number.isInteger(value) && (value as number) >= 200;

/**
 * Reads a stored value back as a kept call, or `undefined` when it is not one (another version,
 * a damaged record, a route that is not one of the resumable ones, a finish for another
 * account): such a record is dropped, never sent.
 */
export function readKeptCall(value: unknown): KeptCall | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const statuses = Array.isArray(v.expectedStatus) ? v.expectedStatus : [v.expectedStatus];
  const ok =
    v.v === 1 &&
    isString(v.action) &&
    isString(v.accountId) &&
    ACCOUNT_ID.test(v.accountId) &&
    isString(v.method) &&
    isString(v.path) &&
    isResumableRoute(v.action, v.method, v.path) &&
    (v.body === undefined || isString(v.body)) &&
    statuses.length > 0 &&
    statuses.every(isStatus) &&
    isString(v.requestId) &&
    /^Request:[0-9a-f-]{36}$/i.test(v.requestId) &&
    (UNSIGNED.has(v.action)
      ? v.signature === undefined
      : isString(v.signature) && v.signature.length > 0) &&
    Number.isFinite(v.expiresAtMs) &&
    Number.isFinite(v.since) &&
    Number.isInteger(v.attempt) &&
    finishFits(v.action, v.path, v.accountId, v.finish);
  return ok ? (value as KeptCall) : undefined;
}

/**
 * Whether a kept call's finish is its action's and its account's: a sign-in must carry the key
 * it adopts, for the credential its path names; any other action at most forgets sessions.
 */
function finishFits(action: string, path: string, accountId: string, value: unknown): boolean {
  const wanted = FINISH_OF[action] ?? "forgetSessions";
  if (value === undefined) return wanted === "forgetSessions";
  const finish = readFinish(value);
  if (finish === undefined || finish.kind !== wanted || finish.accountId !== accountId)
    return false;
  return (
    finish.kind !== "adoptSession" || path === `/auth/credentials/${finish.credentialId}/verify`
  );
}

function readFinish(value: unknown): PendingFinish | undefined {
  const f = value as Record<string, unknown> | null;
  if (typeof f !== "object" || f === null || !isString(f.accountId)) return undefined;
  if (f.kind === "adoptSession") {
    const fits =
      isString(f.credentialId) &&
      CREDENTIAL_ID.test(f.credentialId) &&
      isString(f.publicKey) &&
      /^0[23][0-9a-f]{64}$/i.test(f.publicKey);
    return fits ? (f as PendingFinish) : undefined;
  }
  if (f.kind !== "forgetSessions") return undefined;
  if (f.sessionId !== undefined && !isString(f.sessionId)) return undefined;
  if (f.credentialId !== undefined && !isString(f.credentialId)) return undefined;
  return f as PendingFinish;
}

/**
 * Kept calls in memory: they last as long as the page or process (a reload loses them).
 * @example
 * ```ts
 * const client = createClient({ relayUrl, pendingStore: createMemoryPendingStore() });
 * ```
 */
export function createMemoryPendingStore(): PendingStore {
  const calls = new Map<string, KeptCall>();
  return {
    persistence: "memory",
    get: async (id) => calls.get(id),
    set: async (call) => {
      if (readKeptCall(call) === undefined) throw new TypeError("Not a resumable kept call");
      calls.set(call.requestId, { ...call });
    },
    delete: async (id) => void calls.delete(id),
    list: async () => [...calls.values()],
  };
}
