// docs/architecture.md "@signet/core": one client carries every platform seam, defaulted in one place.
// Nothing here reads window, navigator or globalThis.crypto at import time.

import { type CreateClientParameters, checkOptions } from "./clientOptions.js";
import { type CryptoApi, type ExportShownElsewhere, preloadOtpSealing } from "./crypto/api.js";
import type { SigningKey } from "./crypto/backend.js";
import type { BundleTrustOptions } from "./crypto/bundles.js";
import { loadChunk } from "./crypto/chunk.js";
import type { OpenExportBundleParameters } from "./crypto/export-bundle.js";
import { SignetError } from "./errors/errors.js";
import type { KeyPersistence, KeyStore } from "./keys/key-store.js";
import type { ClientPending, ClientPendingSeams } from "./pending/clientPending.js";
import {
  createPendingView,
  type PendingCall,
  type PendingEvent,
  type PendingOptions,
  type PendingView,
  type ResumedCall,
} from "./pending/pendingCalls.js";
import type { PendingStore } from "./pending/pendingStore.js";
import type { KeptPasskeySeams } from "./pending/resume.js";
import type { PendingTracker } from "./pending/track.js";

import { createCrossTab } from "./session/crossTab.js";
import { type CallOptions, deliver, type EventSink, type SignetEvent } from "./session/events.js";
import { expiryWarningMargin } from "./session/expiry/lapse.js";
import { createSessionStore, type Session, type SessionStore } from "./session/sessionStore.js";
import { abortableSleep } from "./transport/abort.js";
import {
  type Clock,
  createTransport,
  requestJson,
  resolveFetch,
  systemClock,
  type Transport,
} from "./transport/http.js";
import { preloadPayloadChecks } from "./transport/payloadCheck.js";
import { type RetryOptions, type RetryPolicy, resolveRetryPolicy } from "./transport/retry.js";
import type {
  RunSignedRequestParameters,
  RunSignedRequestReturnType,
} from "./transport/signedRequest.js";
import { withRetry } from "./transport/withRetry.js";
import type { WebAuthnProvider } from "./webauthn/types.js";

export type { CreateClientParameters } from "./clientOptions.js";

/**
 * What `createClient` returns: a client whose `signer` is inferred from the `crypto` given
 * (`"frame"` for `@signet/frame`'s, else `"page"`), which types what `exportWallet` resolves to.
 */
export type CreateClientReturnType<TCrypto extends CryptoApi = CryptoApi> = SignetClient<
  ClientSignerOf<TCrypto>
>;

/**
 * Where a client's keys sign (`SignetClient["signer"]`): `"page"` when they live with the app
 * (this page's IndexedDB, memory, a native secure store), `"frame"` when they live in a signer
 * frame of another origin (`@signet/frame`), which shows the recovery phrase itself.
 */
export type ClientSigner = "page" | "frame";

/**
 * The signer of a client made with a `crypto` of type `TCrypto`: `"frame"` when its
 * `showExportBundle` is always there (the type of `@signet/frame`'s `frameSigner().crypto`),
 * `"page"` for core's own crypto, where it is absent. `createClient` infers it, so an app never
 * writes it.
 */
export type ClientSignerOf<TCrypto extends CryptoApi> = TCrypto extends {
  readonly showExportBundle: (
    parameters: OpenExportBundleParameters,
  ) => Promise<ExportShownElsewhere>;
}
  ? "frame"
  : "page";

/**
 * `createClient`'s signature: the client's `signer`, and so what `exportWallet` resolves to, is
 * inferred from the `crypto` given (core's, or `@signet/frame`'s).
 */
export type CreateClient = <TCrypto extends CryptoApi = CryptoApi>(
  parameters: CreateClientParameters & { crypto?: TCrypto | undefined },
) => CreateClientReturnType<TCrypto>;

