// The chain the fault suites measure (test/reliability/soak.ts, matrix.ts): core → fault proxy →
// relay → fault proxy → emulator, all over HTTP on 127.0.0.1, with the client's and the relay's
// time limits either the libraries' defaults or scaled down together. One flow is one fresh
// customer and one fresh client; the proxies attribute every request to its flow and step, so a
// flow's faults are the ones that reached its own requests. After a flow, once its last late
// request has left the proxies, a sign-out on a clean path (a second relay, no proxy) ends what
// it made, and the service's list of the account's sessions must then be empty.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  addPasskey,
  authorizeQuote,
  type createClient,
  createMemoryKeyStore,
  executeQuote,
  exportWallet,
  getQuote,
  isSignetError,
  type KeyStore,
  refreshSession,
  requestOtp,
  type SignetEvent,
  signOut,
  verifyOtp,
  waitForTransaction,
} from "@signet/core";
import { createRelay, nodeRemoteAddress, toNodeHandler } from "@signet/relay";
import {
  type FaultProxy,
  type ProxiedRequest,
  type ProxyFault,
  type ProxyRecord,
  startFaultProxy,
} from "../support/faultProxy.js";
import { passkeyUser, registrationChallenge } from "../support/signIn.js";
import { type Stack, startStack, USER_HEADER } from "../support/stack.js";
import type { Random } from "./random.js";

export const FLOW_KINDS = [
  "sign-in",
  "add passkey",
  "refresh",
  "export",
  "execute",
  // An EU customer's payment: execute, then Strong Customer Authentication by SMS code (a wrong
  // code first, now and then), then settlement.
  "execute with SCA",
] as const;
export type FlowKind = (typeof FLOW_KINDS)[number];

/** The device's request number within its flow, passed from the first proxy to the second. */
export const STEP_HEADER = "x-soak-step";

/**
 * The time limits of a run. `scale` 1 is the libraries' defaults, untouched: the client is made
 * with no `retry` and no `requestTimeoutMs` (30 s per attempt, 3 retries, backoff 500 ms doubling
 * to 8 s, `Retry-After` up to 30 s), the relay with no `timeoutMs` or `ownershipCacheTtlMs` (30 s
 * per call, an hour). Below 1, every one of those, the emulator's challenge lifetime (5 minutes)
 * and every injected delay are multiplied by it together, so a delay past a time limit stays past
 * it in the same proportion.
 */
export type Timing = {
  scale: number;
  clientTimeoutMs: number;
  relayTimeoutMs: number;
  challengeTtlMs: number;
  /** What a 429 injected by a proxy asks for, in whole seconds. */
  retryAfterSeconds: (random: Random) => number;
  /** A flow still running after this long counts as hung. */
  deadlineMs: number;
};

export function timing(scale: number): Timing {
  return {
    scale,
    clientTimeoutMs: 30_000 * scale,
    relayTimeoutMs: 30_000 * scale,
    challengeTtlMs: 5 * 60_000 * scale,
    // Whole seconds only: a scaled run's 30 s · scale ceiling would refuse even `1`.
    retryAfterSeconds: (random) => (scale === 1 ? random.int(1, 3) : 0),
    deadlineMs: 45 * 60_000 * scale,
  };
}

/** Settings of the client, the relay and the emulator for a timing (none at scale 1). */
function settings(t: Timing) {
  if (t.scale === 1) return { client: {}, relay: {}, emulator: {} };
  const ms = (value: number) => Math.max(1, Math.round(value * t.scale));
  return {
    client: {
      requestTimeoutMs: ms(30_000),
      retry: {
        backoff: { baseMs: ms(500), maxMs: ms(8_000) },
        maxRetryAfterMs: ms(30_000),
        timeoutMs: ms(120_000),
      },
    },
    relay: { timeoutMs: ms(30_000), ownershipCacheTtlMs: ms(60 * 60_000) },
    emulator: { challengeTtlMs: ms(5 * 60_000) },
  };
}

