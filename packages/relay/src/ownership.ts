// Ownership: every id a request names must belong to the caller's customer, as the service says.
import { RelayRefusal } from "./errors.js";
import type { RelayIdKind } from "./routes.js";
import { callUpstream, type Upstream } from "./upstream.js";

/**
 * Where the relay remembers which customer owns an id. Only facts learnt from the service
 * are stored (`owner:<id>` → customer id), and only for the customer who asked; an id not in
 * the cache is looked up again, so a credential or session created a moment ago is never
 * refused for long. Ownership never changes, so a shared store (Redis) is safe; the in-memory
 * default ({@link createMemoryOwnershipCache}) is per instance.
 */
export interface OwnershipCache {
  /** The value stored under `key`, or `undefined` when missing or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` for `ttlMs` milliseconds. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
}

/**
 * A synchronous read of what a cache holds in this process's memory, on the caches this module
 * makes: a hit is answered without a promise, a miss is read with `get` (which may ask a shared
 * store). Not part of {@link OwnershipCache}: a cache an app writes may live anywhere.
 */
const PEEK = Symbol("signet.ownership.peek");

type PeekableCache = OwnershipCache & { readonly [PEEK]?: (key: string) => string | undefined };

/**
 * Wraps a cache so that its failures (a shared store that is down) read as misses and lost
 * writes: the relay then asks the service, which is slower but never wrong.
 */
export function failSafeOwnershipCache(cache: OwnershipCache): OwnershipCache {
  const peek = (cache as PeekableCache)[PEEK];
  return {
    get: (key) => cache.get(key).catch(() => undefined),
    set: (key, value, ttlMs) => cache.set(key, value, ttlMs).catch(() => undefined),
    ...(peek !== undefined ? { [PEEK]: peek } : {}),
  };
}

/**
 * The cache the relay reads: `cache` itself when it is in this process's memory, else `cache`
 * behind a tier in memory. Facts read from or written to a shared store (Redis) are kept here
 * too for `ttlMs`, so each instance reads a fact from the store once, not on every request
 * (a round trip each). Ownership never changes, so a copy is never wrong; facts the store does
 * not hold are still read from it each time, so one learnt by another instance is found.
 */
export function tieredOwnershipCache(cache: OwnershipCache, ttlMs: number): OwnershipCache {
  if ((cache as PeekableCache)[PEEK] !== undefined || ttlMs <= 0) return cache;
  const local = createMemoryOwnershipCache() as PeekableCache;
  const peek = local[PEEK]!;
  return {
    async get(key) {
      const hit = peek(key);
      if (hit !== undefined) return hit;
      const value = await cache.get(key);
      if (value !== undefined) await local.set(key, value, ttlMs);
      return value;
    },
    async set(key, value, factTtlMs) {
      await local.set(key, value, factTtlMs);
      await cache.set(key, value, factTtlMs);
    },
    [PEEK]: peek,
  } as PeekableCache;
}

/** Options of {@link createMemoryOwnershipCache}. */
export interface MemoryOwnershipCacheOptions {
  /** Clock in milliseconds; defaults to `Date.now`. */
  now?: () => number;
  /** At most this many entries (default 10 000); the oldest go first. */
  maxEntries?: number;
}

/**
 * An {@link OwnershipCache} in this process's memory, bounded, with lazy expiry (no timers).
 *
 * @example createRelay({ …, ownershipCache: createMemoryOwnershipCache({ maxEntries: 50_000 }) })
 */
export function createMemoryOwnershipCache(
  options: MemoryOwnershipCacheOptions = {},
): OwnershipCache {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 10_000;
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const peek = (key: string): string | undefined => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.value;
  };
  const cache: PeekableCache = {
    get: async (key) => peek(key),
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      entries.delete(key);
      // Map order is insertion order: the first key is the oldest. At most one goes per set.
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
    [PEEK]: peek,
  };
  return cache;
}

/** An id named by a request, with where it was found (for the 403 details). */
export interface NamedId {
  readonly kind: RelayIdKind;
  readonly value: string;
  /** `path`, `query.accountId`, `body.cardId`… */
  readonly where: string;
}

