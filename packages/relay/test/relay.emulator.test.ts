// The relay (served by node:http through toNodeHandler) in front of the running @signet/emulator.
// Stamps are made here with node:crypto, so a stamp that verifies proves the bytes arrived intact.

import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rawHttp, rawRequest } from "../../test/src/rawHttp.js";
import { type RunningRelay, serveRelay } from "../../test/src/stubService.js";
import { type CreateRelayOptions, createRelay } from "../src/createRelay.js";
import {
  as,
  emulatorRelayOptions,
  type Json,
  json,
  newKey,
  platform as platformCall,
  signUp as signUpThrough,
  stamp,
  type TestKey,
  type Wallet,
} from "./nodeWallet.js";

let emulator: EmulatorServer;
let relay: RunningRelay;
let api: string;
let attestationKey: string;
const extraRelays: RunningRelay[] = [];

/** A direct platform call to the emulator (what the app's backend does outside the relay). */
const platform = (method: string, path: string, body?: unknown) =>
  platformCall(emulator.url, method, path, body);

async function startRelay(options: Partial<CreateRelayOptions> = {}): Promise<string> {
  const running = await serveRelay(createRelay(emulatorRelayOptions(emulator.url, options)));
  extraRelays.push(running);
  return `${running.url}/api/grid`;
}