/** A step's name: method, path with ids as `{Kind}`, query names only, and the leg. */
export function stepLabel(request: Pick<ProxiedRequest, "method" | "url" | "signed">): string {
  const [path = "", query] = request.url.replace(/^\/api\/grid/, "").split("?");
  const template = path.replace(/\b([A-Z][A-Za-z]+):[0-9a-f-]{36}\b/g, "{$1}");
  const names = query ? `?${[...new URLSearchParams(query).keys()].join("&")}` : "";
  return `${request.method} ${template}${names}${request.signed ? " (signed)" : ""}`;
}

/** Where a flow stands, for its fault plan. */
export type FlowState = {
  /** The device's request number where the flow's own part begins (after its sign-in). */
  ownStart: number;
};

/** What decides each request's fault, per hop, for one flow. */
export type FaultPlan = {
  device(request: ProxiedRequest, flow: FlowState): ProxyFault | undefined;
  /** `deviceStep`: the number of the device's request this call of the relay serves. */
  service(
    request: ProxiedRequest,
    deviceStep: number | undefined,
    flow: FlowState,
  ): ProxyFault | undefined;
};

/** How a flow is played. */
export type FlowOptions = {
  /**
   * For an SCA payment, answer the first code wrong (and the right one when asked again); by
   * default 30% of the time, by the flow's random.
   */
  wrongCodeFirst?: boolean;
};

/** A flow's outcome and what its requests met. */
export type FlowResult = {
  kind: FlowKind;
  outcome: "completed" | "hung" | "untyped" | { code: string };
  device: ProxyRecord[];
  service: ProxyRecord[];
  /** Device steps (labels) of the flow's own part: after the sign-in, for every flow but sign-in. */
  ownSteps: { index: number; label: string }[];
  /** Whether the flow completed only after a retry, a wait, a fresh start or a read-back. */
  recovered: boolean;
  /** Times the app asked the user for a newer code (a late code request superseded one). */
  codesAskedAgain: number;
  /** Times the app authorized a payment again (a late SCA login start superseded the login). */
  scaAskedAgain: number;
  /** From the flow's first request to its outcome (the books after it not counted). */
  durationMs: number;
  /** Sessions the service still listed for the account after the sign-out. */
  orphans: number;
  keysLeft: boolean;
  /** The ledger: funded minus spent did not match the quote's state (and spent too much). */
  ledger: "ok" | "mismatch" | "double" | "none";
  /** For a flow that did not complete or left something behind: what it met, what it did. */
  trace?: FlowTrace;
};

/**
 * The trace of a flow that failed, or left a session or a key behind: the error, every fault injected into its requests (PROCESSING and the
 * silent ones too) with the device step it hit, and the device's events in time order (each HTTP
 * request with its answer or the failure, each retry's wait and reason, each signed-request
 * stage), at their milliseconds from the flow's start. Built from events and proxy records only:
 * nothing secret (events are redacted by the library; no body, header or stamp is read here).
 */
export type FlowTrace = {
  kind: FlowKind;
  code: string;
  message: string;
  /** The error's `details` (secret-free by the library's rule). */
  details: unknown;
  durationMs: number;
  /** What the sign-out on the clean path left: sessions the service still listed, and keys. */
  orphans?: number;
  keysLeft?: boolean;
  faults: {
    hop: "device" | "service";
    fault: string;
    /** The device's request number it hit (a service fault: the device request its call served). */
    step: number | undefined;
    label: string;
    /** What the hop answered after the fault: a status, or `none` (no answer). */
    answered: number | "none";
  }[];
  events: string[];
};

export type Chain = {
  stack: Stack;
  timing: Timing;
  runFlow(
    kind: FlowKind,
    name: string,
    plan: FaultPlan,
    random: Random,
    options?: FlowOptions,
  ): Promise<FlowResult>;
  /** Counts of the signed-request invariants over every flow so far. */
  invariants(): {
    requests: number;
    reusedAfterTerminal: number;
    differentBody: number;
    /** The first few reuses: the step, and the answer that had ended its request id. */
    reuses: string[];
  };
  close(): Promise<void>;
};

