// The signed-retry engine over real HTTP on 127.0.0.1: core → emulator, and core → relay →
// emulator. The stamps are made here with node:crypto (OpenSSL), not with Signet's own crypto,
// so the engine is checked against an independent signer and the emulator's real verification.
import { generateKeyPairSync, type KeyObject, sign as signWithNode } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { createRelay, toNodeHandler } from "@signet/relay";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isSignetError, type SignetError } from "../src/errors/errors.js";
import { sealOtpBundle } from "../src/index.js";
import {
  createTransport,
  type RequestEvent,
  requestJson,
  type Transport,
} from "../src/transport/http.js";
import { expectActivity, expectVerificationToken } from "../src/transport/payloadCheck.js";
import { runSignedRequest, type SignedRequestEvent } from "../src/transport/signedRequest.js";

const BASIC = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;

/** A P-256 key held by node:crypto, stamping as the service expects (docs/protocol.md §4). */
function nodeSigningKey() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x ?? "", "base64url");
  const y = Buffer.from(jwk.y ?? "", "base64url");
  const compressed = Buffer.concat([Buffer.from([(y.at(-1) ?? 0) & 1 ? 3 : 2]), x]).toString("hex");
  const uncompressed = Buffer.concat([Buffer.from([4]), x, y]).toString("hex");
  const stamp = (payload: string, key: KeyObject = privateKey) => {
    // node:crypto's ECDSA signature is DER by default.
    const signature = signWithNode("sha256", Buffer.from(payload, "utf8"), key).toString("hex");
    const json = JSON.stringify({
      publicKey: compressed,
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      signature,
    });
    return Buffer.from(json, "utf8").toString("base64url");
  };
  return { compressed, uncompressed, stamp };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function rejection(promise: Promise<unknown>): Promise<SignetError> {
  try {
    await promise;
  } catch (error) {
    if (isSignetError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

let emulatorServer: EmulatorServer;
let relayServer: Server;
let relayUrl: string;
let currentCustomerId = "";

beforeAll(async () => {
  emulatorServer = await startEmulatorServer({ port: 0 });
  const relay = createRelay({
    baseUrl: emulatorServer.url,
    tokenId: "emulator",
    clientSecret: "emulator",
    resolveUser: () => (currentCustomerId === "" ? null : { customerId: currentCustomerId }),
    rateLimit: false,
    ownershipCacheTtlMs: 0,
  });
  relayServer = createServer(toNodeHandler(relay));
  relayUrl = `${await listen(relayServer)}/api/grid`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => relayServer?.close(() => resolve()));
  await emulatorServer?.close();
});

afterEach(() => {
  emulatorServer.emulator.clearFaults();
});

/** The platform's own calls (Basic auth), straight to the emulator: the demo server's job. */
function platformTransport(): Transport {
  return createTransport({ relayUrl: emulatorServer.url, headers: { Authorization: BASIC } });
}

async function walletBalance(customerId: string): Promise<number> {
  const accounts = await requestJson<{ data: Array<{ balance: { amount: number } }> }>({
    transport: platformTransport(),
    method: "GET",
    path: `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}&type=EMBEDDED_WALLET`,
  });
  return accounts.body.data[0]?.balance.amount ?? Number.NaN;
}

/** The platform side: a customer with a wallet and its EMAIL_OTP credential. */
async function createCustomer() {
  const platform = platformTransport();
  const email = `ada+${Math.random().toString(36).slice(2)}@example.com`;
  const customer = await requestJson<{ id: string }>({
    transport: platform,
    method: "POST",
    path: "/customers",
    body: JSON.stringify({ customerType: "INDIVIDUAL", email }),
    expectedStatus: 201,
  });
  const accounts = await requestJson<{ data: Array<{ id: string; type?: string }> }>({
    transport: platform,
    method: "GET",
    path: `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}&type=EMBEDDED_WALLET`,
  });
  const accountId = accounts.body.data[0]?.id ?? "";
  const credentials = await requestJson<{ data: Array<{ id: string; type: string }> }>({
    transport: platform,
    method: "GET",
    path: `/auth/credentials?accountId=${encodeURIComponent(accountId)}`,
  });
  const credentialId =
    credentials.body.data.find((credential) => credential.type === "EMAIL_OTP")?.id ?? "";
  return { customerId: customer.body.id, accountId, credentialId };
}

type Target = {
  name: string;
  transport: (events: Array<RequestEvent>) => Transport;
  /** What revoking a session that no longer exists gives on this path. */
  goneSession: [code: string, status: number];
  /** What a connection dropped by the service looks like to the device. */
  dropped: { status?: number; code?: string };
};

const targets: Target[] = [
  {
    name: "core → emulator",
    transport: (events) =>
      createTransport({
        relayUrl: emulatorServer.url,
        headers: { Authorization: BASIC },
        onEvent: (event) => events.push(event),
      }),
    goneSession: ["REFERENCE_NOT_FOUND", 404],
    dropped: { code: "NETWORK" },
  },
  {
    name: "core → relay → emulator",
    transport: (events) => createTransport({ relayUrl, onEvent: (event) => events.push(event) }),
    // The relay's ownership check refuses a session the user no longer has before the service sees it.
    goneSession: ["RELAY_FORBIDDEN", 403],
    dropped: { status: 502 },
  },
];

describe.each(targets)("runSignedRequest over real HTTP ($name)", (target) => {
  /** Signs in by email OTP: challenge, seal the code to the enclave, verify as a signed retry. */
  async function signIn(options: {
    transport: Transport;
    events: SignedRequestEvent[];
    processing?: number;
  }) {
    const account = await createCustomer();
    currentCustomerId = account.customerId;
    const tek = nodeSigningKey();
    const challenge = await requestJson<{ otpEncryptionTargetBundle: string }>({
      transport: options.transport,
      method: "POST",
      path: `/auth/credentials/${account.credentialId}/challenge`,
      body: "{}",
      expectedStatus: 200,
    });
    const encryptedOtpBundle = await sealOtpBundle({
      targetBundle: challenge.body.otpEncryptionTargetBundle,
      otpCode: "000000",
      publicKey: tek.uncompressed,
      trustedKeys: [emulatorServer.emulator.keys.attestationPublicKey],
    });
    if (options.processing !== undefined) {
      emulatorServer.emulator.addFault({
        kind: "processing",
        count: options.processing,
        match: { method: "POST", path: `/auth/credentials/${account.credentialId}/verify` },
      });
    }
    const signContexts: Array<{ leg: number; type?: string }> = [];
    const session = await runSignedRequest<{ id: string; expiresAt: string }>({
      transport: options.transport,
      operation: "verifyOtp",
      method: "POST",
      path: `/auth/credentials/${account.credentialId}/verify`,
      body: JSON.stringify({ type: "EMAIL_OTP", encryptedOtpBundle }),
      expectedStatus: 200,
      checkPayload: expectVerificationToken([tek.uncompressed]),
      sign: (payload, context) => {
        signContexts.push({
          leg: context.leg,
          ...(context.type === undefined ? {} : { type: context.type }),
        });
        return tek.stamp(payload);
      },
      retry: { backoff: { baseMs: 20, maxMs: 100 } },
      onEvent: (event) => event.type === "signedRequest" && options.events.push(event),
    });
    return { ...account, tek, session, signContexts, encryptedOtpBundle };
  }

  it("signs in by OTP through PROCESSING re-sends, then revokes the session through a 429", async () => {
    const requestEvents: RequestEvent[] = [];
    const events: SignedRequestEvent[] = [];
    const transport = target.transport(requestEvents);
    const logStart = emulatorServer.emulator.requests().length;

    const signedIn = await signIn({ transport, events, processing: 2 });
    expect(signedIn.session.status).toBe(200);
    expect(signedIn.session.body.id).toMatch(/^Session:/);
    expect(signedIn.session.legs).toBe(2);
    expect(signedIn.session.attempts).toBe(4); // 202, PROCESSING, PROCESSING, 200
    expect(signedIn.signContexts).toEqual([{ leg: 2, type: "EMAIL_OTP" }]);

    const verifyLog = emulatorServer.emulator
      .requests()
      .slice(logStart)
      .filter((entry) => entry.path.endsWith("/verify"));
    expect(
      verifyLog.map((entry) => [entry.status, entry.hasSignature, entry.hasRequestId, entry.fault]),
    ).toEqual([
      [202, false, false, undefined],
      [200, true, true, "processing"],
      [200, true, true, "processing"],
      [200, true, true, undefined],
    ]);

    // Revoke: a 429 with Retry-After on leg 1, honoured; the TEK is the session key.
    emulatorServer.emulator.addFault({
      kind: "rate_limit",
      retryAfter: 1,
      match: { method: "DELETE", path: `/auth/sessions/${signedIn.session.body.id}` },
    });
    const started = Date.now();
    const revoked = await runSignedRequest({
      transport,
      operation: "revokeSession",
      method: "DELETE",
      path: `/auth/sessions/${signedIn.session.body.id}`,
      expectedStatus: 204,
      checkPayload: expectActivity({}, "any", [
        { types: ["ACTIVITY_TYPE_DELETE_API_KEYS"], counts: { apiKeyIds: 1 } },
      ]),
      sign: (payload) => signedIn.tek.stamp(payload),
      onEvent: (event) => event.type === "signedRequest" && events.push(event),
    });
    expect(revoked).toMatchObject({ status: 204, legs: 2, attempts: 3 });
    expect(revoked.body).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const revokeLog = emulatorServer.emulator
      .requests()
      .slice(logStart)
      .filter((entry) => entry.method === "DELETE");
    expect(revokeLog.map((entry) => [entry.status, entry.hasSignature, entry.fault])).toEqual([
      [429, false, "rate_limit"],
      [202, false, undefined],
      [204, true, undefined],
    ]);

    // Revoked means gone: a second revoke is refused on leg 1.
    const again = await rejection(
      runSignedRequest({
        transport,
        method: "DELETE",
        path: `/auth/sessions/${signedIn.session.body.id}`,
        expectedStatus: 204,
        checkPayload: expectActivity({}, "any", [
          { types: ["ACTIVITY_TYPE_DELETE_API_KEYS"], counts: { apiKeyIds: 1 } },
        ]),
        sign: (payload) => signedIn.tek.stamp(payload),
      }),
    );
    expect([again.code, again.status]).toEqual(target.goneSession);

    expect(
      events.filter((event) => event.operation === "verifyOtp").map((event) => event.stage),
    ).toEqual([
      "challenge",
      "signing",
      "submitting",
      "processing",
      "submitting",
      "processing",
      "submitting",
      "done",
    ]);
    const serialized = JSON.stringify([...events, ...requestEvents]);
    expect(serialized).not.toContain(signedIn.encryptedOtpBundle);
    expect(serialized).not.toContain("payloadToSign");
    expect(serialized).not.toMatch(/"signature"|eyJwdWJsaWNLZXki/); // a stamp is base64url of {"publicKey"…
  });

  /** A funded wallet with a session, and a PENDING quote from it to another customer's wallet. */
  async function quoteFromSignedInWallet(transport: Transport) {
    const payee = await createCustomer();
    const payer = await signIn({ transport, events: [] });
    await requestJson({
      transport: platformTransport(),
      method: "POST",
      path: `/sandbox/internal-accounts/${payer.accountId}/fund`,
      body: JSON.stringify({ amount: 5_000_000 }),
      expectedStatus: 200,
    });
    const quote = await requestJson<{
      id: string;
      totalSendingAmount: number;
      paymentInstructions: Array<{
        accountOrWalletInfo: { accountType: string; payloadToSign?: string };
      }>;
    }>({
      transport: platformTransport(),
      method: "POST",
      path: "/quotes",
      body: JSON.stringify({
        source: { sourceType: "ACCOUNT", accountId: payer.accountId },
        destination: { destinationType: "ACCOUNT", accountId: payee.accountId },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: 1_000_000,
      }),
      expectedStatus: 201,
    });
    // Found by type, never by index (docs/protocol.md §3).
    const payloadToSign = quote.body.paymentInstructions.find(
      (instruction) => instruction.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    )?.accountOrWalletInfo.payloadToSign;
    if (payloadToSign === undefined) throw new Error("no EMBEDDED_WALLET instruction");
    currentCustomerId = payer.customerId;
    return { payer, quote: quote.body, payloadToSign };
  }

  it("executes a quote in direct mode; a lost answer is retried with the same key and pays once", async () => {
    const requestEvents: RequestEvent[] = [];
    const transport = target.transport(requestEvents);
    const { payer, quote, payloadToSign } = await quoteFromSignedInWallet(transport);
    const before = await walletBalance(payer.customerId);
    const path = `/quotes/${quote.id}/execute`;
    const logStart = emulatorServer.emulator.requests().length;

    // The service executes the first request but answers after the device has given up on it.
    emulatorServer.emulator.addFault({ kind: "delay", ms: 400, match: { method: "POST", path } });
    let signs = 0;
    const executed = await runSignedRequest<{ id: string; status: string; transactionId: string }>({
      transport,
      mode: "direct",
      operation: "executeQuote",
      method: "POST",
      path,
      payloadToSign,
      expectedStatus: 200,
      checkPayload: expectActivity({}, "any", [{ types: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"] }]),
      attemptTimeoutMs: 150,
      retry: { backoff: { baseMs: 1_000, maxMs: 1_000 } },
      random: () => 0.9,
      sign: (payload) => {
        signs += 1;
        return payer.tek.stamp(payload);
      },
    });
    expect(executed.status).toBe(200);
    expect(executed.body).toMatchObject({ id: quote.id, status: "PROCESSING" });
    expect(executed.body.transactionId).toMatch(/^Transaction:/);
    expect(executed.attempts).toBe(2);
    expect(signs).toBe(1);
    expect(await walletBalance(payer.customerId)).toBe(before - quote.totalSendingAmount);

    const executes = emulatorServer.emulator
      .requests()
      .slice(logStart)
      .filter((entry) => entry.method === "POST" && entry.path.endsWith("/execute"));
    expect(
      executes.map((entry) => [
        entry.status,
        entry.hasSignature,
        entry.hasIdempotencyKey,
        entry.hasRequestId,
      ]),
    ).toEqual([
      [200, true, true, false],
      [200, true, true, false],
    ]);
    expect(
      requestEvents
        .filter((event) => event.path === path)
        .map((event) => [event.signed, event.status, event.code]),
    ).toEqual([
      [true, undefined, "TIMEOUT"],
      [true, 200, undefined],
    ]);

    // Executing again under a new key is refused: the quote is spent.
    const again = await rejection(
      runSignedRequest({
        transport,
        mode: "direct",
        method: "POST",
        path,
        payloadToSign,
        expectedStatus: 200,
        checkPayload: expectActivity({}, "any", [{ types: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"] }]),
        sign: (payload) => payer.tek.stamp(payload),
      }),
    );
    expect([again.code, again.status, (again.details as Record<string, unknown>).reason]).toEqual([
      "CONFLICT",
      409,
      "QUOTE_ALREADY_EXECUTED",
    ]);
    expect(await walletBalance(payer.customerId)).toBe(before - quote.totalSendingAmount);
  });

  it("re-sends the identical signed request when the connection drops mid-leg", async () => {
    const events: SignedRequestEvent[] = [];
    const requestEvents: RequestEvent[] = [];
    const transport = target.transport(requestEvents);
    const signedIn = await signIn({ transport, events });
    const path = `/auth/sessions/${signedIn.session.body.id}`;
    const logStart = emulatorServer.emulator.requests().length;
    const revoked = await runSignedRequest({
      transport,
      method: "DELETE",
      path,
      expectedStatus: 204,
      checkPayload: expectActivity({}, "any", [
        { types: ["ACTIVITY_TYPE_DELETE_API_KEYS"], counts: { apiKeyIds: 1 } },
      ]),
      retry: { backoff: { baseMs: 20 } },
      sign: (payload) => {
        // Between leg 1 and leg 2: the next request to this path loses its connection.
        emulatorServer.emulator.addFault({ kind: "drop", match: { method: "DELETE", path } });
        return signedIn.tek.stamp(payload);
      },
    });
    expect(revoked).toMatchObject({ status: 204, attempts: 3 });
    // (The relay's own ownership lookups are GETs; only the revoke legs are compared.)
    const log = emulatorServer.emulator
      .requests()
      .slice(logStart)
      .filter((entry) => entry.method === "DELETE");
    expect(log.map((entry) => [entry.status, entry.hasSignature])).toEqual([
      [202, false],
      [0, true],
      [204, true],
    ]);
    const legs = requestEvents.filter((event) => event.method === "DELETE");
    expect(legs.map((event) => [event.signed, event.status, event.code])).toEqual([
      [false, 202, undefined],
      [true, target.dropped.status, target.dropped.code],
      [true, 204, undefined],
    ]);
    expect(new Set(legs.slice(1).map((event) => event.requestId)).size).toBe(1);
  });

  it("maps a stamp by the wrong key to WALLET_SIGNATURE_INVALID", async () => {
    const transport = target.transport([]);
    const signedIn = await signIn({ transport, events: [] });
    const stranger = nodeSigningKey();
    const error = await rejection(
      runSignedRequest({
        transport,
        method: "DELETE",
        path: `/auth/sessions/${signedIn.session.body.id}`,
        expectedStatus: 204,
        checkPayload: expectActivity({}, "any", [
          { types: ["ACTIVITY_TYPE_DELETE_API_KEYS"], counts: { apiKeyIds: 1 } },
        ]),
        sign: (payload) => stranger.stamp(payload),
      }),
    );
    expect([error.code, error.status, error.retryable]).toEqual([
      "WALLET_SIGNATURE_INVALID",
      401,
      false,
    ]);
    expect((error.details as Record<string, unknown>).requestId).toMatch(/^Request:/);
    expect(error.message).not.toContain(stranger.compressed);
  });

  it("reads the service's expired-request-id 401 as CHALLENGE_EXPIRED, and restarts once when allowed", async () => {
    const transport = target.transport([]);
    const signedIn = await signIn({ transport, events: [] });
    const refresh = (restartOnExpiry: boolean, lapses: number) => {
      let signed = 0;
      const next = nodeSigningKey();
      return runSignedRequest<{ id: string }>({
        transport,
        method: "POST",
        path: `/auth/sessions/${signedIn.session.body.id}/refresh`,
        body: JSON.stringify({ clientPublicKey: next.compressed }),
        expectedStatus: 201,
        checkPayload: expectActivity({}, "any", [
          {
            types: ["ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2"],
            equals: { targetPublicKey: next.compressed },
          },
        ]),
        restartOnExpiry,
        sign: (payload) => {
          signed += 1;
          // The emulator's clock jumps past the 5-minute challenge while the user hesitates;
          // the session itself lives 15 minutes, so it stays valid for the restart.
          if (signed <= lapses) emulatorServer.emulator.advanceClock(5 * 60_000 + 1_000);
          return signedIn.tek.stamp(payload);
        },
      });
    };

    const expired = await rejection(refresh(false, 1));
    expect(expired.code).toBe("CHALLENGE_EXPIRED");
    expect(isSignetError(expired.cause)).toBe(true);
    expect((expired.cause as SignetError).status).toBe(401);

    const restarted = await refresh(true, 1);
    expect(restarted).toMatchObject({ status: 201, restarts: 1, legs: 2 });
    expect(restarted.body.id).toMatch(/^Session:/);
  });
});