/** Ownership lookups emitted as events (no secrets: paths hold ids only). */
export type LookupListener = (lookup: { path: string; status: number }) => void;

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

/** The most pages of one list an ownership check reads (100 items each). */
const MAX_PAGES = 50;

function listItems(value: unknown): Json[] {
  const data = asObject(value)?.data;
  if (!Array.isArray(data)) return [];
  const items: Json[] = [];
  for (const item of data as unknown[]) {
    const object = asObject(item);
    if (object !== undefined) items.push(object);
  }
  return items;
}

function stringField(object: Json | undefined, field: string): string | undefined {
  const value = object?.[field];
  return typeof value === "string" ? value : undefined;
}

/** The ownership check of one request: lists are fetched at most once per request. */
class OwnershipLookup {
  private accounts: Promise<Json[]> | undefined;
  // Made on first use: a read whose ids are all cached (the usual one) never needs them.
  private listsMade: Map<string, Promise<Json[]>> | undefined;
  private ownedMade: Set<string> | undefined;
  private get lists(): Map<string, Promise<Json[]>> {
    this.listsMade ??= new Map();
    return this.listsMade;
  }
  private get owned(): Set<string> {
    this.ownedMade ??= new Set();
    return this.ownedMade;
  }

  constructor(
    private readonly upstream: Upstream,
    private readonly cache: OwnershipCache,
    private readonly ttlMs: number,
    private readonly customerId: string,
    private readonly onLookup: LookupListener,
  ) {}