/** Watches every request the devices make: the signed-request invariants are judged here. */
function createWatcher() {
  // Each ended request id, with the answer that ended it and the signal of the attempt it
  // answered: an attempt whose signal fired (the device's own timeout, a hair after the answer
  // came) never handed the answer to the device, which rightly sends the request id again.
  const terminal = new Map<string, { ended: string; signal: AbortSignal | null | undefined }>();
  const bodies = new Map<string, string>();
  const counts = { requests: 0, reusedAfterTerminal: 0, differentBody: 0, reuses: [] as string[] };
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === "GET" ? "" : await request.clone().text();
    const requestId = request.headers.get("request-id");
    const idempotencyKey = request.headers.get("idempotency-key");
    const retryKey = requestId ?? (idempotencyKey ? `idem:${idempotencyKey}` : undefined);
    counts.requests++;
    const previous = requestId ? terminal.get(requestId) : undefined;
    if (previous !== undefined && previous.signal?.aborted !== true) {
      counts.reusedAfterTerminal++;
      const { pathname, search } = new URL(request.url);
      const step = stepLabel({ method: request.method, url: `${pathname}${search}`, signed: true });
      if (counts.reuses.length < 10) counts.reuses.push(`${step} after ${previous.ended}`);
    }
    if (retryKey) {
      const seen = bodies.get(retryKey);
      const now = `${request.method} ${new URL(request.url).pathname} ${body}`;
      if (seen !== undefined && seen !== now) counts.differentBody++;
      bodies.set(retryKey, now);
    }
    const response = await fetch(request);
    if (requestId) {
      const text = await response.clone().text();
      const processing = response.status === 200 && /"status"\s*:\s*"PROCESSING"/.test(text);
      // 2xx and 4xx answers end a request id; PROCESSING, 202, 429 and 5xx leave it open.
      if (
        !processing &&
        response.status !== 202 &&
        response.status !== 429 &&
        response.status < 500
      )
        terminal.set(requestId, {
          ended: `${response.status} ${/"code"\s*:\s*"([A-Z_]+)"/.exec(text)?.[1] ?? ""}`.trim(),
          signal: init?.signal,
        });
    }
    return response;
  };
  return { fetch: fetchFn, counts };
}

