// Error paths and fault injection over the real chain, and the protocol's minimum round trips.
import {
  addPasskey,
  exportWallet,
  type FetchFunction,
  generateSigningKey,
  listCredentials,
  refreshSession,
  revokeSession,
  SignetError,
  signOut,
  stampPayload,
} from "@signet/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ProxiedRequest, type ProxyFault, startFaultProxy } from "./support/faultProxy.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type LoggedRequest, type Stack, startStack, USER_HEADER } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());
beforeEach(() => stack.clearRequests());

/** A fetch that runs `before` ahead of each signed leg (a request carrying Request-Id). */
function onSignedLeg(before: () => Promise<void>): FetchFunction {
  return async (input, init) => {
    const headers = new Headers(init.headers);
    if (headers.has("Request-Id") && headers.has("Grid-Wallet-Signature")) await before();
    return fetch(input, init);
  };
}

const summary = (log: LoggedRequest[]) =>
  log.map(
    (r) =>
      `${r.method} ${r.path.replace(/[A-Za-z]+:[0-9a-f-]{36}/g, ":id")} ${r.fault ?? r.status}`,
  );

describe("round trips: exactly the protocol's minimum", () => {
  it("OTP sign-in is challenge + verify + signed verify; a held session signs again with no new sign-in", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await stack.clearRequests();
    await signInWithEmail(client, emailCredentialId);
    const lookups = (log: LoggedRequest[]) =>
      log.filter(
        (r) => !r.path.includes("/verify") && !r.path.includes("/challenge") && r.method === "GET",
      );
    const signIn = await stack.requests();
    // The relay's ownership lookups are GETs of its own; the device's requests are the rest.
    expect(summary(signIn.filter((r) => !lookups(signIn).includes(r)))).toEqual([
      "POST /auth/credentials/:id/challenge 200",
      "POST /auth/credentials/:id/verify 202",
      "POST /auth/credentials/:id/verify 200",
    ]);
    await stack.clearRequests();
    await exportWallet(client, { accountId });
    await refreshSession(client, { accountId });
    const later = await stack.requests();
    expect(summary(later.filter((r) => r.method !== "GET"))).toEqual([
      "POST /internal-accounts/:id/export 202",
      "POST /internal-accounts/:id/export 200",
      "POST /auth/sessions/:id/refresh 202",
      "POST /auth/sessions/:id/refresh 201",
    ]);
  });
});