/** What each entry point supplies when a seam is not given. */
export type ClientDefaults = {
  crypto: () => CryptoApi;
  keyStore: () => Promise<{ store: KeyStore; persistence: KeyPersistence }>;
  webauthn: () => WebAuthnProvider | undefined;
  /**
   * The store of calls still processing where the key store is IndexedDB (the browser and Node
   * entries: `pending/idbPendingStore.ts`, loaded then); none keeps them in memory.
   */
  indexedDbPendingStore?: (() => Promise<PendingStore>) | undefined;
  /**
   * What resumes a kept passkey sign-in, loaded on first use (`pending/keptPasskey.ts`): it
   * reaches the actions, so the entry loads it, never the client's own imports.
   */
  keptPasskey?: (() => Promise<(client: SignetClient) => KeptPasskeySeams>) | undefined;
};

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * `runSignedRequest` parameters without the seams the client supplies. Their `retry` is the
 * action's own default (one line, e.g. a slower backoff): the client merges it over its policy
 * and under the call's `retry`, in the order defaults, client, action, call.
 */
export type SignedParameters<TBody> = DistributiveOmit<
  RunSignedRequestParameters<TBody>,
  "transport" | "clock" | "sleep" | "random" | "onEvent" | "onStillProcessing"
> & {
  /** What the call does should the service answer PROCESSING (kept for a reload, and how it ends). */
  pending?: PendingOptions | undefined;
};

/**
 * The client's calls still processing (docs/protocol.md §2.5): `subscribe`/`getSnapshot` fit
 * `useSyncExternalStore`; `resume` carries kept calls on (a reload's, another tab's).
 */
export type SignetPendingCalls = {
  /** Calls `listener` whenever the calls still processing change. */
  subscribe(listener: () => void): () => void;
  /** The calls still processing now (the same array until they change). */
  getSnapshot(): readonly PendingCall[];
  /** @internal Whether this tab is re-sending `requestId` now. */
  has(requestId: string): boolean;
  /**
   * @internal The tracker's hooks for one call sent outside the signed-request engine (a passkey
   * sign-in's verify, pending/unsignedKept.ts).
   */
  track(
    action: string,
    options: PendingOptions,
    onEvent?: (event: PendingEvent) => void,
  ): Promise<ReturnType<PendingTracker["track"]>>;
  /**
   * Re-sends every kept call (same body, stamp and request id) until it ends, one tab at a
   * time, and finishes each as its action would. `createClient` starts one unless
   * `resumePending: false`; calling it again while one runs joins that one.
   * With `accountIds`, only those accounts' kept calls are carried on and told of (a page whose
   * user is known resumes that user's calls alone; another account's stay kept for its own
   * resume). Kept calls whose challenge has lapsed are deleted whatever the account.
   * @returns how each kept call ended (its `pending` events say the same).
   */
  resume(
    call?: CallOptions & { accountIds?: readonly string[] | undefined },
  ): Promise<ResumedCall[]>;
};

/**
 * A Signet client: every action takes one as its first argument. Its public surface is small on
 * purpose (core README, "The client"): the relay it talks to, the service's time, the held
 * sessions for `useSyncExternalStore`, where keys persist, and `destroy`. The seams the actions
 * use (transport, crypto, timers, the signed-request engine, events) are internal: tagged as
 * such, they are left out of the published types and may change in any release.
 *
 * `TSigner` is where its keys sign, as `createClient` inferred it from its `crypto`: a client of
 * `@signet/frame` is a `SignetClient<"frame">`, and `exportWallet` resolves to `{ shownIn:
 * "frame" }` for it, to the phrase (`string`) for any other. Both are a `SignetClient`, which every
 * action takes.
 */
