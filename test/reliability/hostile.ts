// Hostile input, counted: fast-check drives arbitrary and near-valid input into every parser the
// client has and every answer it reads, and into the relay and the emulator. Each property never
// throws; it records what it saw, so a run reports counts instead of stopping at the first case.
import {
  authorizeQuote,
  createClient,
  createMemoryKeyStore,
  getQuote,
  importDecryptionKey,
  isSignetError,
  listSessions,
  openExportBundle,
  openSessionKeyBundle,
  requestOtp,
  SignetError,
  sealOtpBundle,
  verifyOtp,
} from "@signet/core";
import { createEmulator } from "@signet/emulator";
import { createRelay } from "@signet/relay";
import fc from "fast-check";
import { interopSamples, legacySessionKeyBundle } from "../../packages/test/src/vectors.js";

export type HostileCounts = {
  name: string;
  cases: number;
  /** Rejected with a typed error (or, for servers, a typed 4xx). */
  typed: number;
  /** Accepted: only input that is valid may be. */
  accepted: number;
  // Must be 0:
  untyped: number;
  hung: number;
  serverErrors: number;
  tamperedAccepted: number;
};

const HANG_MS = 5_000;
const fresh = (name: string): HostileCounts => ({
  name,
  cases: 0,
  typed: 0,
  accepted: 0,
  untyped: 0,
  hung: 0,
  serverErrors: 0,
  tamperedAccepted: 0,
});

/** Runs `work`, sorting its outcome into `counts`; `tampered` input must never be accepted. */
async function judge(counts: HostileCounts, work: () => Promise<unknown>, tampered: boolean) {
  counts.cases++;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    work().then(
      () => "accepted" as const,
      (error: unknown) =>
        isSignetError(error) && typeof error.code === "string" ? "typed" : error,
    ),
    new Promise<"hung">((resolve) => {
      timer = setTimeout(() => resolve("hung"), HANG_MS);
    }),
  ]);
  clearTimeout(timer);
  if (outcome === "accepted") {
    counts.accepted++;
    if (tampered) counts.tamperedAccepted++;
  } else if (outcome === "typed") counts.typed++;
  else if (outcome === "hung") counts.hung++;
  else {
    counts.untyped++;
    if (counts.untyped <= 3) console.error(`${counts.name}: untyped`, outcome);
  }
}

const HEX = "0123456789abcdef";
/** Replaces one hex digit of `field` inside a JSON envelope with a different value. */
function flipHexField(envelope: string, field: string, at: number, digit: number): string {
  const value = JSON.parse(envelope)[field] as string;
  if (!value) return envelope;
  const i = at % value.length;
  const old = value[i]!.toLowerCase();
  const replacement = HEX[(HEX.indexOf(old) + 1 + (digit % 15)) % 16]!;
  const changed = value.slice(0, i) + replacement + value.slice(i + 1);
  return JSON.stringify({ ...JSON.parse(envelope), [field]: changed });
}

const hexString = fc.string({ unit: fc.constantFrom(..."0123456789abcdef") });

/** Arbitrary strings, JSON values and near-valid envelopes. */
const junk = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        version: fc.oneof(fc.constant("v1.0.0"), fc.string()),
        data: fc.oneof(hexString, fc.string()),
        dataSignature: fc.oneof(hexString, fc.string()),
        enclaveQuorumPublic: fc.oneof(hexString, fc.string()),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);