/** Relays one signed-retry request: leg 1, then the same body bytes stamped. */
async function signedRetry(
  user: { customerId: string },
  method: string,
  path: string,
  body: string | undefined,
  key: TestKey,
): Promise<{ first: Response; challenge: Json; final: Response }> {
  const headers = method === "GET" ? as(user) : json(user);
  const first = await fetch(`${api}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  expect(first.status).toBe(202);
  const challenge = (await first.clone().json()) as Json;
  const final = await fetch(`${api}${path}`, {
    method,
    headers: {
      ...headers,
      "Grid-Wallet-Signature": stamp(challenge.payloadToSign as string, key),
      "Request-Id": challenge.requestId as string,
    },
    ...(body !== undefined ? { body } : {}),
  });
  return { first, challenge, final };
}

/** Creates a customer and signs them in by email OTP, every wallet call through the relay. */
const signUp = (email: string) => signUpThrough(api, emulator.url, attestationKey, email);

let alice: Wallet;
let bob: Wallet;

beforeAll(async () => {
  emulator = await startEmulatorServer({ port: 0 });
  attestationKey = (await platform("GET", "/_emulator/keys")).attestationPublicKey as string;
  relay = await serveRelay(createRelay(emulatorRelayOptions(emulator.url, { rateLimit: false })));
  api = `${relay.url}/api/grid`;
  alice = await signUp("alice@example.com");
  bob = await signUp("bob@example.com");
});

afterAll(async () => {
  await Promise.all([relay.close(), ...extraRelays.map((r) => r.close())]);
  await emulator.close();
});

beforeEach(async () => {
  await fetch(`${emulator.url}/_emulator/faults`, { method: "DELETE" });
});

async function requestLog(): Promise<Json[]> {
  return ((await platform("GET", "/_emulator/requests")).data as Json[]) ?? [];
}

async function clearLog(): Promise<void> {
  await fetch(`${emulator.url}/_emulator/requests`, { method: "DELETE" });
}

async function fault(spec: Json): Promise<void> {
  await platform("POST", "/_emulator/faults", spec);
}

describe("signed flows pass through byte for byte (stamps verify at the emulator)", () => {
  it("signs in by email OTP (challenge, 202, stamped verify)", () => {
    expect(alice.session).toMatch(/^Session:/);
    expect(bob.session).toMatch(/^Session:/);
  });

  it("lists credentials and sessions of the caller's wallet", async () => {
    const sessions = await fetch(`${api}/auth/sessions?accountId=${alice.wallet}`, {
      headers: as(alice),
    });
    expect(sessions.status).toBe(200);
    const list = (await sessions.json()) as { data: Json[] };
    expect(list.data.map((s) => s.id)).toContain(alice.session);
  });

  it("refreshes a session (202, then 201 with the same body bytes)", async () => {
    const next = newKey();
    const body = `{ "clientPublicKey" : "${next.compressed}" }`;
    const { first, final } = await signedRetry(
      alice,
      "POST",
      `/auth/sessions/${alice.session}/refresh`,
      body,
      alice.sessionKey,
    );
    expect(first.headers.get("content-type")).toMatch(/application\/json/);
    expect(final.status).toBe(201);
    const session = (await final.json()) as Json;
    // The old session ends with the refresh: Alice signs with the new one from now on.
    alice = { ...alice, session: session.id as string, sessionKey: next };
  });

  it("revokes a session (202, then 204 with no body)", async () => {
    const carol = await signUp("carol@example.com");
    const revoke = await signedRetry(
      carol,
      "DELETE",
      `/auth/sessions/${carol.session}`,
      undefined,
      carol.sessionKey,
    );
    expect(revoke.final.status).toBe(204);
    expect(await revoke.final.text()).toBe("");
  });

  it("exports the wallet (202, then 200 with encryptedWalletCredentials)", async () => {
    const exportKey = newKey();
    const body = JSON.stringify({ clientPublicKey: exportKey.uncompressed });
    const { final } = await signedRetry(
      alice,
      "POST",
      `/internal-accounts/${alice.wallet}/export`,
      body,
      alice.sessionKey,
    );
    expect(final.status).toBe(200);
    expect(typeof ((await final.json()) as Json).encryptedWalletCredentials).toBe("string");
  });

  it("changes the contact email (202, then 200 Customer)", async () => {
    const body = '{"customerType":"INDIVIDUAL","email":"alice.new@example.com"}';
    const { final } = await signedRetry(
      alice,
      "PATCH",
      `/customers/${alice.customerId}`,
      body,
      alice.sessionKey,
    );
    expect(final.status).toBe(200);
    expect(((await final.json()) as Json).email).toBe("alice.new@example.com");
  });

  it("passes the service's 401 for a stamp over other bytes unchanged", async () => {
    const path = `/internal-accounts/${alice.wallet}/export`;
    const body = JSON.stringify({ clientPublicKey: newKey().uncompressed });
    const first = await fetch(`${api}${path}`, {
      method: "POST",
      headers: as(alice, { "Content-Type": "application/json" }),
      body,
    });
    const challenge = (await first.json()) as Json;
    const response = await fetch(`${api}${path}`, {
      method: "POST",
      headers: json(alice, {
        "Content-Type": "application/json",
        "Grid-Wallet-Signature": stamp(`${challenge.payloadToSign as string} `, alice.sessionKey),
        "Request-Id": challenge.requestId as string,
      }),
      body,
    });
    expect(response.status).toBe(401);
    const error = (await response.json()) as Json;
    expect(error.status).toBe(401);
    expect(String(error.code)).toMatch(/^WALLET_SIGNATURE_|^INVALID_SIGNATURE$/);
  });

  it("forces the caller's customer id on the accounts list", async () => {
    const response = await fetch(`${api}/customers/internal-accounts`, { headers: as(bob) });
    const list = (await response.json()) as { data: Json[] };
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((a) => a.customerId === bob.customerId)).toBe(true);
  });
});

describe("refusals", () => {
  it.each([
    ["account (path)", "POST", (w: Wallet) => `/internal-accounts/${w.wallet}/export`, "{}"],
    ["account (query)", "GET", (w: Wallet) => `/auth/credentials?accountId=${w.wallet}`, null],
    [
      "account (sessions query)",
      "GET",
      (w: Wallet) => `/auth/sessions?accountId=${w.wallet}`,
      null,
    ],
    ["credential", "POST", (w: Wallet) => `/auth/credentials/${w.credential}/challenge`, null],
    ["credential (delete)", "DELETE", (w: Wallet) => `/auth/credentials/${w.credential}`, null],
    ["session", "POST", (w: Wallet) => `/auth/sessions/${w.session}/refresh`, "{}"],
    ["session (delete)", "DELETE", (w: Wallet) => `/auth/sessions/${w.session}`, null],
    ["customer", "PATCH", (w: Wallet) => `/customers/${w.customerId}`, '{"email":"x@y.io"}'],
    [
      "customer (query)",
      "GET",
      (w: Wallet) => `/customers/internal-accounts?customerId=${w.customerId}`,
      null,
    ],
  ])("refuses Alice's use of Bob's %s with 403", async (_name, method, path, body) => {
    await clearLog();
    const response = await fetch(`${api}${path(bob)}`, {
      method,
      headers: method === "GET" ? as(alice) : json(alice),
      ...(body !== null ? { body: body.replace("{}", '{"clientPublicKey":"04ab"}') } : {}),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ status: 403, code: "RELAY_FORBIDDEN" });
    // Only the relay's own GET lookups reached the emulator.
    const log = await requestLog();
    expect(log.every((entry) => entry.method === "GET" && !entry.hasSignature)).toBe(true);
  });

  it.each([
    ["POST", "/customers"],
    ["GET", "/customers"],
    ["GET", "/customers/{c}"],
    ["DELETE", "/customers/{c}"],
    ["POST", "/sandbox/internal-accounts/{w}/fund"],
    ["GET", "/internal-accounts"],
    ["POST", "/customers/external-accounts"],
    ["GET", "/customers/external-accounts"],
    ["POST", "/quotes"],
    ["POST", "/transactions"],
    ["GET", "/_emulator/keys"],
    ["GET", "/_emulator/requests"],
    ["POST", "/_emulator/reset"],
    ["POST", "/_emulator/faults"],
    ["GET", "/auth/credentials/{cred}"],
    ["PUT", "/auth/credentials"],
    ["POST", "/auth/sessions"],
    ["GET", "/internal-accounts/{w}/export"],
  ])("refuses %s %s (404 or 405), and nothing reaches the emulator", async (method, template) => {
    await clearLog();
    const path = template
      .replace("{c}", alice.customerId)
      .replace("{w}", alice.wallet)
      .replace("{cred}", alice.credential);
    const response = await fetch(`${api}${path}`, {
      method,
      headers: as(alice, { "Content-Type": "application/json" }),
      ...(method === "GET" ? {} : { body: "{}" }),
    });
    expect([404, 405]).toContain(response.status);
    const error = (await response.json()) as Json;
    expect(error.code).toBe(response.status === 404 ? "RELAY_NOT_FOUND" : "METHOD_NOT_ALLOWED");
    expect(await requestLog()).toEqual([]);
  });

  it("refuses an oversized body with 413 before the emulator sees it", async () => {
    const small = await startRelay({ maxBodyBytes: 512 });
    await clearLog();
    const response = await fetch(`${small}/internal-accounts/${alice.wallet}/export`, {
      method: "POST",
      headers: as(alice, { "Content-Type": "application/json" }),
      body: JSON.stringify({ clientPublicKey: "04".padEnd(1000, "a") }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(await requestLog()).toEqual([]);
  });

  it("rate-limits a user with 429 and Retry-After", async () => {
    const limited = await startRelay({ rateLimit: { limit: 2, windowMs: 60_000 } });
    const get = () => fetch(`${limited}/customers/internal-accounts`, { headers: as(alice) });
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it.each([
    ["two signature headers", ["Grid-Wallet-Signature: abc", "Grid-Wallet-Signature: def"]],
    ["a combined Request-Id", [`Request-Id: Request:${crypto.randomUUID()}, x`]],
    ["a header with a control character", ["Idempotency-Key: a\u0001b"]],
    ["a CR inside a header", ["Grid-Wallet-Signature: abc\rX-Evil: 1"]],
  ])("refuses %s", async (_name, headers) => {
    await clearLog();
    const answer = await rawHttp(
      relay.url,
      rawRequest(
        "POST",
        `/api/grid/auth/sessions/${alice.session}/refresh`,
        [
          `Cookie: user=${encodeURIComponent(alice.customerId)}`,
          "Content-Type: application/json",
          ...headers,
        ],
        "{}",
      ),
    );
    expect(answer.status).toBe(400);
    expect(await requestLog()).toEqual([]);
  });

  it.each([
    `/api/grid/quotes/../customers/{c}`,
    `/api/grid/internal-accounts/%2e%2e/customers`,
    `/api/grid/customers%2finternal-accounts`,
    `/api/grid//customers/internal-accounts`,
    `/api/grid/customers\\internal-accounts`,
    `http://127.0.0.1:1/api/grid/customers/internal-accounts`,
  ])("refuses the malformed path %s", async (template) => {
    await clearLog();
    const answer = await rawHttp(
      relay.url,
      rawRequest("GET", template.replace("{c}", alice.customerId), [
        `Cookie: user=${encodeURIComponent(alice.customerId)}`,
      ]),
    );
    expect(answer.status).toBe(400);
    expect(await requestLog()).toEqual([]);
  });
});

