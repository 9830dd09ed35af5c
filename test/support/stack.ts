// The whole chain over real HTTP on 127.0.0.1: core client → relay (node:http) → emulator (node:http).
import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CreateClientParameters,
  createClient,
  createMemoryKeyStore,
  type SignetEvent,
} from "@signet/core";
import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { createSoftAuthenticator } from "@signet/emulator/testing";
import {
  createMemoryWebhookStore,
  createRelay,
  nodeRemoteAddress,
  toNodeHandler,
  type WebhookStore,
} from "@signet/relay";
import { afterEach, expect } from "vitest";
import {
  formatFindings,
  judgingFetch,
  type OpenApiFinding,
} from "../../packages/test/src/openapi.js";

export const USER_HEADER = "x-test-customer";

/**
 * Carries the tags of the device's request being handled (its `names` headers) onto the relay's
 * calls to the service, so that a fault proxy there knows which flow and step each call serves.
 */
function requestTags(names: readonly string[]) {
  const tagged = new AsyncLocalStorage<Record<string, string>>();
  return {
    /** Runs `handle` with the tags of `request` in scope. */
    run(request: IncomingMessage, handle: () => unknown): void {
      const tags: Record<string, string> = {};
      for (const name of names) {
        const value = request.headers[name];
        if (typeof value === "string") tags[name] = value;
      }
      void tagged.run(tags, handle);
    },
    /** `upstream`, with the tags in scope added to each call's headers. */
    onUpstream:
      (upstream: typeof fetch): typeof fetch =>
      (input, init) => {
        const tags = tagged.getStore();
        if (!tags || Object.keys(tags).length === 0) return upstream(input, init);
        const headers = new Headers(init?.headers);
        for (const [name, value] of Object.entries(tags)) headers.set(name, value);
        return upstream(input, { ...init, headers });
      },
  };
}

/** A relay's Node handler served on 127.0.0.1:`port` (0: a free port), its requests' tags in scope. */
async function listenRelay(
  port: number,
  handler: ReturnType<typeof toNodeHandler>,
  tags: ReturnType<typeof requestTags>,
): Promise<Server> {
  const server: Server = createServer((request, response) => {
    tags.run(request, () => handler(request as never, response as never));
  });
  // As the emulator's server: idle connections outlive a loaded machine's stalls (server.ts).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

/** Stops `server`, cutting the connections it still holds. */
const stop = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });

/**
 * Findings not yet reported, of every stack this file started: each test that made an exchange
 * the OpenAPI disagrees with fails at its end, naming the path and the schema errors.
 */
const unreported: (OpenApiFinding & { test?: string })[] = [];
// The benchmarks start a stack outside vitest: there, findings surface through close() only.
const underVitest = process.env.VITEST !== undefined;
if (underVitest)
  afterEach(() => {
    const findings = unreported.splice(0);
    if (findings.length > 0) {
      throw new Error(
        `${findings.length} exchange(s) disagree with the service's OpenAPI:\n${formatFindings(findings)}`,
      );
    }
  });

/** The keys `GET /_emulator/keys` publishes. */
type EmulatorKeys = {
  attestationPublicKey: string;
  signerPublicKey: string;
  webhookPublicKey: string;
};

export type LoggedRequest = {
  method: string;
  path: string;
  status: number;
  code?: string;
  hasSignature: boolean;
  hasRequestId: boolean;
  hasIdempotencyKey: boolean;
  fault?: string;
};