  /**
   * Every page of the caller's list at `path` (the service pages at 20 by default): an account on
   * page two is as much the caller's as one on page one. Bounded, and a cursor that repeats ends
   * the walk, so a broken service cannot hold a request forever.
   */
  private async allPages(path: string): Promise<Json[]> {
    const items: Json[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query =
        `customerId=${encodeURIComponent(this.customerId)}&limit=100` +
        (cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`);
      const answer = await this.get(path, query);
      items.push(...listItems(answer));
      const next =
        asObject(answer)?.hasMore === true
          ? stringField(asObject(answer), "nextCursor")
          : undefined;
      if (next === undefined || seen.has(next)) break;
      seen.add(next);
      cursor = next;
    }
    return items;
  }

  private async get(path: string, query = ""): Promise<unknown> {
    const response = await callUpstream(this.upstream, { method: "GET", path, query });
    this.onLookup({ path, status: response.status });
    if (response.status === 404 || response.status === 400 || response.status === 403) {
      return undefined;
    }
    if (response.status === 429) {
      const retryAfter = response.headers.get("Retry-After");
      throw new RelayRefusal(
        "RATE_LIMITED",
        "The service is rate limiting the relay.",
        undefined,
        retryAfter !== null && /^[0-9]{1,9}$/.test(retryAfter) ? { "Retry-After": retryAfter } : {},
      );
    }
    if (response.status < 200 || response.status > 299) {
      throw new RelayRefusal("UPSTREAM_UNAVAILABLE", "An ownership lookup failed.", {
        lookupStatus: response.status,
      });
    }
    try {
      return JSON.parse(new TextDecoder().decode(response.body)) as unknown;
    } catch {
      throw new RelayRefusal("UPSTREAM_UNAVAILABLE", "An ownership lookup returned no JSON.");
    }
  }

  private async remember(id: string): Promise<void> {
    this.owned.add(id);
    if (this.ttlMs > 0) {
      await this.cache.set(`owner:${id}`, this.customerId, this.ttlMs);
    }
  }

  /** The caller's internal accounts, as the service lists them now. */
  private listAccounts(): Promise<Json[]> {
    this.accounts ??= (async () => {
      const items = (await this.allPages("/customers/internal-accounts")).filter(
        // Guard against a service that ignored the filter: an account of another customer is not ours.
        (account) => {
          const owner = stringField(account, "customerId");
          return owner === undefined || owner === this.customerId;
        },
      );
      for (const account of items) {
        const id = stringField(account, "id");
        if (id !== undefined) await this.remember(id);
      }
      return items;
    })();
    return this.accounts;
  }

  /** The items of `path?accountId=` for each of the caller's wallet accounts. */
  private listPerWallet(path: string): Promise<Json[]> {
    let list = this.lists.get(path);
    if (list === undefined) {
      list = (async () => {
        const wallets = (await this.listAccounts()).filter((account) => {
          const type = stringField(account, "type");
          return type === undefined || type === "EMBEDDED_WALLET";
        });
        const lists = await Promise.all(
          wallets.flatMap((account) => {
            const id = stringField(account, "id");
            return id === undefined
              ? []
              : [this.get(path, `accountId=${encodeURIComponent(id)}`).then(listItems)];
          }),
        );
        return lists.flat();
      })();
      this.lists.set(path, list);
    }
    return list;
  }

  private async accountOwned(accountId: string | undefined): Promise<boolean> {
    if (accountId === undefined) return false;
    if (this.owned.has(accountId)) return true;
    if ((await this.cache.get(`owner:${accountId}`)) === this.customerId) return true;
    await this.listAccounts();
    return this.owned.has(accountId);
  }

  private async discover(kind: RelayIdKind, id: string): Promise<void> {
    switch (kind) {
      case "InternalAccount":
        await this.listAccounts();
        return;
      case "AuthMethod":
      case "Session":
      case "DelegatedKey": {
        const path =
          kind === "AuthMethod"
            ? "/auth/credentials"
            : kind === "Session"
              ? "/auth/sessions"
              : "/auth/delegated-keys";
        for (const item of await this.listPerWallet(path)) {
          const itemId = stringField(item, "id");
          if (itemId !== undefined) await this.remember(itemId);
        }
        return;
      }
      case "CardFundingSource": {
        for (const key of await this.listPerWallet("/auth/delegated-keys")) {
          const fundingSourceId = stringField(key, "fundingSourceId");
          if (fundingSourceId !== undefined) await this.remember(fundingSourceId);
        }
        return;
      }
      case "Quote": {
        const quote = asObject(await this.get(`/quotes/${id}`));
        const source = asObject(quote?.source);
        if (
          stringField(source, "customerId") === this.customerId ||
          (await this.accountOwned(stringField(source, "accountId")))
        ) {
          await this.remember(id);
        }
        return;
      }
      case "Transaction": {
        const transaction = asObject(await this.get(`/transactions/${id}`));
        if (transaction === undefined) return;
        const customer = stringField(transaction, "customerId");
        const accounts = [
          stringField(asObject(transaction.source), "accountId"),
          stringField(asObject(transaction.destination), "accountId"),
          stringField(transaction, "sourceAccountId"),
          stringField(transaction, "destinationAccountId"),
          stringField(transaction, "accountId"),
          stringField(transaction, "internalAccountId"),
        ];
        let owned = customer === this.customerId;
        for (const account of accounts) {
          if (owned) break;
          owned = await this.accountOwned(account);
        }
        if (owned) await this.remember(id);
        return;
      }
      case "Card": {
        const card = asObject(await this.get(`/cards/${id}`));
        if (card === undefined) return;
        const holder = stringField(card, "customerId") ?? stringField(card, "cardholderId");
        let owned: boolean;
        if (holder !== undefined) {
          owned = holder === this.customerId;
        } else {
          // A card's funding sources all belong to the cardholder (spec: Card).
          const sources = Array.isArray(card.fundingSources) ? card.fundingSources : [];
          owned = sources.length > 0;
          for (const source of sources) {
            const account =
              typeof source === "string"
                ? source
                : (stringField(asObject(source), "internalAccountId") ??
                  stringField(asObject(source), "accountId"));
            if (!owned || !(await this.accountOwned(account))) owned = false;
          }
        }
        if (owned) await this.remember(id);
        return;
      }
      case "ExternalAccount": {
        // The caller's beneficiaries, as the service lists them by the forced customer (an item
        // naming another customer is not theirs, whatever the filter did).
        for (const account of await this.allPages("/customers/external-accounts")) {
          const owner = stringField(account, "customerId");
          const accountId = stringField(account, "id");
          if (accountId !== undefined && owner === this.customerId) await this.remember(accountId);
        }
        return;
      }
      case "ContactChange": {
        // The service's #853: a change is read under its customer; the caller's own customer in
        // the path, so only a change of the caller's is found (another's answers 404).
        const change = asObject(
          await this.get(`/customers/${this.customerId}/contact-changes/${id}`),
        );
        if (stringField(change, "customerId") === this.customerId) await this.remember(id);
        return;
      }
      case "Customer":
        return;
    }
  }

  /** The cached owner of `id`: at once when held in memory, else read from the store. */
  cachedOwner(id: string): string | undefined | Promise<string | undefined> {
    const hit = (this.cache as PeekableCache)[PEEK]?.(`owner:${id}`);
    return hit !== undefined ? hit : this.cache.get(`owner:${id}`);
  }

  /** Whether `id` is the caller's: at once when this request or a cache in memory knows it. */
  check(id: NamedId): boolean | Promise<boolean> {
    if (id.kind === "Customer") return id.value === this.customerId;
    if (this.ownedMade?.has(id.value)) return true;
    const cached = this.cachedOwner(id.value);
    return typeof cached === "object"
      ? cached.then((owner) => this.decide(id, owner))
      : this.decide(id, cached);
  }

  private decide(id: NamedId, cached: string | undefined): boolean | Promise<boolean> {
    if (cached === this.customerId) return true;
    // Ownership never changes: a fact about another customer is final, except for a
    // transaction, which has two parties (its payer and an internal payee): each is looked up.
    if (cached !== undefined && id.kind !== "Transaction") return false;
    return this.discover(id.kind, id.value).then(() => this.owned.has(id.value));
  }
}

/** Settings of {@link assertOwned}. */
export interface OwnershipSettings {
  readonly upstream: Upstream;
  readonly cache: OwnershipCache;
  readonly ttlMs: number;
  readonly onLookup: LookupListener;
}

/**
 * Checks that every id belongs to `customerId`, with the relay's credentials: accounts through
 * `GET /customers/internal-accounts?customerId=`, credentials, sessions, delegated keys and
 * funding sources through the lists of the caller's wallets, beneficiaries through
 * `GET /customers/external-accounts?customerId=`, quotes, transactions and cards by
 * getting them. Ids are checked in order; the first not owned stops the check.
 *
 * @throws {RelayRefusal} 403 `RELAY_FORBIDDEN` naming where the id was (not whose it is: a
 * foreign id and a missing id get the same answer); 502/504 when a lookup fails.
 */
export function assertOwned(
  settings: OwnershipSettings,
  customerId: string,
  ids: readonly NamedId[],
): void | Promise<void> {
  const lookup = new OwnershipLookup(
    settings.upstream,
    settings.cache,
    settings.ttlMs,
    customerId,
    settings.onLookup,
  );
  // Decided at once while the ids are known in memory (the usual cached read); from the first id
  // that needs a store or the service on, in order, one at a time.
  for (let i = 0; i < ids.length; i++) {
    const owned = lookup.check(ids[i]!);
    if (typeof owned !== "boolean") return checkRest(lookup, ids, i, owned);
    if (!owned) throw forbidden(ids[i]!);
  }
}

async function checkRest(
  lookup: OwnershipLookup,
  ids: readonly NamedId[],
  from: number,
  first: Promise<boolean>,
): Promise<void> {
  if (!(await first)) throw forbidden(ids[from]!);
  for (let i = from + 1; i < ids.length; i++) {
    const owned = lookup.check(ids[i]!);
    if (!(typeof owned === "boolean" ? owned : await owned)) throw forbidden(ids[i]!);
  }
}

function forbidden(id: NamedId): RelayRefusal {
  return new RelayRefusal(
    "RELAY_FORBIDDEN",
    "The request names a resource that does not belong to the signed-in user.",
    { field: id.where, kind: id.kind },
  );
}