/** A relay with no proxy on either side and no restarts: the clean path of sign-outs. */
async function startCleanRelay(
  emulatorUrl: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const relay = createRelay({
    baseUrl: emulatorUrl,
    tokenId: "emulator",
    clientSecret: "emulator",
    resolveUser: (request) => {
      const customerId = request.headers.get(USER_HEADER);
      return customerId ? { customerId } : null;
    },
    rateLimit: false,
    endUserIpAddress: nodeRemoteAddress,
  });
  const server: Server = createServer(toNodeHandler(relay) as never);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/grid`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The test's backend calls (sign-up, funding, the books), outside the faults: a connection the
 * loaded loop lost is tried again (a sign-up again under a new address; a customer left behind
 * by a lost answer holds nothing).
 */
async function backend<T>(call: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (error) {
      if (!(error instanceof TypeError) || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** What `stack.walletQuote` funds each wallet with. */
const FUNDED = 5_000_000;

/**
 * Starts the chain: the emulator (challenges living `challengeTtlMs`), the relay between two
 * fault proxies, and a clean relay for sign-outs.
 */
export async function startChain(
  t: Timing,
  /** The share of #850/#854's signed retries the emulator answers PROCESSING unprompted, seeded. */
  processing?: { rate: number; seed: number },
): Promise<Chain> {
  const configured = settings(t);
  const plans = new Map<string, { plan: FaultPlan; state: FlowState }>();
  const records = new Map<string, { device: ProxyRecord[]; service: ProxyRecord[] }>();
  let serviceProxy: FaultProxy | undefined;
  const stack = await startStack({
    settlementDelayMs: 5,
    ...configured.emulator,
    ...(processing && processing.rate > 0
      ? { processingRate: processing.rate, seed: `chain-${processing.seed}` }
      : {}),
    relayOptions: configured.relay,
    relayTags: [USER_HEADER, STEP_HEADER],
    serviceHop: async (forward, emulatorUrl) => {
      serviceProxy = await startFaultProxy({
        target: emulatorUrl,
        forward,
        flowHeader: USER_HEADER,
        tagHeaders: [USER_HEADER, STEP_HEADER],
        decide: (request) => {
          const entry = request.flow === undefined ? undefined : plans.get(request.flow);
          const step = Number(request.tags[STEP_HEADER]);
          return entry?.plan.service(
            request,
            Number.isFinite(step) ? step : undefined,
            entry.state,
          );
        },
        onRecord: (record) => {
          if (record.flow !== undefined) records.get(record.flow)?.service.push(record);
        },
      });
      return serviceProxy;
    },
  });
  // Each flow has a relay of its own (the same relay, on a port of its own), so that a restart
  // cuts that flow's requests, as a restart of the one instance a user's requests reach would,
  // and not every flow running at the same moment.
  const relays = new Map<string, Awaited<ReturnType<Stack["startRelay"]>>>();
  const restarts = new Map<string, Promise<void>>();
  const restartRelay = (flow: string) => {
    const relay = relays.get(flow);
    if (relay === undefined) return Promise.resolve();
    // One restart at a time; a restart asked for meanwhile is the same restart.
    let running = restarts.get(flow);
    if (running === undefined) {
      running = relay.restart().finally(() => restarts.delete(flow));
      restarts.set(flow, running);
    }
    return running;
  };
  const deviceProxy = await startFaultProxy({
    target: (request) => new URL(relays.get(request.flow ?? "")?.url ?? stack.relayUrl).origin,
    flowHeader: USER_HEADER,
    addHeaders: (request) => ({ [STEP_HEADER]: String(request.index) }),
    decide: (request) => {
      const entry = request.flow === undefined ? undefined : plans.get(request.flow);
      const fault = entry?.plan.device(request, entry.state);
      // A restart of the flow's relay while this request is in it.
      const flow = request.flow ?? "";
      return fault?.kind === "interrupt" ? { ...fault, during: () => restartRelay(flow) } : fault;
    },
    onRecord: (record) => {
      if (record.flow !== undefined) records.get(record.flow)?.device.push(record);
    },
  });
  const clean = await startCleanRelay(stack.emulator.url);
  const watcher = createWatcher();

  async function runFlow(
    kind: FlowKind,
    name: string,
    plan: FaultPlan,
    random: Random,
    options: FlowOptions = {},
  ): Promise<FlowResult> {
    const sca = kind === "execute with SCA";
    const extra = sca
      ? {
          region: random.pick(["DE", "FR", "NL", "IE"]),
          phoneNumber: `+3531${String(random.int(0, 999_999_999)).padStart(9, "0")}`,
        }
      : {};
    const user = await backend((attempt) => stack.signUp(`${name}-${attempt}@example.com`, extra));
    const flow = user.customerId;
    relays.set(flow, await stack.startRelay());
    const own = { device: [] as ProxyRecord[], service: [] as ProxyRecord[] };
    records.set(flow, own);
    // The sign-in before a flow's own part meets the plan's faults too; a plan that faults only
    // the own part (the matrix) reads where it begins.
    const state: FlowState = { ownStart: kind === "sign-in" ? 1 : Number.POSITIVE_INFINITY };
    plans.set(flow, { plan, state });
    const events: SignetEvent[] = [];
    const eventAt: number[] = [];
    const flowStart = performance.now();
    const keyStore: KeyStore = createMemoryKeyStore();
    const client = stack.client(flow, {
      relayUrl: `${deviceProxy.url}/api/grid`,
      keyStore,
      fetch: watcher.fetch,
      signedRequests: undefined,
      onEvent: (event) => {
        events.push(event);
        eventAt.push(Math.round(performance.now() - flowStart));
      },
      ...configured.client,
    }).client;
    let quoteId: string | undefined;
    let ownEventsFrom = 0;
    let codesAskedAgain = 0;
    let scaAskedAgain = 0;
    const run = async () => {
      const signIn = async () => {
        codesAskedAgain += await signInAsAnApp(client, user.emailCredentialId);
      };
      if (kind !== "sign-in") {
        await signIn();
        state.ownStart = deviceProxy.issued(flow) + 1;
      }
      ownEventsFrom = events.length;
      if (kind === "execute" || sca) {
        const amount = random.int(1, 50) * 10_000;
        quoteId = (await backend(() => stack.walletQuote(user, amount))).quoteId;
      }
      const wrongCodeFirst = options.wrongCodeFirst ?? random.next() < 0.3;
      if (kind === "sign-in") await signIn();
      else
        await ownPart(kind, client, user, quoteId, random, {
          settleWithinMs: 40 * t.clientTimeoutMs,
          wrongCodeFirst,
          scaAskedAgain: () => {
            scaAskedAgain += 1;
          },
        });
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startedAt = performance.now();
    const settled = await Promise.race([
      run().then(
        () => "completed" as const,
        (error: unknown) => error,
      ),
      new Promise<"hung">((resolve) => {
        timer = setTimeout(() => resolve("hung"), t.deadlineMs);
      }),
    ]);
    clearTimeout(timer);
    const durationMs = Math.round(performance.now() - startedAt);
    const outcome: FlowResult["outcome"] =
      settled === "completed" || settled === "hung"
        ? settled
        : isSignetError(settled) && typeof settled.code === "string"
          ? { code: settled.code }
          : "untyped";
    if (outcome === "untyped") console.error(`untyped failure in ${kind}:`, settled);
    if (process.env.SOAK_DEBUG && outcome !== "completed") debugDump(kind, settled, own, events);
    // Faults stop; requests still held in a proxy (late deliveries) land before the books close.
    plans.set(flow, { plan: { device: () => undefined, service: () => undefined }, state });
    await deviceProxy.drained(flow);
    await serviceProxy?.drained(flow);
    const recovered = events
      .slice(ownEventsFrom)
      .some((event) => event.type === "retry" && event.reason !== "processing");
    const books = await closeBooks(stack, clean.url, flow, user, keyStore, quoteId);
    // Read once the late requests have landed: their records complete the trace. A flow that
    // completed but left a session or a key behind gets one too.
    const trace =
      outcome !== "completed" || books.orphans > 0 || books.keysLeft
        ? {
            ...flowTrace(kind, settled, durationMs, own, events, eventAt),
            orphans: books.orphans,
            keysLeft: books.keysLeft,
          }
        : undefined;
    plans.delete(flow);
    records.delete(flow);
    await restarts.get(flow);
    await relays.get(flow)?.close();
    relays.delete(flow);
    client.destroy();
    return {
      kind,
      outcome,
      device: own.device,
      service: own.service,
      ownSteps: own.device
        .filter((record) => record.index >= state.ownStart)
        .sort((a, b) => a.index - b.index)
        .map((record) => ({ index: record.index, label: stepLabel(record) })),
      recovered: outcome === "completed" && recovered,
      codesAskedAgain,
      scaAskedAgain,
      durationMs,
      ...books,
      ...(trace === undefined ? {} : { trace }),
    };
  }

  return {
    stack,
    timing: t,
    runFlow,
    invariants: () => ({ ...watcher.counts, reuses: [...watcher.counts.reuses] }),
    async close() {
      await deviceProxy.close();
      for (const relay of relays.values()) await relay.close();
      await clean.close();
      await stack.close();
    },
  };
}

/**
 * An email sign-in as an app plays it: the code requested, then verified. A code request that
 * reached the service late (after the device had asked again and got its answer) issues a newer
 * code, which supersedes the one the device sealed to: the service refuses the bundle
 * (`details.reason` `OTP_BUNDLE_UNDECRYPTABLE`), and the app asks the user for the newest code,
 * as it would for an expired one (twice at most). Returns how often it asked again.
 */
async function signInAsAnApp(
  client: ReturnType<typeof createClient>,
  credentialId: string,
): Promise<number> {
  for (let askedAgain = 0; ; askedAgain++) {
    const otp = await requestOtp(client, { credentialId });
    try {
      await verifyOtp(client, { ...otp, otpCode: "000000" });
      return askedAgain;
    } catch (error) {
      const superseded =
        isSignetError(error, "UNAUTHORIZED") && error.details.reason === "OTP_BUNDLE_UNDECRYPTABLE";
      if (!superseded || askedAgain >= 2) throw error;
    }
  }
}

/** Sign-out on the clean path, then what the service still holds and what the device kept. */
async function closeBooks(
  stack: Stack,
  cleanUrl: string,
  flow: string,
  user: { customerId: string; accountId: string },
  keyStore: KeyStore,
  quoteId: string | undefined,
): Promise<Pick<FlowResult, "orphans" | "keysLeft" | "ledger">> {
  const { client } = stack.client(flow, {
    relayUrl: cleanUrl,
    keyStore,
    signedRequests: undefined,
  });
  await signOut(client, { accountId: user.accountId }).catch(() => undefined);
  client.destroy();
  const listed = await backend(() =>
    stack.platform<{ data: unknown[] }>("GET", `/auth/sessions?accountId=${user.accountId}`),
  );
  const keysLeft = (await keyStore.list()).length > 0;
  let ledger: FlowResult["ledger"] = "none";
  if (quoteId !== undefined) {
    const accounts = await backend(() =>
      stack.platform<{ data: { id: string; balance: { amount: number } }[] }>(
        "GET",
        `/customers/internal-accounts?type=EMBEDDED_WALLET&customerId=${user.customerId}`,
      ),
    );
    const balance = accounts.body.data.find((a) => a.id === user.accountId)?.balance.amount;
    const quote = await backend(() =>
      stack.platform<{ status: string; totalSendingAmount: number }>("GET", `/quotes/${quoteId}`),
    );
    // Executed is debited, held for SCA included; only a quote never executed is not.
    const expected = quote.body.status === "PENDING" ? 0 : quote.body.totalSendingAmount;
    const spent = FUNDED - (balance ?? Number.NaN);
    ledger = spent === expected ? "ok" : spent > expected ? "double" : "mismatch";
  }
  return { orphans: listed.body.data.length, keysLeft, ledger };
}

/** One event as a trace line: what it says about requests, waits and stages, nothing else. */
function eventLine(event: SignetEvent, atMs: number): string | undefined {
  const at = `+${atMs}ms`;
  switch (event.type) {
    case "request": {
      const answer = event.status === undefined ? (event.code ?? "no answer") : event.status;
      return `${at} request ${event.method} ${event.path}${event.signed ? " (signed)" : ""} → ${answer} in ${event.durationMs}ms`;
    }
    case "retry":
      return `${at} retry ${event.operation ?? ""} ${event.reason} #${event.attempt} after ${event.delayMs}ms${event.code ? ` (${event.code})` : event.status ? ` (${event.status})` : ""}`;
    case "signedRequest":
      return `${at} ${event.operation ?? event.path} leg ${event.leg} attempt ${event.attempt} ${event.stage}${event.status ? ` ${event.status}` : ""}${event.code ? ` ${event.code}` : ""}${event.retryReason ? ` (re-send: ${event.retryReason})` : ""}`;
    default:
      return undefined;
  }
}