/** Target bundles, export bundles and legacy session-key bundles, tampered and junk. */
export async function bundles(numRuns: number): Promise<HostileCounts[]> {
  const samples = interopSamples();
  const legacy = legacySessionKeyBundle();
  const target = samples.targetBundle;
  const exp = samples.exportBundleProduction;
  const tek = "04" + "11".repeat(64);
  const exportKey = await importDecryptionKey(exp.recipientPrivateKey);
  const legacyKey = await importDecryptionKey(legacy.recipientPrivateKey);

  // Junk, or the valid envelope with one hex digit of a signed field changed.
  const junkOrTampered = (envelope: string) =>
    fc.oneof(
      junk.map((bundle) => ({ bundle, tampered: false })),
      fc
        .tuple(fc.constantFrom("data", "dataSignature", "enclaveQuorumPublic"), fc.nat(), fc.nat())
        .map(([field, at, d]) => ({
          bundle: flipHexField(envelope, field, at, d),
          tampered: true,
        })),
    );
  const envelopeProperty = async (
    counts: HostileCounts,
    envelope: string,
    open: (bundle: string) => Promise<unknown>,
  ) => {
    await fc.assert(
      fc.asyncProperty(junkOrTampered(envelope), async ({ bundle, tampered }) => {
        await judge(counts, () => open(bundle), tampered);
        return true;
      }),
      { numRuns },
    );
    return counts;
  };
  const otp = await envelopeProperty(
    fresh("OTP target bundle (sealOtpBundle)"),
    target.otpEncryptionTargetBundle,
    (bundle) =>
      sealOtpBundle({
        targetBundle: bundle,
        otpCode: "000000",
        publicKey: tek,
        trustedKeys: [target.attestationPublicKey],
      }),
  );
  const exportCounts = await envelopeProperty(
    fresh("export bundle (openExportBundle)"),
    exp.bundle,
    (bundle) => openExportBundle({ bundle, key: exportKey, organizationId: exp.organizationId }),
  );

  const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const legacyCounts = fresh("legacy session-key bundle (openSessionKeyBundle)");
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string().map((bundle) => ({ bundle, tampered: false })),
        fc.tuple(fc.nat(), fc.integer({ min: 1, max: 57 })).map(([at, shift]) => {
          const i = at % legacy.bundle.length;
          const c = B58[(B58.indexOf(legacy.bundle[i]!) + shift) % 58]!;
          return {
            bundle: legacy.bundle.slice(0, i) + c + legacy.bundle.slice(i + 1),
            tampered: true,
          };
        }),
      ),
      async ({ bundle, tampered }) => {
        await judge(legacyCounts, () => openSessionKeyBundle({ bundle, key: legacyKey }), tampered);
        return true;
      },
    ),
    { numRuns },
  );
  return [otp, exportCounts, legacyCounts];
}

const ACCOUNT = "InternalAccount:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a10";
const CREDENTIAL = "AuthMethod:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a11";
const QUOTE = "Quote:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a12";
const TRANSACTION = "Transaction:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a14";
/** A quote held for SCA, as a well-behaved execute would have returned it. */
const HELD_QUOTE = {
  id: QUOTE,
  status: "PENDING_AUTHORIZATION" as const,
  transactionId: TRANSACTION,
  scaChallenge: {
    id: "ScaChallenge:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a15",
    factor: "SMS_OTP",
    availableFactors: ["SMS_OTP"],
    expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    purpose: "PAYOUT",
  },
};

/** Service answers the client reads: every step's body replaced by hostile JSON, any status. */
export async function serviceAnswers(numRuns: number): Promise<HostileCounts[]> {
  const near = fc.record(
    {
      id: fc.oneof(fc.constant(CREDENTIAL), fc.string()),
      type: fc.constantFrom("EMAIL_OTP", "PASSKEY", "X", 1),
      accountId: fc.oneof(fc.constant(ACCOUNT), fc.integer()),
      payloadToSign: fc.oneof(fc.string(), fc.integer()),
      requestId: fc.oneof(fc.constant("Request:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a13"), fc.string()),
      expiresAt: fc.oneof(fc.constant(new Date(Date.now() + 60_000).toISOString()), fc.string()),
      status: fc.constantFrom("PROCESSING", "PENDING", "PENDING_AUTHORIZATION", 401, "x"),
      code: fc.oneof(fc.constant("UNAUTHORIZED"), fc.string()),
      message: fc.string(),
      data: fc.oneof(fc.array(fc.jsonValue(), { maxLength: 3 }), fc.jsonValue()),
      otpEncryptionTargetBundle: fc.string(),
      paymentInstructions: fc.jsonValue(),
      transactionId: fc.oneof(fc.constant(TRANSACTION), fc.string()),
      scaChallenge: fc.oneof(
        fc.jsonValue(),
        fc.record(
          {
            id: fc.oneof(fc.constant("ScaChallenge:1"), fc.string()),
            factor: fc.constantFrom("SMS_OTP", "PASSKEY", "TOTP", "X", 7),
            availableFactors: fc.array(fc.constantFrom("SMS_OTP", "PASSKEY", 1)),
            expiresAt: fc.oneof(
              fc.constant(new Date(Date.now() + 60_000).toISOString()),
              fc.string(),
            ),
            purpose: fc.oneof(fc.constant("PAYOUT"), fc.jsonValue()),
            passkeyAssertionOptions: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    near.map((v) => JSON.stringify(v)),
    fc.string(),
  );
  const status = fc.constantFrom(200, 201, 202, 204, 400, 401, 404, 409, 429, 500, 502);
  const answer = fc.record({ status, body });

  const scripted = (answers: { status: number; body: string }[]) => {
    let i = 0;
    // Simulated time: a hostile service that answers PROCESSING forever meets the client's
    // real deadlines (a minute and more) at once, and a hang is still a hang.
    let now = Date.now();
    return createClient({
      relayUrl: "http://127.0.0.1:9/api/grid",
      keyStore: createMemoryKeyStore(),
      clock: { now: () => now },
      sleep: async (ms) => {
        now += ms;
      },
      signedRequests: { timeoutMs: 500, backoff: { baseMs: 1, maxMs: 2 } },
      fetch: async () => {
        const a = answers[Math.min(i++, answers.length - 1)]!;
        return new Response(a.status === 204 ? null : a.body, {
          status: a.status,
          headers: { "content-type": "application/json", "retry-after": "0" },
        });
      },
    });
  };

  const flows: [string, (client: ReturnType<typeof createClient>) => Promise<unknown>][] = [
    ["OTP challenge answer (requestOtp)", (c) => requestOtp(c, { credentialId: CREDENTIAL })],
    [
      "OTP verify answers: 202 challenge, session (verifyOtp)",
      (c) =>
        verifyOtp(c, {
          credential: { id: CREDENTIAL, type: "EMAIL_OTP" },
          otpEncryptionTargetBundle: interopSamples().targetBundle.otpEncryptionTargetBundle,
          otpCode: "000000",
        }),
    ],
    ["session list (listSessions)", (c) => listSessions(c, { accountId: ACCOUNT })],
    ["quote (getQuote)", (c) => getQuote(c, { quoteId: QUOTE })],
    [
      "SCA authorization answers (authorizeQuote)",
      (c) => {
        // The customer answers three times at most, then gives up (as a person would).
        let asked = 0;
        return authorizeQuote(c, {
          quote: HELD_QUOTE,
          onChallenge: () => {
            if (++asked > 3) throw new SignetError("ABORTED", "The customer gave up");
            return { code: "123456" };
          },
        });
      },
    ],
  ];
  const out: HostileCounts[] = [];
  for (const [name, run] of flows) {
    const counts = fresh(name);
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 4 }), async (answers) => {
        await judge(counts, () => run(scripted(answers)), false);
        return true;
      }),
      { numRuns },
    );
    out.push(counts);
  }
  return out;
}