export type SignetClient<TSigner extends ClientSigner = ClientSigner> = {
  /** The relay URL the client was created with. */
  readonly relayUrl: string;
  /**
   * Where the keys sign: `"frame"` when `crypto` is a signer frame's (`@signet/frame`), else
   * `"page"`. Typed as precisely as the `crypto` given, so `exportWallet` knows what it returns.
   */
  readonly signer: TSigner;
  /** @internal The relay transport. */
  readonly transport: Transport;
  /** @internal The crypto implementation (WebCrypto or noble). */
  readonly crypto: CryptoApi;
  /** The service's time: the device clock, corrected by the `Date` of relay answers when off. */
  readonly clock: Clock;
  /** @internal Local elapsed time for timeouts: the device clock, never jumping with the service's. */
  readonly timer: Clock;
  /** @internal Resolves after `ms`, or rejects with `ABORTED` when `signal` aborts. */
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** @internal Jitter source in [0, 1). */
  readonly random: () => number;
  /** @internal The client's retry policy, defaults applied (a call's `retry` refines it). */
  readonly retry: RetryPolicy;
  /** @internal How `changeContact` changes a contact: `"patch"` (default) or `"resource"` (`createClient`'s option). */
  readonly contactChanges: "patch" | "resource";
  /** Held sessions; `subscribe`/`getSnapshot` fit `useSyncExternalStore`. */
  readonly sessions: SessionStore;
  /** Calls the service still answers PROCESSING for, and the resume of kept ones. */
  readonly pending: SignetPendingCalls;
  /**
   * @internal `createClient`'s `stepUp` with its default maximum age; absent when off. The
   * actions' chunks judge by it (`catalog/stepUpCheck.ts`, which resolves the preset).
   */
  readonly stepUp?: { actions: readonly string[] | "sensitive"; maxAgeMs: number } | undefined;
  /** @internal The key store, resolved on first use (the browser default probes IndexedDB then). */
  keyStore(): Promise<KeyStore>;
  /** Where keys persist: the probed default, or what a given store declares (else `memory`). */
  persistence(): Promise<KeyPersistence>;
  /** @internal The WebAuthn provider. @throws {SignetError} `WEBAUTHN_UNSUPPORTED` when there is none. */
  webauthn(): WebAuthnProvider;
  /** @internal Bundle trust options for `sealOtpBundle` / `openExportBundle`; warnings also go to `onEvent`. */
  bundleTrust(kind: "otpTargetBundle" | "exportBundle", onEvent?: EventSink): BundleTrustOptions;
  /**
   * @internal
   * Runs a signed request with the client's transport, clock and events. `call` is the calling
   * action's parameters: its `signal` cancels the request, its `onEvent` also gets the events.
   */
  signed<TBody>(
    parameters: SignedParameters<TBody>,
    call?: CallOptions,
  ): Promise<RunSignedRequestReturnType<TBody>>;
  /**
   * @internal
   * Sends an unsigned request and parses its JSON, retried under the retry policy; `call` as for
   * `signed` (its `retry` refines the policy). Reads (`GET`, `HEAD`) and calls marked
   * `idempotent` are repeated after no answer, a 5xx, a 429 or a 503 with `Retry-After`; any
   * other call only after a refused connection (it provably never left).
   */
  request<TBody>(
    parameters: {
      method: string;
      path: string;
      body?: string;
      expectedStatus?: number | readonly number[];
      headers?: Record<string, string>;
      /** A repeat changes nothing more than the first send (a new challenge, say). */
      idempotent?: boolean;
      /** The flow, for `retry` events. */
      operation?: string;
      /** The action's own retry default: over the client's policy, under the call's `retry`. */
      retry?: RetryOptions;
      /**
       * An earlier end than the policy's `timeoutMs`, on `timer` (a poll's budget that this
       * request is part of): no retry waits past it, and an attempt is cut at it.
       */
      deadline?: number;
    },
    call?: CallOptions,
  ): Promise<TBody>;
  /** @internal Emits an event to the client's `onEvent`, then to a per-call sink (errors in either are ignored). */
  emit(event: SignetEvent, onEvent?: EventSink): void;
  /** @internal Stores a new session (automatic refresh, when on, follows `sessions`). */
  holdSession(session: Session, key: SigningKey): Promise<void>;
  /**
   * @internal
   * Runs `task` once per `key` at a time: callers while it runs get its result. Across the tabs
   * of an origin it holds a Web Lock where those exist; `waited` then tells `task` that another
   * tab may have done the work meanwhile (re-read `sessions` with `sync()`).
   */
  coalesce<T>(key: string, task: (waited: boolean) => Promise<T>): Promise<T>;
  /** @internal Aborted by `destroy()`: what runs for the client's lifetime (automatic refresh) stops on it. */
  readonly signal: AbortSignal;
  /** Stops automatic refresh (cancelling a refresh in flight) and cross-tab listening. The client stays usable. */
  destroy(): void;
};

/** How long a verification counts under `stepUp` when `maxAgeMs` is not given: 15 minutes. */
export const DEFAULT_STEP_UP_MAX_AGE_MS = 15 * 60_000;

/** Clock differences below this are latency and the `Date` header's one-second resolution. */
export const SKEW_TOLERANCE_MS = 30_000;
/**
 * A `Date` further than this from the device clock is not believed (docs/protocol.md §11): one
 * answer must not be able to move the client's time by days. The device clock stays in use.
 */