/** The trace of a flow that did not complete (see {@link FlowTrace}). */
function flowTrace(
  kind: FlowKind,
  settled: unknown,
  durationMs: number,
  own: { device: ProxyRecord[]; service: ProxyRecord[] },
  events: readonly SignetEvent[],
  eventAt: readonly number[],
): FlowTrace {
  const error = isSignetError(settled) ? settled : undefined;
  const labels = new Map(own.device.map((record) => [record.index, stepLabel(record)]));
  const faults: FlowTrace["faults"] = [];
  const answered = (record: ProxyRecord) => record.status ?? ("none" as const);
  for (const record of [...own.device].sort((a, b) => a.index - b.index)) {
    if (record.unreachable)
      faults.push({
        hop: "device",
        fault: "device: connection cut by a relay restart",
        step: record.index,
        label: stepLabel(record),
        answered: answered(record),
      });
    if (record.fault?.label !== undefined)
      faults.push({
        hop: "device",
        fault: record.fault.label,
        step: record.index,
        label: stepLabel(record),
        answered: answered(record),
      });
  }
  for (const record of own.service) {
    if (record.fault?.label === undefined) continue;
    const step = Number(record.tags[STEP_HEADER]);
    faults.push({
      hop: "service",
      fault: record.fault.label,
      step: Number.isFinite(step) ? step : undefined,
      label: (Number.isFinite(step) ? labels.get(step) : undefined) ?? stepLabel(record),
      answered: answered(record),
    });
  }
  return {
    kind,
    code: error === undefined ? String(settled) : String(error.code),
    message: error?.message ?? (settled instanceof Error ? settled.message : String(settled)),
    details: error?.details,
    durationMs,
    faults,
    events: events.flatMap((event, i) => eventLine(event, eventAt[i] ?? 0) ?? []),
  };
}