/** Every body, header, method and path the relay and the emulator can receive. */
export async function servers(numRuns: number): Promise<HostileCounts[]> {
  const emulator = createEmulator();
  const relay = createRelay({
    baseUrl: "http://emulator.invalid/grid/2025-10-13",
    tokenId: "emulator",
    clientSecret: "emulator",
    // The app's session lookup: a header stands in for its cookie; anything else is no user.
    resolveUser: (request) => {
      const customerId = request.headers.get("x-test-customer");
      return customerId?.startsWith("Customer:") ? { customerId } : null;
    },
    // The emulator in process: the relay's upstream fetch goes straight to its handler.
    fetch: (input, init) => emulator.fetch(new Request(input, init)),
  });
  // A real customer, so that hostile input also reaches the checks behind authentication.
  const basic = `Basic ${btoa("emulator:emulator")}`;
  const platform = async (method: string, path: string, body?: unknown) =>
    (await (
      await emulator.fetch(
        new Request(`http://emulator.test/grid/2025-10-13${path}`, {
          method,
          headers: { authorization: basic, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      )
    ).json()) as { id: string; data: { id: string }[] };
  const customer = (
    await platform("POST", "/customers", {
      customerType: "INDIVIDUAL",
      email: "hostile@example.com",
      fullName: "Hostile Input",
    })
  ).id;
  const account = (await platform("GET", `/customers/internal-accounts?customerId=${customer}`))
    .data[0]!.id;
  const credential = (await platform("GET", `/auth/credentials?accountId=${account}`)).data[0]!.id;
  const segment = fc.oneof(
    fc.constantFrom(
      "auth",
      "credentials",
      "sessions",
      "quotes",
      "internal-accounts",
      "transactions",
      "customers",
      "delegated-keys",
      "export",
      "verify",
      "challenge",
      "refresh",
      "..",
      "%2e%2e",
      "%2F",
      "%00",
      ".",
      "",
      ACCOUNT,
      CREDENTIAL,
      QUOTE,
      customer,
      account,
      credential,
      "Customer:00000000-0000-4000-8000-000000000000",
    ),
    fc.string().map(encodeURIComponent),
  );
  const path = fc.array(segment, { minLength: 0, maxLength: 6 }).map((s) => `/${s.join("/")}`);
  const method = fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD");
  const headerValue = fc.string({ unit: "grapheme-ascii" }).filter((v) => !/[\r\n\0]/.test(v));
  const headers = fc.record(
    {
      "grid-wallet-signature": headerValue,
      "request-id": fc.oneof(
        headerValue,
        fc.constant("Request:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a13"),
      ),
      "idempotency-key": headerValue,
      "content-type": fc.constantFrom(
        "application/json",
        "text/plain",
        "application/x-www-form-urlencoded",
      ),
      "x-test-customer": fc.constantFrom(
        customer,
        customer,
        "Customer:00000000-0000-4000-8000-000000000000",
        "nobody",
        "",
      ),
      authorization: fc.oneof(fc.constant(basic), fc.constant(basic), headerValue),
      "transfer-encoding": fc.constantFrom("chunked", "gzip"),
      "x-forwarded-for": headerValue,
    },
    { requiredKeys: [] },
  );
  const body = fc.oneof(
    fc.constant(undefined),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string(),
    fc.uint8Array({ maxLength: 256 }),
  );
  const query = fc.oneof(
    fc.constant(""),
    fc.string().map((q) => `?${q}`),
    fc.constant(`?accountId=${account}`),
    fc.constant(`?accountId=${account}&accountId=${ACCOUNT}`),
    fc.constant(`?customerId=${customer}&type=EMBEDDED_WALLET`),
  );
  // Half the cases start from a real route of this customer, so the checks behind the router see
  // hostile headers and bodies too.
  const routes: [string, string][] = [
    ["GET", `/auth/credentials?accountId=${account}`],
    ["GET", `/auth/sessions?accountId=${account}`],
    ["GET", `/customers/internal-accounts?customerId=${customer}&type=EMBEDDED_WALLET`],
    ["POST", `/auth/credentials/${credential}/challenge`],
    ["POST", `/auth/credentials/${credential}/verify`],
    ["POST", "/auth/credentials"],
    ["DELETE", `/auth/credentials/${credential}`],
    ["POST", `/internal-accounts/${account}/export`],
    ["POST", "/auth/delegated-keys"],
    ["PATCH", `/customers/${customer}`],
    ["POST", `/quotes/${QUOTE}/execute`],
  ];
  const request = fc.oneof(
    fc.record({ method, path, headers, body, query }),
    fc
      .record({ route: fc.constantFrom(...routes), headers, body })
      .map(({ route: [m, p], headers: h, body: b }) => ({
        method: m,
        path: p.split("?")[0]!,
        query: p.includes("?") ? `?${p.split("?")[1]}` : "",
        headers: h,
        body: b,
      })),
  );

  const relayCounts = fresh("relay: any method, path, query, header and body");
  const emulatorCounts = fresh("emulator: any method, path, query, header and body");
  const send = async (
    counts: HostileCounts,
    handler: (r: Request) => Promise<Response>,
    base: string,
    r: {
      method: string;
      path: string;
      query: string;
      headers: Record<string, string>;
      body?: string | Uint8Array | undefined;
    },
  ) => {
    let req: Request;
    try {
      const withBody = r.method !== "GET" && r.method !== "HEAD" && r.body !== undefined;
      req = new Request(`${base}${r.path}${r.query}`, {
        method: r.method,
        headers: r.headers,
        ...(withBody ? { body: r.body as BodyInit } : {}),
      });
    } catch {
      return; // not a request a client can send (the URL or a header is invalid)
    }
    counts.cases++;
    try {
      const response = await handler(req);
      const text = await response.text();
      if (response.status >= 500 && response.status !== 502 && response.status !== 504) {
        counts.serverErrors++;
        if (counts.serverErrors <= 3)
          console.error(`${counts.name}: ${response.status} for ${r.method} ${r.path} ${text}`);
      } else if (response.status >= 400) {
        const code = (() => {
          try {
            return (JSON.parse(text) as { code?: unknown }).code;
          } catch {
            return undefined;
          }
        })();
        if (typeof code === "string" && /^[A-Z0-9_]+$/.test(code)) counts.typed++;
        else if (r.method === "HEAD")
          counts.typed++; // a HEAD answer has no body by definition
        else counts.untyped++;
      } else counts.accepted++;
    } catch (error) {
      counts.untyped++;
      if (counts.untyped <= 3) console.error(`${counts.name}: threw`, error);
    }
  };
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      await send(relayCounts, relay, "http://relay.test/api/grid", r);
      await send(emulatorCounts, emulator.fetch, "http://emulator.test/grid/2025-10-13", r);
      return true;
    }),
    { numRuns },
  );
  return [relayCounts, emulatorCounts];
}