export type Stack = {
  emulator: EmulatorServer;
  relayUrl: string;
  /** Calls the emulator with platform credentials (what the app's backend does). */
  platform<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  /** Creates a customer with a wallet; returns ids. */
  signUp(
    email?: string,
    /** More customer fields (e.g. `phoneNumber`). */
    extra?: Record<string, unknown>,
  ): Promise<{ customerId: string; accountId: string; emailCredentialId: string; email: string }>;
  /**
   * Funds the wallet, adds a USD bank account and creates a quote from the wallet to it (a
   * cross-currency send: USDB to USD). `quoteFields` go into the quote request as well
   * (`scaFactor`, or a `destination` of its own).
   */
  walletQuote(
    user: { customerId: string; accountId: string },
    amount?: number,
    quoteFields?: Record<string, unknown>,
  ): Promise<{ quoteId: string; externalAccountId: string }>;
  /** A core client acting for `customerId`, with a software passkey authenticator. */
  client(
    customerId: string,
    overrides?: Partial<CreateClientParameters>,
  ): {
    client: ReturnType<typeof createClient>;
    events: SignetEvent[];
    authenticator: ReturnType<typeof createSoftAuthenticator>;
  };
  /** Arms an emulator fault (`POST /_emulator/faults`). */
  fault(spec: Record<string, unknown>): Promise<void>;
  /**
   * A core client talking to the emulator directly (platform credentials standing in for a relay),
   * so that every request in the emulator's log is the device's own.
   */
  directClient(overrides?: Partial<CreateClientParameters>): ReturnType<Stack["client"]>;
  /** Emulator request log entries since the last `resetLog`. */
  requests(): Promise<LoggedRequest[]>;
  /** Clears the emulator's request log. */
  clearRequests(): Promise<void>;
  /** Stops the relay (cutting open connections) and starts a fresh one on the same port. */
  restartRelay(): Promise<void>;
  /**
   * Another relay like the stack's own (same service, options and tags), on a port of its own,
   * which restarts alone: a suite that runs many flows at once gives each its own, so that a
   * restart cuts one flow's requests rather than all of them.
   */
  startRelay(): Promise<{ url: string; restart(): Promise<void>; close(): Promise<void> }>;
  /**
   * Where the requests the relay forwards, the backend's calls and the answers of the emulator
   * disagreed with the service's OpenAPI so far, each with the test it happened in. `close()`
   * fails the suite when there is any.
   */
  openApiFindings(): readonly (OpenApiFinding & { test?: string })[];
  close(): Promise<void>;
};