/** A failed flow's requests on both hops and its events (`SOAK_DEBUG=1`), to read what went wrong. */
function debugDump(
  kind: FlowKind,
  settled: unknown,
  own: { device: ProxyRecord[]; service: ProxyRecord[] },
  events: readonly SignetEvent[],
): void {
  const error = settled as { code?: string; message?: string; details?: unknown };
  const line = (r: ProxyRecord, step: string | number) =>
    `${step} ${stepLabel(r)} ${r.fault?.label ?? ""} → ${r.status ?? "no answer"}${r.unreachable ? " (cut)" : ""}`;
  console.error(
    [
      `${kind} failed: ${error.code} ${error.message} ${JSON.stringify(error.details)}`,
      "device:",
      ...[...own.device].sort((a, b) => a.index - b.index).map((r) => line(r, r.index)),
      "service:",
      ...own.service.map((r) => line(r, r.tags[STEP_HEADER] ?? "?")),
      "events:",
      ...events.filter((e) => e.type !== "request").map((e) => JSON.stringify(e)),
    ].join("\n"),
  );
}

/** The service's refusal of an SCA login completion whose login a newer start superseded. */
const supersededLogin = (error: unknown) =>
  isSignetError(error) &&
  error.status === 400 &&
  JSON.stringify(error.details).includes("is not the challenge of the login in progress");