describe("the service's answers and failures", () => {
  it("passes a 429 with Retry-After and its error body through unchanged", async () => {
    await fault({
      kind: "rate_limit",
      retryAfter: 7,
      match: { method: "POST", path: "/auth/credentials" },
    });
    const response = await fetch(`${api}/auth/credentials/${alice.credential}/challenge`, {
      method: "POST",
      headers: json(alice),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("7");
    expect(await response.json()).toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it("passes a 5xx error body through unchanged", async () => {
    await fault({
      kind: "error",
      status: 503,
      code: "GRID_SWITCH_ERROR",
      message: "switch down",
      match: { method: "GET", path: "/auth/sessions" },
    });
    const response = await fetch(`${api}/auth/sessions?accountId=${alice.wallet}`, {
      headers: as(alice),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 503,
      code: "GRID_SWITCH_ERROR",
      message: "switch down",
    });
  });

  it("passes a 200 PROCESSING through, and the identical re-send then succeeds", async () => {
    const next = newKey();
    const path = `/auth/sessions/${alice.session}/refresh`;
    const body = JSON.stringify({ clientPublicKey: next.compressed });
    const headers = as(alice, { "Content-Type": "application/json" });
    const first = await fetch(`${api}${path}`, { method: "POST", headers, body });
    const challenge = (await first.json()) as Json;
    const signed = {
      ...headers,
      "Grid-Wallet-Signature": stamp(challenge.payloadToSign as string, alice.sessionKey),
      "Request-Id": challenge.requestId as string,
    };
    await fault({ kind: "processing", match: { method: "POST", path: "/auth/sessions" } });
    const processing = await fetch(`${api}${path}`, { method: "POST", headers: signed, body });
    expect(processing.status).toBe(200);
    expect(await processing.json()).toMatchObject({ status: "PROCESSING" });
    const done = await fetch(`${api}${path}`, { method: "POST", headers: signed, body });
    expect(done.status).toBe(201);
  });

  it("answers 504 when the emulator is slow", async () => {
    const impatient = await startRelay({ timeoutMs: 300 });
    await fault({ kind: "delay", ms: 2000, match: { method: "POST", path: "/auth/credentials" } });
    const response = await fetch(`${impatient}/auth/credentials/${alice.credential}/challenge`, {
      method: "POST",
      headers: json(alice),
    });
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ status: 504, code: "UPSTREAM_TIMEOUT" });
  });

  it("retries a GET once after a dropped connection", async () => {
    await fault({ kind: "drop", count: 1, match: { method: "GET", path: "/auth/credentials" } });
    const response = await fetch(`${api}/auth/credentials?accountId=${alice.wallet}`, {
      headers: as(alice),
    });
    expect(response.status).toBe(200);
  });

  it("answers 502 when a POST's connection drops (no retry)", async () => {
    await clearLog();
    await fault({ kind: "drop", count: 1, match: { method: "POST", path: "/auth/credentials" } });
    const response = await fetch(`${api}/auth/credentials/${alice.credential}/challenge`, {
      method: "POST",
      headers: json(alice),
    });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ status: 502, code: "UPSTREAM_UNAVAILABLE" });
    const posts = (await requestLog()).filter((entry) => entry.method === "POST");
    expect(posts.length).toBeLessThanOrEqual(1);
  });

  it("answers 502 when the emulator is down", async () => {
    const gone = await startEmulatorServer({ port: 0 });
    await gone.close();
    const orphan = await startRelay({ baseUrl: gone.url });
    const response = await fetch(`${orphan}/customers/internal-accounts`, { headers: as(alice) });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ status: 502, code: "UPSTREAM_UNAVAILABLE" });
  });
});