export async function startStack(
  options: Parameters<typeof startEmulatorServer>[0] & {
    /** Receives the relay's events. */
    onRelayEvent?: (event: unknown) => void;
    /**
     * Judge what is sent to the emulator against the OpenAPI too (default true). Suites that
     * push hostile requests through on purpose turn it off; answers are judged always.
     */
    judgeRequests?: boolean;
    /**
     * Wraps the relay's upstream `fetch`: a compromised backend (or anything between the relay
     * and the service) that rewrites what the device sent or what the service answered.
     */
    relayUpstream?: (upstream: typeof fetch) => typeof fetch;
    /**
     * Something between the relay and the emulator (a fault proxy): started with the fetch that
     * reaches the emulator (the OpenAPI judge included), it gives the URL the relay calls instead.
     */
    serviceHop?: (
      forward: typeof fetch,
      emulatorUrl: string,
    ) => Promise<{ url: string; close(): Promise<void> }>;
    /**
     * Headers of a device's request that the relay's calls to the service carry on, so that a
     * `serviceHop` knows which flow and step each call serves (test tags; the relay never sees
     * them as anything but unknown headers it does not forward).
     */
    relayTags?: readonly string[];
    /** The relay's own settings, where a suite needs other than the defaults. */
    relayOptions?: { timeoutMs?: number; ownershipCacheTtlMs?: number };
    /**
     * `false`: the relay is created without its `endUserIpAddress` option (a misconfigured
     * relay). Default: the connection's peer address.
     */
    relayEndUserIp?: false;
    /**
     * The relay takes the emulator's webhooks, sent there (its `webhooks` options beside); `store`
     * wraps the relay's memory store (a store that fails when a suite says so).
     */
    relayWebhooks?: { waitMs?: number; store?: (inner: WebhookStore) => WebhookStore };
  } = {},
): Promise<Stack> {
  const {
    onRelayEvent,
    judgeRequests = true,
    relayUpstream,
    serviceHop,
    relayTags = [],
    relayOptions = {},
    relayEndUserIp,
    relayWebhooks,
    ...emulatorOptions
  } = options;
  const emulator = await startEmulatorServer({ port: 0, ...emulatorOptions });
  // docs/protocol.md: the service's OpenAPI judges every exchange with the emulator.
  const findings: (OpenApiFinding & { test?: string })[] = [];
  const judged = (requests = judgeRequests) =>
    judgingFetch({
      base: emulator.url,
      requests,
      onFinding: (finding) => {
        const test = underVitest ? expect.getState().currentTestName : undefined;
        const named = { ...finding, ...(test ? { test } : {}) };
        findings.push(named);
        if (test) unreported.push(named);
      },
    });
  const keys = (await (await fetch(`${emulator.url}/_emulator/keys`)).json()) as EmulatorKeys;
  const tags = requestTags(relayTags);
  const hop = serviceHop ? await serviceHop(judged(), emulator.url) : undefined;
  const upstreamFetch = hop ? tags.onUpstream(fetch) : judged();
  // One store for every relay this stack starts: a restart keeps what was received.
  const webhooks = relayWebhooks && {
    publicKey: keys.webhookPublicKey,
    ...(relayWebhooks.waitMs === undefined ? {} : { waitMs: relayWebhooks.waitMs }),
    store: (relayWebhooks.store ?? ((inner) => inner))(createMemoryWebhookStore()),
  };
  const newRelay = () =>
    createRelay({
      baseUrl: hop?.url ?? emulator.url,
      tokenId: "emulator",
      clientSecret: "emulator",
      resolveUser: (request) => {
        const customerId = request.headers.get(USER_HEADER);
        return customerId ? { customerId } : null;
      },
      rateLimit: false,
      // The service needs the end user's address on an SCA login: the relay sees the connection.
      ...(relayEndUserIp === false ? {} : { endUserIpAddress: nodeRemoteAddress }),
      fetch: relayUpstream ? relayUpstream(upstreamFetch) : upstreamFetch,
      ...(onRelayEvent ? { onEvent: onRelayEvent } : {}),
      ...(webhooks ? { webhooks } : {}),
      ...relayOptions,
    });
  const listen = (port: number) => listenRelay(port, toNodeHandler(newRelay()), tags);
  let server = await listen(0);
  const relayPort = (server.address() as AddressInfo).port;
  const relayUrl = `http://127.0.0.1:${relayPort}/api/grid`;
  const auth = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;
  if (relayWebhooks) emulator.emulator.setWebhookUrl(`${relayUrl}/webhooks`);

  // The backend's calls: tests also make deliberately bad ones, so only the answers are judged.
  const platformFetch = judged(false);
  const platform: Stack["platform"] = async (method, path, body) => {
    const response = await platformFetch(`${emulator.url}${path}`, {
      method,
      headers: {
        authorization: auth,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as never };
  };

  let counter = 0;
  const stack: Stack = {
    emulator,
    relayUrl,
    platform,
    signUp: (email = `user${++counter}-${Date.now()}@example.com`, extra = {}) =>
      signUpWith(platform, email, extra),
    walletQuote: (user, amount = 1_000_000, quoteFields = {}) =>
      walletQuoteWith(platform, user, amount, quoteFields),
    directClient(overrides = {}) {
      return stack.client("", {
        relayUrl: emulator.url,
        headers: { authorization: auth },
        fetch: judged(),
        ...overrides,
      });
    },
    client(customerId, overrides = {}) {
      const events: SignetEvent[] = [];
      const authenticator = createSoftAuthenticator({
        rpId: "localhost",
        origin: "http://localhost:5173",
      });
      const client = createClient({
        relayUrl,
        headers: { [USER_HEADER]: customerId },
        keyStore: createMemoryKeyStore(),
        webauthn: authenticator.provider,
        trustedKeys: {
          otpTargetBundle: [keys.attestationPublicKey],
          exportBundle: [keys.signerPublicKey],
        },
        onEvent: (event) => events.push(event),
        signedRequests: { backoff: { baseMs: 5, maxMs: 20 } },
        ...overrides,
      });
      return { client, events, authenticator };
    },
    async clearRequests() {
      await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
    },
    async fault(spec) {
      const response = await fetch(`${emulator.url}/_emulator/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(spec),
      });
      if (!response.ok)
        throw new Error(`fault refused: ${response.status} ${await response.text()}`);
    },
    async requests() {
      const log = (await (await fetch(`${emulator.url}/_emulator/requests`)).json()) as {
        data: LoggedRequest[];
      };
      return log.data;
    },
    async restartRelay() {
      // A new relay process in all but name: connections cut, memory state (caches) gone.
      await stop(server);
      server = await listen(relayPort);
    },
    async startRelay() {
      let own = await listen(0);
      const port = (own.address() as AddressInfo).port;
      return {
        url: `http://127.0.0.1:${port}/api/grid`,
        async restart() {
          await stop(own);
          own = await listen(port);
        },
        close: () => stop(own),
      };
    },
    openApiFindings: () => findings,
    async close() {
      await stop(server);
      await hop?.close();
      await emulator.close();
      // Exchanges outside any test (suite setup, benchmarks) are reported here.
      const outside = findings.filter((f) => f.test === undefined);
      if (outside.length > 0) {
        throw new Error(
          `${outside.length} exchange(s) disagree with the service's OpenAPI:\n${formatFindings(outside)}`,
        );
      }
    },
  };
  return stack;
}

/** Signs a customer up through the platform's calls: its wallet account and email credential. */
async function signUpWith(
  platform: Stack["platform"],
  email: string,
  extra: Record<string, unknown>,
) {
  const created = await platform<{ id: string }>("POST", "/customers", {
    customerType: "INDIVIDUAL",
    email,
    fullName: "Test User",
    ...extra,
  });
  if (created.status !== 201)
    throw new Error(`sign up failed: ${created.status} ${JSON.stringify(created.body)}`);
  const customerId = created.body.id;
  const accounts = await platform<{ data: Array<{ id: string }> }>(
    "GET",
    `/customers/internal-accounts?customerId=${customerId}&type=EMBEDDED_WALLET`,
  );
  const accountId = accounts.body.data[0]!.id;
  const credentials = await platform<{ data: Array<{ id: string; type: string }> }>(
    "GET",
    `/auth/credentials?accountId=${accountId}`,
  );
  const emailCredentialId = credentials.body.data.find((c) => c.type === "EMAIL_OTP")!.id;
  return { customerId, accountId, emailCredentialId, email };
}

/** Funds the user's wallet and quotes a USD payout to a new external account. */
async function walletQuoteWith(
  platform: Stack["platform"],
  user: { customerId: string; accountId: string },
  amount: number,
  quoteFields: Record<string, unknown>,
) {
  await platform("POST", `/sandbox/internal-accounts/${user.accountId}/fund`, {
    amount: 5_000_000,
  });
  const external = await platform<{ id: string }>("POST", "/customers/external-accounts", {
    customerId: user.customerId,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: "000123456789",
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Test User" },
    },
  });
  if (external.status !== 201) throw new Error(`external account: ${external.status}`);
  const quote = await platform<{ id: string }>("POST", "/quotes", {
    source: { sourceType: "ACCOUNT", accountId: user.accountId },
    destination: { destinationType: "ACCOUNT", accountId: external.body.id },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
    ...quoteFields,
  });
  if (quote.status !== 201) throw new Error(`quote: ${quote.status} ${JSON.stringify(quote.body)}`);
  return { quoteId: quote.body.id, externalAccountId: external.body.id };
}
