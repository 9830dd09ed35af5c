// A real node:http stand-in for the service: records the exact bytes and headers it receives and
// answers ownership lookups from a small world of two customers.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "../../relay/src/toNodeHandler.js";

export interface Recorded {
  method: string;
  url: string;
  rawHeaders: string[];
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export interface Customer {
  customerId: string;
  wallet: string;
  fiat: string;
  credential: string;
  session: string;
  delegatedKey: string;
  fundingSource: string;
  card: string;
  quote: string;
  transaction: string;
  externalAccount: string;
  contactChange: string;
}

const id = (prefix: string) => `${prefix}:${randomUUID()}`;

export function makeCustomer(): Customer {
  return {
    customerId: id("Customer"),
    wallet: id("InternalAccount"),
    fiat: id("InternalAccount"),
    credential: id("AuthMethod"),
    session: id("Session"),
    delegatedKey: id("DelegatedKey"),
    fundingSource: id("CardFundingSource"),
    card: id("Card"),
    quote: id("Quote"),
    transaction: id("Transaction"),
    externalAccount: id("ExternalAccount"),
    contactChange: id("ContactChange"),
  };
}

/** Answers a request itself (return true) or lets the default world answer. */
export type Override = (req: Recorded, res: ServerResponse) => boolean | Promise<boolean>;

export interface StubService {
  url: string;
  requests: Recorded[];
  customers: Customer[];
  /** Extra credentials created "just now", per wallet. */
  extraCredentials: Map<string, string[]>;
  override: Override | undefined;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
  return true;
}

function answerWorld(stub: StubService, req: Recorded, res: ServerResponse): void {
  const url = new URL(req.url, "http://stub");
  const q = (name: string) => url.searchParams.get(name);
  const path = url.pathname;
  const byWallet = (wallet: string | null) => stub.customers.find((c) => c.wallet === wallet);
  if (req.method === "GET" && path === "/customers/internal-accounts") {
    const c = stub.customers.find((c) => c.customerId === q("customerId"));
    const data = c
      ? [
          { id: c.wallet, customerId: c.customerId, type: "EMBEDDED_WALLET" },
          { id: c.fiat, customerId: c.customerId, type: "INTERNAL_FIAT" },
        ]
      : [];
    json(res, 200, { data, hasMore: false });
    return;
  }
  if (req.method === "GET" && path === "/customers/external-accounts") {
    const c = stub.customers.find((c) => c.customerId === q("customerId"));
    const data = c ? [{ id: c.externalAccount, customerId: c.customerId, status: "ACTIVE" }] : [];
    json(res, 200, { data, hasMore: false });
    return;
  }
  if (req.method === "GET" && path === "/auth/credentials") {
    const c = byWallet(q("accountId"));
    const extra = stub.extraCredentials.get(q("accountId") ?? "") ?? [];
    json(res, 200, {
      data: c ? [c.credential, ...extra].map((id) => ({ id, accountId: c.wallet })) : [],
    });
    return;
  }
  if (req.method === "GET" && path === "/auth/sessions") {
    const c = byWallet(q("accountId"));
    json(res, 200, { data: c ? [{ id: c.session, accountId: c.wallet }] : [] });
    return;
  }
  if (req.method === "GET" && path === "/auth/delegated-keys") {
    const c = byWallet(q("accountId"));
    const data = c
      ? [
          {
            id: c.delegatedKey,
            accountId: c.wallet,
            fundingSourceId: c.fundingSource,
            cardId: c.card,
          },
        ]
      : [];
    json(res, 200, { data });
    return;
  }
  const [, kind, resource] = path.split("/");
  if (req.method === "GET" && kind === "quotes" && resource) {
    const c = stub.customers.find((c) => c.quote === resource);
    if (!c) json(res, 404, { status: 404, code: "NOT_FOUND", message: "no quote" });
    else
      json(res, 200, {
        id: c.quote,
        status: "PENDING",
        source: { sourceType: "ACCOUNT", accountId: c.wallet },
      });
    return;
  }
  if (req.method === "GET" && kind === "transactions" && resource) {
    const c = stub.customers.find((c) => c.transaction === resource);
    if (!c) json(res, 404, { status: 404, code: "NOT_FOUND", message: "no transaction" });
    else json(res, 200, { id: c.transaction, status: "PENDING", source: { accountId: c.wallet } });
    return;
  }
  // A contact change (the service's #853) is read under its customer.
  const change = /^\/customers\/([^/]+)\/contact-changes\/([^/]+)$/.exec(path);
  if (req.method === "GET" && change) {
    const c = stub.customers.find(
      (c) => c.customerId === change[1] && c.contactChange === change[2],
    );
    if (!c) json(res, 404, { status: 404, code: "NOT_FOUND", message: "no contact change" });
    else json(res, 200, { id: c.contactChange, customerId: c.customerId, status: "APPLIED" });
    return;
  }
  if (req.method === "GET" && kind === "cards" && resource) {
    const c = stub.customers.find((c) => c.card === resource);
    if (!c) json(res, 404, { status: 404, code: "NOT_FOUND", message: "no card" });
    else json(res, 200, { id: c.card, state: "ACTIVE", fundingSources: [c.wallet] });
    return;
  }
  json(res, 200, { forwarded: true });
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Starts the stub service on 127.0.0.1 with customers A and B. */
export async function startStubService(): Promise<StubService> {
  const server = createServer();
  const stub: StubService = {
    url: "",
    requests: [],
    customers: [makeCustomer(), makeCustomer()],
    extraCredentials: new Map(),
    override: undefined,
    close: () => closeServer(server),
  };
  server.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: Recorded = {
      method: req.method ?? "",
      url: req.url ?? "",
      rawHeaders: req.rawHeaders,
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    stub.requests.push(recorded);
    if (stub.override && (await stub.override(recorded, res))) return;
    answerWorld(stub, recorded, res);
  });
  stub.url = await listen(server);
  return stub;
}

export interface RunningRelay {
  url: string;
  close(): Promise<void>;
}

/** Serves a fetch handler through toNodeHandler on 127.0.0.1. */
export async function serveRelay(
  handler: (request: Request) => Promise<Response>,
): Promise<RunningRelay> {
  const server = createServer(toNodeHandler(handler));
  const url = await listen(server);
  return { url, close: () => closeServer(server) };
}
