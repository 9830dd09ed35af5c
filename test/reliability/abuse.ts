// Relay abuse, counted: requests a hostile device (or a signed-in user going after someone else's
// money) can send to the relay, by category. "Let through" means the relay answered 2xx, or a
// write reached the service (it appears in the emulator's request log). Every count must be 0.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createDelegatedKey, executeQuote, getQuote, requestOtp, verifyOtp } from "@signet/core";
import { createRelay, RELAY_ROUTES, toNodeHandler } from "@signet/relay";
import { rawHttp, rawRequest } from "../../packages/test/src/rawHttp.js";
import { type Stack, USER_HEADER } from "../support/stack.js";

export type AbuseCategory = {
  category: string;
  attempts: number;
  refused: number;
  letThrough: number;
  examples: string[];
};

/** The status of a response, its body read so the connection can be reused. */
async function statusOf(response: Response): Promise<number> {
  await response.arrayBuffer();
  return response.status;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"];

type Ids = {
  customer: string;
  account: string;
  credential: string;
  session: string;
  quote: string;
  transaction: string;
  delegatedKey: string;
  card: string;
};

/** A signed-up user with one of every resource: the victim of the cross-customer probes. */
async function victim(stack: Stack): Promise<Ids> {
  const user = await stack.signUp(`victim-${Date.now()}@example.com`);
  const { client } = stack.client(user.customerId);
  const otp = await requestOtp(client, { credentialId: user.emailCredentialId });
  const session = await verifyOtp(client, { ...otp, otpCode: "000000" });
  const { quoteId } = await stack.walletQuote(user);
  const executed = await executeQuote(client, { quote: await getQuote(client, { quoteId }) });
  const { quoteId: pendingQuote } = await stack.walletQuote(user);
  const card = await stack.platform<{ id: string }>("POST", "/cards", {
    cardholderId: user.customerId,
    fundingSources: [user.accountId],
    form: "VIRTUAL",
  });
  const key = await createDelegatedKey(client, {
    accountId: user.accountId,
    cardId: card.body.id,
    nickname: "Victim",
  });
  return {
    customer: user.customerId,
    account: user.accountId,
    credential: user.emailCredentialId,
    session: session.id,
    quote: pendingQuote,
    transaction: executed.transactionId!,
    delegatedKey: key.id,
    card: card.body.id,
  };
}

/** What every group of probes works with: the two customers, the relay, and the counting. */
type Prober = {
  stack: Stack;
  attacker: Awaited<ReturnType<Stack["signUp"]>>;
  /** The victim's ids. */
  them: Ids;
  /** The relay's base URL, its origin and its path prefix. */
  base: string;
  origin: string;
  prefix: string;
  /** Sends one request and counts it as refused or let through. */
  probe: (
    category: AbuseCategory,
    label: string,
    send: () => Promise<number>,
    forwarded: { method: string; path: string } | undefined,
  ) => Promise<void>;
  /** A request to the relay as `customerId`; resolves to its status. */
  as: (
    customerId: string,
    method: string,
    path: string,
    body?: string,
    headers?: Record<string, string>,
  ) => Promise<number>;
  newCategory: (category: string) => AbuseCategory;
};

/** 1. Methods the relay does not forward on its own routes. */
async function probeMethods({ attacker, probe, as, newCategory }: Prober): Promise<void> {
  // 1. Methods and paths the relay does not forward.
  const methods = newCategory("methods the relay does not forward on its own routes (405)");
  const own: Record<string, string> = {
    "{AuthMethod}": attacker.emailCredentialId,
    "{InternalAccount}": attacker.accountId,
    "{Customer}": attacker.customerId,
  };
  for (const route of RELAY_ROUTES) {
    if (!/^[^{]*(\{(AuthMethod|InternalAccount|Customer)\}[^{]*)?$/.test(route.path)) continue;
    const path = route.path.replace(/\{[A-Za-z]+\}/, (m) => own[m] ?? m);
    const allowed = RELAY_ROUTES.filter((r) => r.path === route.path).map(
      (r) => r.method as string,
    );
    for (const method of METHODS.filter((m) => !allowed.includes(m) && m !== "CONNECT")) {
      await probe(
        methods,
        `${method} ${route.path}`,
        () =>
          as(
            attacker.customerId,
            method,
            path,
            method === "GET" || method === "OPTIONS" || method === "TRACE" ? undefined : "{}",
          ),
        { method, path },
      );
    }
  }
}

/** Platform and unknown paths. */
async function probePaths({ attacker, probe, as, newCategory }: Prober): Promise<void> {
  const paths = newCategory("platform and unknown paths (404)");
  for (const [method, path] of [
    ["POST", "/customers"],
    ["GET", `/customers/${attacker.customerId}`],
    ["POST", "/customers/external-accounts"],
    ["POST", "/quotes"],
    ["POST", `/sandbox/internal-accounts/${attacker.accountId}/fund`],
    ["POST", "/cards"],
    ["GET", "/_emulator/keys"],
    ["POST", "/_emulator/faults"],
    ["POST", "/transactions"],
    ["GET", "/platform/config"],
    ["POST", `/internal-accounts/${attacker.accountId}/export/extra`],
    ["GET", "/"],
  ] as const) {
    await probe(
      paths,
      `${method} ${path}`,
      () => as(attacker.customerId, method, path, method === "GET" ? undefined : "{}"),
      { method, path },
    );
  }
}

/** 2. Traversal and encoding tricks, sent raw. */
async function probeTraversal({
  attacker,
  them,
  origin,
  prefix,
  probe,
  newCategory,
}: Prober): Promise<void> {
  // 2. Traversal and encoding tricks, sent raw (fetch would normalise them away).
  const traversal = newCategory("path traversal and encoding tricks (raw HTTP)");
  for (const requestTarget of [
    `${prefix}/auth/../customers`,
    `${prefix}/auth/%2e%2e/customers`,
    `${prefix}/auth/%2E%2E/customers`,
    `${prefix}/auth%2f..%2fcustomers`,
    `${prefix}/auth/credentials/..%2f..%2fcustomers`,
    `${prefix}/auth/%252e%252e/customers`,
    `${prefix}/auth\\..\\customers`,
    `${prefix}//customers`,
    `${prefix}/./customers`,
    `${prefix}/customers%00/internal-accounts`,
    `${prefix}/auth/credentials%3FaccountId=${them.account}`,
    `http://evil.example${prefix}/customers`,
    `${prefix}/internal-accounts/${them.account}%2fexport`,
    `${prefix}/auth/sessions/${them.session}/../../customers`,
  ]) {
    await probe(
      traversal,
      `POST ${requestTarget}`,
      async () =>
        (
          await rawHttp(
            origin,
            rawRequest(
              "POST",
              requestTarget,
              [`${USER_HEADER}: ${attacker.customerId}`, "Content-Type: application/json"],
              "{}",
            ),
          )
        ).status,
      { method: "POST", path: "/customers" },
    );
  }
}

/** 3. Another customer's ids, every kind, in path, query and body. */
async function probeCrossCustomer({
  attacker,
  them,
  probe,
  as,
  newCategory,
}: Prober): Promise<void> {
  // 3. Another customer's ids, every kind, in path, query and body.
  const cross = newCategory("another customer's ids, every kind (403)");
  const crossProbes: [string, string, string | undefined, string][] = [
    ["GET", `/auth/credentials?accountId=${them.account}`, undefined, "/auth/credentials"],
    ["GET", `/auth/sessions?accountId=${them.account}`, undefined, "/auth/sessions"],
    [
      "GET",
      `/customers/internal-accounts?customerId=${them.customer}`,
      undefined,
      "/customers/internal-accounts",
    ],
    [
      "POST",
      `/auth/credentials/${them.credential}/challenge`,
      "{}",
      `/auth/credentials/${them.credential}/challenge`,
    ],
    [
      "POST",
      `/auth/credentials/${them.credential}/verify`,
      JSON.stringify({ type: "EMAIL_OTP", encryptedOtpBundle: "{}" }),
      `/auth/credentials/${them.credential}/verify`,
    ],
    [
      "DELETE",
      `/auth/credentials/${them.credential}`,
      undefined,
      `/auth/credentials/${them.credential}`,
    ],
    [
      "POST",
      "/auth/credentials",
      JSON.stringify({ type: "SMS_OTP", accountId: them.account }),
      "/auth/credentials",
    ],
    [
      "POST",
      `/auth/sessions/${them.session}/refresh`,
      JSON.stringify({ clientPublicKey: `02${"11".repeat(32)}` }),
      `/auth/sessions/${them.session}/refresh`,
    ],
    ["DELETE", `/auth/sessions/${them.session}`, undefined, `/auth/sessions/${them.session}`],
    [
      "POST",
      `/internal-accounts/${them.account}/export`,
      JSON.stringify({ clientPublicKey: `04${"11".repeat(64)}` }),
      `/internal-accounts/${them.account}/export`,
    ],
    ["GET", `/quotes/${them.quote}`, undefined, `/quotes/${them.quote}`],
    ["POST", `/quotes/${them.quote}/execute`, undefined, `/quotes/${them.quote}/execute`],
    ["GET", `/transactions/${them.transaction}`, undefined, `/transactions/${them.transaction}`],
    [
      "GET",
      `/auth/delegated-keys/${them.delegatedKey}`,
      undefined,
      `/auth/delegated-keys/${them.delegatedKey}`,
    ],
    [
      "DELETE",
      `/auth/delegated-keys/${them.delegatedKey}`,
      undefined,
      `/auth/delegated-keys/${them.delegatedKey}`,
    ],
    ["GET", `/auth/delegated-keys?accountId=${them.account}`, undefined, "/auth/delegated-keys"],
    [
      "POST",
      "/auth/delegated-keys",
      JSON.stringify({ cardId: them.card, internalAccountId: them.account, nickname: "x" }),
      "/auth/delegated-keys",
    ],
    [
      "POST",
      "/auth/delegated-keys",
      JSON.stringify({ cardId: them.card, internalAccountId: attacker.accountId, nickname: "x" }),
      "/auth/delegated-keys",
    ],
    [
      "PATCH",
      `/customers/${them.customer}`,
      JSON.stringify({ email: "owned@example.com" }),
      `/customers/${them.customer}`,
    ],
    [
      "POST",
      "/auth/credentials",
      JSON.stringify({
        type: "SMS_OTP",
        accountId: attacker.accountId,
        extra: { accountId: them.account },
      }),
      "/auth/credentials",
    ],
    [
      "GET",
      `/auth/credentials?accountId=${attacker.accountId}&accountId=${them.account}`,
      undefined,
      "/auth/credentials",
    ],
  ];
  for (const [method, path, body, forwardedPath] of crossProbes) {
    await probe(cross, `${method} ${path}`, () => as(attacker.customerId, method, path, body), {
      method,
      path: forwardedPath,
    });
  }
}

/** 4. Oversized and malformed bodies. */
async function probeBodies({ attacker, probe, as, newCategory }: Prober): Promise<void> {
  // 4. Oversized and malformed bodies.
  const bodies = newCategory("oversized and malformed bodies (413, 400)");
  const challengePath = `/auth/credentials/${attacker.emailCredentialId}/verify`;
  for (const [label, body] of [
    ["2 MiB body", `{"type":"EMAIL_OTP","encryptedOtpBundle":"${"a".repeat(2 * 1024 * 1024)}"}`],
    ["not JSON", "{type: EMAIL_OTP"],
    ["JSON array", "[1,2,3]"],
    ["duplicate keys", '{"type":"EMAIL_OTP","type":"PASSKEY"}'],
    ["deeply nested", `${"[".repeat(10_000)}${"]".repeat(10_000)}`],
    ["invalid UTF-8", "\udc00"],
    ["BOM and JSON", "\ufeff{}"],
  ] as const) {
    await probe(bodies, label, () => as(attacker.customerId, "POST", challengePath, body), {
      method: "POST",
      path: challengePath,
    });
  }
}

/** 5. Header smuggling. */
async function probeSmuggling({
  attacker,
  them,
  origin,
  prefix,
  probe,
  as,
  newCategory,
}: Prober): Promise<void> {
  // 5. Header smuggling (raw HTTP: CRLF, duplicates, conflicting lengths, forged credentials).
  const smuggling = newCategory("header smuggling (raw HTTP)");
  const rawPath = `${prefix}/auth/credentials/${attacker.emailCredentialId}/challenge`;
  for (const [label, headers, body] of [
    [
      "duplicate Grid-Wallet-Signature",
      ["Grid-Wallet-Signature: a", "Grid-Wallet-Signature: b"],
      "{}",
    ],
    [
      "duplicate Request-Id",
      [
        "Request-Id: Request:00000000-0000-4000-8000-000000000000",
        "Request-Id: Request:00000000-0000-4000-8000-000000000001",
      ],
      "{}",
    ],
    ["malformed Request-Id", ["Request-Id: ../../customers"], "{}"],
    ["CR in a header value", ["Grid-Wallet-Signature: a\rX-Injected: 1"], "{}"],
    ["obs-fold continuation", ["Grid-Wallet-Signature: a", " X-Injected: 1"], "{}"],
    [
      "Transfer-Encoding with Content-Length",
      ["Transfer-Encoding: chunked"],
      "0\r\n\r\nPOST /api/grid/customers HTTP/1.1\r\n\r\n",
    ],
    ["second user header", [`${USER_HEADER}: ${them.customer}`], "{}"],
  ] as const) {
    await probe(
      smuggling,
      label,
      async () =>
        (
          await rawHttp(
            origin,
            rawRequest(
              "POST",
              rawPath,
              [
                `${USER_HEADER}: ${attacker.customerId}`,
                "Content-Type: application/json",
                ...headers,
              ],
              body,
            ),
          )
        ).status,
      { method: "POST", path: "/customers" },
    );
  }
  // A forged platform credential from the device must not replace the relay's own.
  await probe(
    smuggling,
    "Authorization from the device",
    () =>
      as(attacker.customerId, "GET", `/auth/credentials?accountId=${them.account}`, undefined, {
        authorization: "Basic ZW11bGF0b3I6ZW11bGF0b3I=",
      }),
    { method: "GET", path: "/auth/credentials" },
  );
}

/** 6. A burst over the rate limit. */
async function probeBurst({ stack, attacker, newCategory }: Prober): Promise<void> {
  // 6. A burst over the rate limit (a relay with its default limit of 120 a minute).
  const burst = newCategory("a burst over the rate limit (429 past 120 a minute)");
  const limited = createServer(
    toNodeHandler(
      createRelay({
        baseUrl: stack.emulator.url,
        tokenId: "emulator",
        clientSecret: "emulator",
        resolveUser: (request) => ({ customerId: request.headers.get(USER_HEADER)! }),
      }),
    ) as never,
  );
  await new Promise<void>((resolve) => limited.listen(0, "127.0.0.1", resolve));
  const limitedUrl = `http://127.0.0.1:${(limited.address() as AddressInfo).port}/api/grid`;
  let allowed = 0;
  for (let i = 0; i < 200; i++) {
    const status = await fetch(`${limitedUrl}/auth/credentials?accountId=${attacker.accountId}`, {
      headers: { [USER_HEADER]: attacker.customerId },
    }).then(statusOf);
    burst.attempts++;
    if (status === 200) allowed++;
    else if (status === 429) burst.refused++;
  }
  // The first 120 are within the limit by definition; anything else answered 200 got through.
  burst.attempts -= 120;
  burst.letThrough = allowed - 120;
  await new Promise<void>((resolve) => limited.close(() => resolve()));
}

export async function runAbuse(stack: Stack): Promise<AbuseCategory[]> {
  const attacker = await stack.signUp(`attacker-${Date.now()}@example.com`);
  const them = await victim(stack);
  const base = stack.relayUrl; // http://127.0.0.1:<port>/api/grid
  const origin = new URL(base).origin;
  const prefix = new URL(base).pathname;
  const categories: AbuseCategory[] = [];

  async function probe(
    category: AbuseCategory,
    label: string,
    send: () => Promise<number>,
    forwarded: { method: string; path: string } | undefined,
  ) {
    await stack.clearRequests();
    category.attempts++;
    let status: number;
    try {
      status = await send();
    } catch {
      status = 0; // the relay closed the connection: nothing was forwarded by this request
    }
    const log = await stack.requests();
    // A GET of the same path can be the relay's own ownership lookup (it reads a quote to learn
    // whose it is); for reads, only what the caller received counts.
    const reached =
      forwarded !== undefined &&
      forwarded.method !== "GET" &&
      log.some((r) => r.method === forwarded.method && r.path.split("?")[0] === forwarded.path);
    if (reached || (status >= 200 && status < 300)) {
      category.letThrough++;
      if (category.examples.length < 5) category.examples.push(`${label} → ${status}`);
    } else category.refused++;
  }
  const as = (
    customerId: string,
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${base}${path}`, {
      method,
      headers: { [USER_HEADER]: customerId, "content-type": "application/json", ...headers },
      ...(body === undefined ? {} : { body }),
    }).then(statusOf);
  const newCategory = (category: string): AbuseCategory => {
    const c = { category, attempts: 0, refused: 0, letThrough: 0, examples: [] };
    categories.push(c);
    return c;
  };

  const prober: Prober = { stack, attacker, them, base, origin, prefix, probe, as, newCategory };
  // In this order: each group adds its category to the report as it starts.
  for (const group of [
    probeMethods,
    probePaths,
    probeTraversal,
    probeCrossCustomer,
    probeBodies,
    probeSmuggling,
    probeBurst,
  ]) {
    await group(prober);
  }
  return categories;
}