export const MAX_CLOCK_OFFSET_MS = 6 * 60 * 60_000;

/**
 * The signed-request engine is a chunk (docs/architecture.md "Size"): a page's first render reads
 * sessions and balances, and only a signature needs the engine. Every client starts loading it
 * when it is made, so no signed call waits for its code; a load that failed is tried again by the
 * next signed call (`loadChunk` types the failure, and nothing was sent).
 */
const loadEngine = () => loadChunk(() => import("./transport/clientSigned.js"));
/**
 * What tracks and keeps a call answered PROCESSING, where kept calls are stored and their resume
 * (pending/clientPending.ts): a chunk prefetched with the engine, as only a signature or a kept
 * call needs it. The page holds the view alone.
 */
const loadPending = () => loadChunk(() => import("./pending/clientPending.js"));

/**
 * The client's wiring of its calls still processing, made on first use (the resume at creation,
 * or a signed call) from the prefetched chunk; a load that failed is tried again by the next use.
 * `seams` is read then, once the client exists.
 */
function wirePending(seams: () => ClientPendingSeams): () => Promise<ClientPending> {
  let wired: Promise<ClientPending> | undefined;
  return () => {
    wired ??= loadPending().then(({ createClientPending }) => createClientPending(seams()));
    wired.catch(() => {
      wired = undefined;
    });
    return wired;
  };
}

/** A client's calls still processing, over its view and its wiring (made on first use). */
function pendingCalls(
  view: PendingView,
  pending: () => Promise<ClientPending>,
): SignetPendingCalls {
  return {
    subscribe: view.subscribe,
    getSnapshot: view.getSnapshot,
    has: view.has,
    resume: async (call) => (await pending()).resume(call),
    track: async (action, options, onEvent) =>
      (await pending()).tracker.track(action, options, onEvent),
  };
}

/** The entry's resume of kept passkey sign-ins, bound to the client (none without the entry's). */
function bindKeptPasskey(
  load: ClientDefaults["keptPasskey"],
  client: () => SignetClient,
): (() => Promise<KeptPasskeySeams>) | undefined {
  return load === undefined ? undefined : async () => (await load())(client());
}

/** The client's parts a kept sign-in's finish holds its session with (pending/adoptKeptSession.ts). */
function adoptionSeams(
  keyStore: () => Promise<KeyStore>,
  crypto: CryptoApi,
  sessions: SessionStore,
  emit: (event: SignetEvent, onEvent?: EventSink) => void,
  clock: Clock,
  deviceClock: Clock,
): ReturnType<ClientPendingSeams["client"]>["keys"] {
  return {
    keyStore,
    restore: (record) => crypto.restoreSigningKey(record),
    hold: (session, key) => sessions.add(session, key),
    emit,
    now: () => clock.now(),
    deviceNow: () => deviceClock.now(),
  };
}

/**
 * Expiry times come from the service's clock. A device clock that is minutes off would make every
 * challenge look expired (or a dead session look alive), so the client's clock follows the `Date`
 * header of relay answers whenever the two differ by more than SKEW_TOLERANCE_MS.
 */
function serviceClock(deviceClock: Clock): {
  clock: Clock;
  observeDate: (response: Response) => void;
} {
  let skewMs = 0;
  return {
    clock: { now: () => deviceClock.now() + skewMs },
    observeDate(response) {
      const served = Date.parse(response.headers?.get?.("date") ?? "");
      if (Number.isNaN(served)) return;
      const offset = served - deviceClock.now();
      if (Math.abs(offset) > MAX_CLOCK_OFFSET_MS) return;
      skewMs = Math.abs(offset) > SKEW_TOLERANCE_MS ? offset : 0;
    },
  };
}