/** The flow's own part, after its sign-in. */
async function ownPart(
  kind: FlowKind,
  client: ReturnType<typeof createClient>,
  user: { accountId: string; emailCredentialId: string },
  quoteId: string | undefined,
  random: Random,
  play: { settleWithinMs: number; wrongCodeFirst: boolean; scaAskedAgain: () => void },
): Promise<void> {
  switch (kind) {
    case "sign-in":
      throw new TypeError("the sign-in is played by signInAsAnApp");
    case "add passkey":
      await addPasskey(client, {
        accountId: user.accountId,
        nickname: "Soak",
        challenge: registrationChallenge(),
        rp: { id: "localhost", name: "Soak" },
        user: passkeyUser(`soak-${random.int(0, 1e9)}`),
      });
      return;
    case "refresh":
      await refreshSession(client, { accountId: user.accountId });
      return;
    case "export": {
      const mnemonic = await exportWallet(client, { accountId: user.accountId });
      if (mnemonic.split(" ").length < 12) throw new Error("export returned no mnemonic");
      return;
    }
    case "execute":
    case "execute with SCA": {
      const sca = kind === "execute with SCA";
      const q = await getQuote(client, { quoteId: quoteId! });
      let executed = await executeQuote(client, { quote: q });
      if (sca && executed.status !== "PENDING_AUTHORIZATION")
        throw new Error(`an EU payment was not held for SCA (${executed.status})`);
      if (executed.status === "PENDING_AUTHORIZATION") {
        const authorize = (quote: unknown) =>
          authorizeQuote(client, {
            quote: quote as Parameters<typeof authorizeQuote>[1]["quote"],
            onChallenge: (_challenge, { error }) =>
              play.wrongCodeFirst && !error ? { code: "000000" } : { code: "123456" },
          });
        try {
          executed = await authorize(executed);
        } catch (error) {
          // An SCA login start delivered late (after the device had started again and been
          // answered) supersedes the login the device is completing; the service refuses the
          // completion. The SCA flow does not start over by itself on that answer, so the app's
          // "try again" does: the quote, read again, is authorized again (once).
          if (!supersededLogin(error)) throw error;
          play.scaAskedAgain();
          executed = await authorize(await getQuote(client, { quoteId: quoteId! }));
        }
      }
      if (executed.transactionId)
        await waitForTransaction(client, {
          transactionId: executed.transactionId,
          timeoutMs: play.settleWithinMs,
          pollingInterval: 10,
        });
      return;
    }
  }
}