describe("error paths", () => {
  it("starts over with a fresh challenge when one lapses before the signed leg, as often as the policy allows", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client: signer } = stack.client(customerId);
    await signInWithEmail(signer, emailCredentialId);
    const keyStore = await signer.keyStore();
    let lapses = 0;
    let limit = 1;
    const { client, events } = stack.client(customerId, {
      keyStore,
      fetch: onSignedLeg(async () => {
        if (lapses >= limit) return;
        lapses++;
        // 6 minutes pass on the service between the 202 and the signed leg (sessions last 15).
        await fetch(`${stack.emulator.url}/_emulator/clock`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ advanceMs: 6 * 60_000 }),
        });
      }),
      clock: { now: () => Date.now() },
    });
    // One lapse: the refresh starts over with a fresh challenge and completes.
    const refreshed = await refreshSession(client, { accountId });
    expect(refreshed.accountId).toBe(accountId);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "retry", reason: "restart", operation: "refreshSession" }),
    );
    // Two lapses in a row: two fresh starts, within the default policy's three retries (each
    // lapse costs 6 of the session's 15 minutes, so the policy's end is shown with a smaller one).
    lapses = 0;
    limit = 2;
    await refreshSession(client, { accountId });
    // With one retry allowed, the second lapse spends the policy: CHALLENGE_EXPIRED.
    lapses = 0;
    const error = await refreshSession(client, { accountId, retry: { retryCount: 1 } }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(SignetError);
    expect(error.code).toBe("CHALLENGE_EXPIRED");
  });

  it("refuses a reused request id, a body mismatch and a revoked session's stamp with their own codes", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    const session = await signInWithEmail(client, emailCredentialId);
    const held = (await client.sessions.list(accountId))[0]!;
    const relay = async (
      method: string,
      path: string,
      body: string | undefined,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${stack.relayUrl}${path}`, {
        method,
        headers: { [USER_HEADER]: customerId, "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body }),
      });
      return {
        status: response.status,
        body: (await response.json().catch(() => undefined)) as Record<string, unknown>,
      };
    };
    const path = `/internal-accounts/${accountId}/export`;
    const body = JSON.stringify({
      clientPublicKey: (await generateSigningKey()).publicKeyUncompressed,
    });
    const leg1 = await relay("POST", path, body);
    expect(leg1.status).toBe(202);
    const stamp = await stampPayload(leg1.body.payloadToSign as string, held.key);
    const signed = { "Grid-Wallet-Signature": stamp, "Request-Id": leg1.body.requestId as string };
    const mismatch = await relay("POST", path, body.replace("}", " }"), signed);
    expect(mismatch.body.code).toBe("WALLET_SIGNATURE_BODY_MISMATCH");
    const ok = await relay("POST", path, body, signed);
    expect(ok.status).toBe(200);
    const reused = await relay("POST", path, body, signed);
    expect(reused.status).toBe(401);
    expect((reused.body.details as { reason?: string }).reason).toBe("REQUEST_ID_ALREADY_USED");
    const missing = await relay("POST", path, body, { "Grid-Wallet-Signature": stamp });
    expect(missing.body.code).toBe("REQUEST_ID_MISSING");

    await revokeSession(client, { accountId, sessionId: session.id });
    const again = await relay("POST", path, body);
    const revoked = await relay("POST", path, body, {
      "Grid-Wallet-Signature": await stampPayload(again.body.payloadToSign as string, held.key),
      "Request-Id": again.body.requestId as string,
    });
    expect(revoked.body.code).toBe("WALLET_SIGNATURE_INVALID");
    expect(JSON.stringify(revoked.body)).not.toContain(stamp);
  });

  it("follows the service's clock when the device clock is minutes off", async () => {
    for (const offsetMs of [10 * 60_000, -10 * 60_000]) {
      const { customerId, accountId, emailCredentialId } = await stack.signUp();
      const { client } = stack.client(customerId, { clock: { now: () => Date.now() + offsetMs } });
      await signInWithEmail(client, emailCredentialId);
      expect(await exportWallet(client, { accountId })).toMatch(/^[a-z]+( [a-z]+){11}$/);
      // The service's clock is the emulator's (earlier tests here moved it forward).
      const service = (await (await fetch(`${stack.emulator.url}/_emulator/clock`)).json()) as {
        now: string;
      };
      expect(Math.abs(client.clock.now() - Date.parse(service.now))).toBeLessThan(30_000);
    }
  });

  it("never stamps with an expired session", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    let offset = 0;
    const { client } = stack.client(customerId, { clock: { now: () => Date.now() + offset } });
    await signInWithEmail(client, emailCredentialId);
    offset = 60 * 60_000; // past the 15-minute session, whatever the emulator's clock offset
    const error = await exportWallet(client, { accountId }).catch((e) => e);
    // Held, and expired: sign in again (nothing was stamped, and the key is gone).
    expect(error.code).toBe("SESSION_EXPIRED");
    expect(await (await client.keyStore()).list()).toEqual([]);
  });
});

describe("fault injection", () => {
  it("re-sends the identical signed request through PROCESSING n times", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client, events } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    await stack.fault({
      match: { method: "POST", path: `/internal-accounts/${accountId}/export` },
      count: 3,
      kind: "processing",
    });
    await stack.clearRequests();
    await exportWallet(client, { accountId });
    const log = (await stack.requests()).filter((r) => r.path.endsWith("/export"));
    expect(log.map((r) => r.fault ?? r.status)).toEqual([
      202,
      "processing",
      "processing",
      "processing",
      200,
    ]);
    const processing = events.filter(
      (e) =>
        e.type === "signedRequest" && e.operation === "exportWallet" && e.stage === "processing",
    );
    expect(processing).toHaveLength(3);
  });

  it("re-sends an OTP or passkey challenge that answers PROCESSING (a 200 endpoint checks the body)", async () => {
    const { customerId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await stack.fault({
      match: { path: `/auth/credentials/${emailCredentialId}/challenge` },
      count: 2,
      kind: "processing",
    });
    await stack.clearRequests();
    await signInWithEmail(client, emailCredentialId);
    const log = (await stack.requests()).filter((r) => r.path.endsWith("/challenge"));
    expect(log.map((r) => r.fault ?? r.status)).toEqual(["processing", "processing", 200]);
  });

  it("starts a new export, under a fresh key, when the first one's answer is lost", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const path = `/internal-accounts/${accountId}/export`;
    const bodies: string[] = [];
    const { client: recording } = stack.client(customerId, {
      keyStore: await client.keyStore(),
      fetch: async (input, init) => {
        if (String(input).endsWith("/export")) bodies.push(String(init.body));
        return fetch(input, init);
      },
    });
    await stack.fault({ match: { method: "POST", path }, count: 1, kind: "drop_after" });
    await stack.clearRequests();
    expect(await exportWallet(recording, { accountId })).toMatch(/^[a-z]+( [a-z]+){11}$/);
    const log = (await stack.requests()).filter((r) => r.path.endsWith("/export"));
    expect(log.map((r) => r.fault ?? r.status)).toEqual([202, "drop_after", 401, 202, 200]);
    expect(new Set(bodies).size).toBe(2); // the second export has its own key
  });

  it("add passkey whose answer was lost: the re-send meets the duplicate, and the passkey this call made is the result", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    await stack.fault({
      match: { method: "POST", path: "/auth/credentials" },
      count: 1,
      kind: "drop_after",
    });
    await stack.clearRequests();
    const added = await addPasskey(client, {
      accountId,
      nickname: "Lost answer",
      challenge: registrationChallenge(),
      rp: { id: "localhost", name: "Signet test" },
      user: passkeyUser("dora"),
    });
    expect(added).toMatchObject({ type: "PASSKEY", accountId, nickname: "Lost answer" });
    const log = (await stack.requests()).filter(
      (r) => r.method === "POST" && r.path === "/auth/credentials",
    );
    // The first signed send took effect; its identical re-send met the duplicate.
    expect(log.map((r) => r.fault ?? r.status)).toEqual([202, "drop_after", 400]);
    const passkeys = (await listCredentials(client, { accountId })).filter(
      (c) => c.type === "PASSKEY",
    );
    expect(passkeys.map((c) => c.id)).toEqual([added.id]);
  });

  it("survives a 5xx, a dropped connection and a 429 with Retry-After on the way", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const path = `/auth/sessions`;
    await stack.fault({
      match: { method: "POST", path },
      count: 1,
      kind: "error",
      status: 503,
      code: "INTERNAL_ERROR",
    });
    await stack.fault({ match: { method: "POST", path }, count: 1, kind: "drop" });
    await stack.fault({
      match: { method: "POST", path },
      count: 1,
      kind: "rate_limit",
      retryAfter: 1,
    });
    await stack.clearRequests();
    const started = Date.now();
    const refreshed = await refreshSession(client, { accountId });
    expect(refreshed.id).toMatch(/^Session:/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // Retry-After: 1 honoured
    const log = (await stack.requests()).filter((r) => r.path.includes("/refresh"));
    expect(log.map((r) => r.fault ?? r.status)).toEqual(["error", "drop", "rate_limit", 202, 201]);
  });

  it("gives up with a typed error when the service keeps failing", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    await stack.fault({
      match: { method: "POST", path: "/auth/sessions" },
      count: 10,
      kind: "error",
      status: 500,
    });
    const error = await refreshSession(client, { accountId }).catch((e) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
  });
});

// The three ways recovery failed in issue #32's soak, each on the real chain with a fault proxy
// between the relay and the emulator (an answer held or lost after the service acted).
describe("lost answers, recovered (issue #32)", () => {
  type Rule = { when: (request: ProxiedRequest) => boolean; fault: ProxyFault };
  let rules: Rule[] = [];
  let lossy: Stack;
  /** Arms faults for the next matching requests, each used once, in order. */
  const arm = (...next: Rule[]) => {
    rules = next;
  };
  /** The first send of each signed leg whose path matches (re-sends under its id pass). */
  const seen = new Set<string>();
  const isSigned = (path: RegExp) => (request: ProxiedRequest) =>
    request.signed &&
    request.method === "POST" &&
    path.test(request.url) &&
    !seen.has(request.requestId ?? "");
  beforeAll(async () => {
    lossy = await startStack({
      relayTags: [USER_HEADER],
      // As in the issue: the relay's ownership facts last exactly the client's time limit, so the
      // re-send of a refresh whose answer came late finds the old session gone (403).
      relayOptions: { ownershipCacheTtlMs: 400 },
      serviceHop: (forward, emulatorUrl) =>
        startFaultProxy({
          target: emulatorUrl,
          forward,
          flowHeader: USER_HEADER,
          tagHeaders: [USER_HEADER],
          decide: (request) => {
            const rule = rules.find((candidate) => candidate.when(request));
            if (request.requestId !== undefined) seen.add(request.requestId);
            if (rule === undefined) return undefined;
            rules = rules.filter((candidate) => candidate !== rule);
            return rule.fault;
          },
        }),
    });
  });
  afterAll(() => lossy?.close());

  /** The sessions the service lists for the account (what could still sign). */
  const live = async (accountId: string) =>
    (
      await lossy.platform<{ data: { id: string }[] }>(
        "GET",
        `/auth/sessions?accountId=${accountId}`,
      )
    ).body.data.map((session) => session.id);

  /** A user signed in on a client whose requests give up after 400 ms (the timeout, scaled). */
  async function signedIn() {
    const user = await lossy.signUp();
    const { client, events } = lossy.client(user.customerId, {
      requestTimeoutMs: 400,
      retry: { backoff: { baseMs: 50, maxMs: 200 } },
    });
    await signInWithEmail(client, user.emailCredentialId);
    return { ...user, client, events };
  }

  it("a refresh whose answer arrives after the client's timeout: the session it made is adopted; no sign-out, no orphan", async () => {
    const { accountId, client } = await signedIn();
    const [old] = await live(accountId);
    arm({
      when: isSigned(/\/auth\/sessions\/Session:[^/]+\/refresh$/),
      fault: { kind: "delay-response", ms: 900 },
    });
    const refreshed = await refreshSession(client, { accountId });
    expect(refreshed.id).not.toBe(old);
    // The device holds the new session alone, and the service lists exactly that one.
    expect(client.sessions.getSnapshot()[accountId]?.map((s) => s.id)).toEqual([refreshed.id]);
    expect(await live(accountId)).toEqual([refreshed.id]);
    await signOut(client, { accountId });
    expect(await live(accountId)).toEqual([]);
    expect(await (await client.keyStore()).list()).toEqual([]);
  });

  it("a recovery whose own answer is lost recovers too: refresh and sign-in, no orphan", async () => {
    const { accountId, client } = await signedIn();
    const refresh = isSigned(/\/auth\/sessions\/Session:[^/]+\/refresh$/);
    // The refresh's answer is lost, then the answer of the proof that adopts its session.
    arm(
      { when: refresh, fault: { kind: "drop-response" } },
      { when: refresh, fault: { kind: "drop-response" } },
    );
    const refreshed = await refreshSession(client, { accountId });
    expect(await live(accountId)).toEqual([refreshed.id]);

    const user = await lossy.signUp();
    const { client: fresh } = lossy.client(user.customerId, {
      requestTimeoutMs: 400,
      retry: { backoff: { baseMs: 50, maxMs: 200 } },
    });
    arm(
      { when: isSigned(/\/verify$/), fault: { kind: "drop-response" } },
      { when: refresh, fault: { kind: "drop-response" } },
    );
    const session = await signInWithEmail(fresh, user.emailCredentialId);
    expect(await live(user.accountId)).toEqual([session.id]);
    await signOut(fresh, { accountId: user.accountId });
    expect(await live(user.accountId)).toEqual([]);
  });

  it("an export whose answer is lost twice starts afresh and completes", async () => {
    const { accountId, client, events } = await signedIn();
    const exportLeg = isSigned(/\/export$/);
    arm(
      { when: exportLeg, fault: { kind: "drop-response" } },
      { when: exportLeg, fault: { kind: "drop-response" } },
    );
    expect(await exportWallet(client, { accountId })).toMatch(/^[a-z]+( [a-z]+){11}$/);
    const restarts = events.filter(
      (event) =>
        event.type === "retry" && event.reason === "restart" && event.operation === "exportWallet",
    );
    expect(restarts.length).toBeGreaterThanOrEqual(2);
  });

  it("a session the device may have made and could not prove is revoked by the next sign-out", async () => {
    const user = await lossy.signUp();
    // The device cannot read the session list while `listing` is off (its own connection fails).
    let listing = true;
    const { client } = lossy.client(user.customerId, {
      requestTimeoutMs: 400,
      retry: { backoff: { baseMs: 10, maxMs: 40 } },
      fetch: async (input, init) => {
        if (!listing && init.method === "GET" && String(input).includes("/auth/sessions?"))
          throw new TypeError("fetch failed");
        return fetch(input, init);
      },
    });
    const { accountId } = user;
    await signInWithEmail(client, user.emailCredentialId);
    arm({
      when: isSigned(/\/auth\/sessions\/Session:[^/]+\/refresh$/),
      fault: { kind: "drop-response" },
    });
    listing = false;
    const error = await refreshSession(client, { accountId }).catch((e: unknown) => e);
    listing = true;
    // The refresh's answer was lost and every look-up that would settle it failed past the
    // policy: the outcome is unknown, and says so (never UNAUTHORIZED or SESSION_EXPIRED).
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("OUTCOME_UNKNOWN");
    expect((error as SignetError).details).toMatchObject({
      operation: "refreshSession",
      step: "recovery",
      code: "UNAUTHORIZED",
      recoveryCode: "NETWORK",
    });
    // The service holds the session the refresh made; only the device's note has its key.
    expect(await live(accountId)).toHaveLength(1);
    await signOut(client, { accountId });
    expect(await live(accountId)).toEqual([]);
    expect(await (await client.keyStore()).list()).toEqual([]);
  });
});