/** Builds `createClient` for an entry point's defaults. */
export function createClientFactory(defaults: ClientDefaults) {
  return function createClient(parameters: CreateClientParameters): SignetClient {
    checkOptions(parameters);
    const deviceClock = parameters.clock ?? systemClock;
    const { clock, observeDate } = serviceClock(deviceClock);
    const emit = (event: SignetEvent, onEvent?: EventSink) => {
      deliver(event, parameters.onEvent, onEvent);
    };
    const transport = createTransport({
      relayUrl: parameters.relayUrl,
      fetch: async (input, init) => {
        const response = await resolveFetch(parameters.fetch)(input, init);
        observeDate(response);
        return response;
      },
      headers: parameters.headers,
      credentials: parameters.credentials,
      timeoutMs: parameters.requestTimeoutMs,
      clock,
      onEvent: emit,
    });
    const crypto = parameters.crypto ?? defaults.crypto();
    // One WebAuthn provider per client, and the chunks that passkeys, HPKE and OTP sealing need
    // start loading now: a tap or a typed code later never waits for them.
    const webauthn = parameters.webauthn ?? defaults.webauthn();
    webauthn?.preload?.();
    crypto.backend.preload?.();
    preloadOtpSealing();
    preloadPayloadChecks();
    loadEngine().catch(() => undefined);
    const view = createPendingView();
    const pending = wirePending(() => ({
      view,
      given: parameters.pendingStore,
      indexedDb: defaults.indexedDbPendingStore,
      persistence: async () => (await resolveStore()).persistence,
      lock: (key, task) => tabs.lock(key, () => task()),
      now: () => clock.now(),
      emit,
      lifetime: lifetime.signal,
      resumeAtStart: parameters.resumePending !== false,
      client: () => ({
        passkey: bindKeptPasskey(defaults.keptPasskey, () => client),
        signed: (resumed, options) => client.signed<unknown>(resumed, options),
        read: (path, signal) => client.request({ method: "GET", path }, { signal }),
        sessions,
        keys: adoptionSeams(keyStore, crypto, sessions, emit, clock, deviceClock),
      }),
    }));
    // Made at once: kept calls of an earlier page (or another tab's) are carried on, as wagmi
    // reconnects on mount (their `pending` events reach `onEvent`), or with `resumePending:
    // false` only those past their challenge's expiry deleted (pending/clientPending.ts).
    pending().catch(() => undefined);
    let resolved: Promise<{ store: KeyStore; persistence: KeyPersistence }> | undefined;
    const resolveStore = () => {
      const given = parameters.keyStore;
      if (!resolved) {
        const resolving = given
          ? Promise.resolve({ store: given, persistence: given.persistence ?? "memory" })
          : defaults.keyStore();
        // A choice that failed (the probe's chunk not fetched) is made again by the next use.
        resolving.catch(() => {
          if (resolved === resolving) resolved = undefined;
        });
        resolved = resolving;
      }
      return resolved;
    };
    const keyStore = async () => {
      // Sessions live in the key store, which the origin's other tabs share: listen to them from
      // the first use on.
      tabs.listen();
      return (await resolveStore()).store;
    };
    const tabs = createCrossTab("signet.sessions", () => {
      sessions.sync().catch(() => {
        // The next use of the store reports a store that cannot be read.
      });
    });
    const lifetime = new AbortController();
    const inflight = new Map<string, Promise<unknown>>();
    const sessions = createSessionStore({
      keyStore,
      crypto,
      now: () => clock.now(),
      deviceNow: () => deviceClock.now(),
      // Asked when the service's clock and the device's disagree about an expiry, and after a 401
      // that did not name the session's key as refused.
      confirmGone: async (session) => {
        const { body } = await requestJson<{ data?: { id?: unknown }[] }>({
          transport,
          method: "GET",
          path: `/auth/sessions?accountId=${encodeURIComponent(session.accountId)}`,
        });
        return !body?.data?.some((listed) => listed?.id === session.id);
      },
      onChange: () => tabs.announce(),
      lock: (key, task) => tabs.lock(key, task),
      expiryWarningMs: expiryWarningMargin(parameters.sessionWarning),
      onGone: (session, action) =>
        emit({ type: "session", action, accountId: session.accountId, sessionId: session.id }),
    });

    const sleep = parameters.sleep ?? abortableSleep;
    const random = parameters.random ?? Math.random;
    // The deprecated `signedRequests.backoff` is read as a client-level `retry.backoff` that the
    // client's own `retry` overrides.
    const retry = resolveRetryPolicy(
      { backoff: parameters.signedRequests?.backoff },
      parameters.retry,
    );
    const engineSeams = {
      transport,
      clock,
      timer: deviceClock,
      sleep,
      random,
      randomBytes: crypto.backend.randomBytes,
      timeoutMs: parameters.signedRequests?.timeoutMs,
      allowUnknownPayloads: parameters.allowUnknownPayloads === true,
      push: parameters.push === true,
      describeStamp: crypto.describeStamp,
    };
    const client: SignetClient = {
      relayUrl: parameters.relayUrl,
      // A frame's crypto shows the phrase itself (CryptoApi.showExportBundle); core's never does.
      signer: crypto.showExportBundle ? "frame" : "page",
      transport,
      crypto,
      clock,
      timer: deviceClock,
      sleep,
      random,
      retry,
      contactChanges: parameters.contactChanges ?? "patch",
      sessions,
      pending: pendingCalls(view, pending),
      ...(parameters.stepUp
        ? {
            stepUp: {
              actions: parameters.stepUp.actions,
              maxAgeMs: parameters.stepUp.maxAgeMs ?? DEFAULT_STEP_UP_MAX_AGE_MS,
            },
          }
        : {}),
      keyStore,
      persistence: async () => (await resolveStore()).persistence,
      webauthn() {
        const provider = webauthn;
        if (!provider)
          throw new SignetError(
            "WEBAUTHN_UNSUPPORTED",
            "No WebAuthn provider: pass `webauthn` to createClient",
          );
        return provider;
      },
      bundleTrust(kind, onEvent) {
        const trustedKeys = parameters.trustedKeys?.[kind];
        return {
          ...(trustedKeys ? { trustedKeys } : {}),
          allowUnsigned: parameters.allowUnsignedBundles === true,
          onWarning: (warning) => emit({ type: "bundleWarning", ...warning }, onEvent),
        };
      },
      signed: async (
        { pending: pendingOptions, ...signedParameters },
        { signal, onEvent, retry: callRetry } = {},
      ) => {
        const [engine, { tracker: calls }] = await Promise.all([loadEngine(), pending()]);
        // A PROCESSING answer makes the call pending: shown (direct calls too), and kept when
        // its action allows and the call can be re-sent as it went (challenge mode only).
        const tracked = calls.track(
          signedParameters.operation ?? "signedRequest",
          pendingOptions ?? {},
          onEvent,
        );
        return engine.runClientSigned(
          engineSeams,
          {
            ...signedParameters,
            onStillProcessing: tracked.onStillProcessing,
            // Defaults, client, action, call: the action's default refines the client's policy
            // and never overrides the caller's.
            retry: resolveRetryPolicy(retry, signedParameters.retry, callRetry),
            signal,
            onEvent: (event) => emit(event, onEvent),
            // A 401 on a call a held session stamped clears that session: the engine says so to
            // the store directly (session/sessionRejection.ts); the event stays for observers.
            onEnd: (end) => {
              tracked.onEnd(end);
              sessions.ended(end);
            },
          } as Partial<RunSignedRequestParameters<never>>,
          onEvent,
        ) as never;
      },
      request: async (
        { idempotent, operation, retry: actionRetry, deadline, ...request },
        call = {},
      ) => {
        const { signal, onEvent } = call;
        // Within a caller's deadline, each attempt's time limit is at most what is left of it.
        const send = () =>
          requestJson({
            transport,
            ...request,
            signal,
            onEvent,
            timeoutMs:
              deadline === undefined ? undefined : Math.max(1, deadline - deviceClock.now()),
          });
        const { body } = await withRetry(send, {
          policy: resolveRetryPolicy(retry, actionRetry, call.retry),
          safe: request.method === "GET" || request.method === "HEAD" || idempotent === true,
          method: request.method,
          path: request.path,
          operation,
          signal,
          sleep,
          random,
          timer: deviceClock,
          deadline,
          clock,
          onRetry: (event) => emit(event, onEvent),
        });
        return body as never;
      },
      emit,
      holdSession: (session, key) => sessions.add(session, key),
      coalesce(key, task) {
        let running = inflight.get(key) as Promise<never> | undefined;
        if (!running) {
          running = tabs.lock(key, task).finally(() => inflight.delete(key)) as Promise<never>;
          inflight.set(key, running);
        }
        return running;
      },
      signal: lifetime.signal,
      destroy() {
        lifetime.abort();
        tabs.close();
      },
    };
    return client;
  };
}
