// A sign-in kept across a reload (docs/protocol.md §2.5): an OTP verify answered PROCESSING is
// kept with its one-time key noted in the key store (never the key itself in the kept copy), a
// resume re-sends it and adopts the answered session only under that key, and a failed or lapsed
// one leaves no key behind.
import { describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../../../test/src/errorDetails.js";
import { CREDENTIAL_VERIFY } from "../actions/verifyOtp.js";
import { at } from "../catalog/actionRow.js";
import type { SigningKey } from "../crypto/backend.js";
import { SignetError } from "../errors/errors.js";
import { isRefusal, refusedByService } from "../errors/refusedByService.js";
import { createClient, createMemoryKeyStore } from "../index.js";
import type { SignetEvent } from "../session/events.js";
import { listPossibleSessions, notePossibleSession } from "../session/possibleSessions.js";
import { keptPasskeySeams } from "./keptPasskey.js";
import { createPendingView, type PendingEvent } from "./pendingCalls.js";
import {
  createMemoryPendingStore,
  isResumableRoute,
  type KeptCall,
  type PendingStore,
  readKeptCall,
} from "./pendingStore.js";
import { type ResumeSeams, resumeKeptCalls } from "./resume.js";
import { createPendingTracker } from "./track.js";

const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
const otherAccountId = "InternalAccount:99999999-9999-4999-8999-999999999999";
const credentialId = "AuthMethod:33333333-3333-4333-8333-333333333333";
const sessionId = "Session:22222222-2222-4222-8222-222222222222";
const NOW = Date.now();
const verifyPath = at(CREDENTIAL_VERIFY, [credentialId]).path;

let ids = 0;
const requestId = () => `Request:00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;

/** A client over a memory key store, and a fresh one-time key noted in it as a sign-in does. */
async function device(answer?: (request: Request) => Promise<Response>) {
  const keyStore = createMemoryKeyStore();
  const pendingStore = createMemoryPendingStore();
  const events: SignetEvent[] = [];
  const client = createClient({
    relayUrl: "http://127.0.0.1:9/relay",
    keyStore,
    pendingStore,
    resumePending: false,
    fetch: async (input, init) => {
      if (answer === undefined) throw new TypeError("nothing is sent");
      return answer(new Request(input, init));
    },
    onEvent: (event) => events.push(event),
  });
  const tek = await client.crypto.generateSigningKey();
  await notePossibleSession(client, { accountId, credentialId, sinceMs: NOW - 2_000, key: tek });
  return { client, keyStore, pendingStore, events, tek };
}

/** The verify kept after its first PROCESSING answer, stamped by `key`, for `tek`. */
async function keptVerify(
  client: Awaited<ReturnType<typeof device>>["client"],
  tek: SigningKey,
  signer: SigningKey = tek,
  overrides: Partial<KeptCall> = {},
): Promise<KeptCall> {
  return {
    v: 1,
    action: "verifyOtp",
    accountId,
    method: "POST",
    path: verifyPath,
    body: JSON.stringify({ type: "EMAIL_OTP", encryptedOtpBundle: "sealed" }),
    expectedStatus: 200,
    requestId: requestId(),
    signature: await client.crypto.stampPayload("the verification token", signer),
    expiresAtMs: NOW + 60_000,
    since: NOW - 1_000,
    attempt: 1,
    finish: { kind: "adoptSession", accountId, credentialId, publicKey: tek.publicKey },
    ...overrides,
  };
}

const answered = (overrides: Record<string, unknown> = {}) => ({
  id: sessionId,
  accountId,
  type: "EMAIL_OTP",
  nickname: "",
  createdAt: new Date(NOW).toISOString(),
  updatedAt: new Date(NOW).toISOString(),
  expiresAt: new Date(NOW + 15 * 60_000).toISOString(),
  ...overrides,
});

/** Resume seams over the device's own parts; `answer` is what the re-sent verify ends with. */
function seamsOf(
  setup: Awaited<ReturnType<typeof device>>,
  store: PendingStore,
  answer: () => Promise<{ status: number; body: unknown }>,
) {
  const { client, keyStore } = setup;
  const sent: { path: string; signature: string | undefined }[] = [];
  const told: PendingEvent[] = [];
  const view = createPendingView();
  const tracker = createPendingTracker(view, {
    store: async () => store,
    lock: (_key, task) => task(),
    now: () => NOW,
    emit: (event) => told.push(event),
  });
  const seams: ResumeSeams = {
    store,
    lock: (_key, task) => task(),
    now: () => NOW,
    has: view.has,
    told: tracker.told,
    signed: async (parameters) => {
      sent.push({ path: parameters.path, signature: parameters.resumeFrom.signature });
      return answer();
    },
    read: async () => ({ data: [] }),
    held: async () => [],
    forget: async () => undefined,
    keys: {
      keyStore: async () => keyStore,
      restore: (record) => client.crypto.restoreSigningKey(record),
      hold: (session, key) => client.holdSession(session, key),
      emit: (event, onEvent) => client.emit(event, onEvent),
      now: () => NOW,
      deviceNow: () => NOW,
    },
    passkey: async () => keptPasskeySeams(client),
  };
  return { seams, sent, told };
}

describe("a kept sign-in's record", () => {
  it("the verify route is resumable for the two sign-ins only", () => {
    expect(isResumableRoute("verifyOtp", "POST", verifyPath)).toBe(true);
    expect(isResumableRoute("signInWithPasskey", "POST", verifyPath)).toBe(true);
    expect(isResumableRoute("signInWithPasskey", "DELETE", verifyPath)).toBe(false);
    expect(isResumableRoute("signOut", "POST", verifyPath)).toBe(false);
  });

  it("reads back as written, naming the key by its public key only", async () => {
    const { client, tek } = await device();
    const kept = await keptVerify(client, tek);
    expect(readKeptCall(kept)).toBe(kept);
    expect(JSON.stringify(kept)).not.toMatch(/privateKey|"d"|scalar/);
  });

  it.each([
    ["no finish (a sign-in must name its key)", { finish: undefined }],
    [
      "a revoke's finish",
      { finish: { kind: "forgetSessions", accountId, sessionId } as KeptCall["finish"] },
    ],
    [
      "a finish for another credential than the path's",
      {
        finish: {
          kind: "adoptSession",
          accountId,
          credentialId: "AuthMethod:44444444-4444-4444-8444-444444444444",
          publicKey: `02${"ab".repeat(32)}`,
        } as KeptCall["finish"],
      },
    ],
    [
      "a finish for another account",
      {
        finish: {
          kind: "adoptSession",
          accountId: otherAccountId,
          credentialId,
          publicKey: `02${"ab".repeat(32)}`,
        } as KeptCall["finish"],
      },
    ],
    [
      "a key that is not a compressed public key",
      {
        finish: {
          kind: "adoptSession",
          accountId,
          credentialId,
          publicKey: "not-a-key",
        } as KeptCall["finish"],
      },
    ],
    ["the verify path under another action", { action: "signOut" }],
    ["a verify path walking out", { path: `${verifyPath}/../../../customers/x` }],
  ])("refuses %s", async (_what, change) => {
    const { client, tek } = await device();
    expect(readKeptCall({ ...(await keptVerify(client, tek)), ...change })).toBeUndefined();
  });

  it("a revoke may not carry a sign-in's finish", async () => {
    const { tek } = await device();
    const revoke = {
      v: 1,
      action: "signOut",
      accountId,
      method: "DELETE",
      path: `/auth/sessions/${sessionId}`,
      expectedStatus: 204,
      requestId: requestId(),
      signature: "stamp-value",
      expiresAtMs: NOW + 60_000,
      since: NOW,
      attempt: 1,
      finish: { kind: "adoptSession", accountId, credentialId, publicKey: tek.publicKey },
    };
    expect(readKeptCall(revoke)).toBeUndefined();
  });
});

describe("the tracker keeps a sign-in", () => {
  it("notes the key (keep) once, before the copy is first written", async () => {
    const order: string[] = [];
    const inner = createMemoryPendingStore();
    const store: PendingStore = {
      ...inner,
      persistence: "memory",
      set: async (call) => {
        order.push(`set ${call.attempt}`);
        await inner.set(call);
      },
    };
    const view = createPendingView();
    const tracker = createPendingTracker(view, {
      store: async () => store,
      lock: (_key, task) => task(),
      now: () => NOW,
      emit: () => undefined,
    });
    const { tek } = await device();
    const call = tracker.track("verifyOtp", {
      resumable: true,
      accountId,
      finish: { kind: "adoptSession", accountId, credentialId, publicKey: tek.publicKey },
      keep: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push("keep");
      },
    });
    const leg = (attempt: number) => ({
      method: "POST",
      path: verifyPath,
      body: "{}",
      expectedStatus: 200,
      requestId: "Request:00000000-0000-4000-8000-0000000000aa",
      signature: "stamp-value",
      expiresAtMs: NOW + 60_000,
      attempt,
    });
    call.onStillProcessing(leg(1));
    call.onStillProcessing(leg(2));
    await expect.poll(() => order.length).toBe(3);
    expect(order[0]).toBe("keep");
    expect(order.slice(1).sort()).toEqual(["set 1", "set 2"]);
    expect((await inner.list()).map((k) => k.finish)).toEqual([
      { kind: "adoptSession", accountId, credentialId, publicKey: tek.publicKey },
    ]);
  });
});

describe("a resumed sign-in", () => {
  it("re-sends the kept stamp and adopts the answered session under the noted key", async () => {
    const setup = await device();
    const { client, tek, events } = setup;
    const kept = await keptVerify(client, tek);
    const store = createMemoryPendingStore();
    await store.set(kept);
    const { seams, sent, told } = seamsOf(setup, store, async () => ({
      status: 200,
      body: answered(),
    }));
    const ended = await resumeKeptCalls(seams);
    expect(ended).toMatchObject([{ action: "verifyOtp", outcome: "settled", status: 200 }]);
    expect(sent).toEqual([{ path: verifyPath, signature: kept.signature }]);
    const [held] = await client.sessions.list(accountId);
    expect(held).toMatchObject({ id: sessionId, credentialId, publicKey: tek.publicKey });
    // The code was proven when the call was first sent, not when the reload finished it.
    expect(held?.verifiedAtService).toBe(new Date(kept.since).toISOString());
    expect(events).toContainEqual(
      expect.objectContaining({ type: "session", action: "created", sessionId }),
    );
    expect(told.map((e) => e.state)).toEqual(["settled"]);
    expect(await listPossibleSessions(client, accountId)).toEqual([]);
    expect(await store.list()).toEqual([]);
  });

  it.each([
    [
      "an answer that carries a sealed session key (another key)",
      answered({ encryptedSessionSigningKey: "sealed" }),
    ],
    ["an answer for another account", answered({ accountId: otherAccountId })],
  ])(
    "refuses %s: SESSION_KEY_MISMATCH, nothing held, the key left for a sign-out",
    async (_w, body) => {
      const setup = await device();
      const { client, tek } = setup;
      const store = createMemoryPendingStore();
      await store.set(await keptVerify(client, tek));
      const { seams, told } = seamsOf(setup, store, async () => ({ status: 200, body }));
      const [ended] = await resumeKeptCalls(seams);
      expect(ended).toMatchObject({ outcome: "failed", error: { code: "SESSION_KEY_MISMATCH" } });
      expectDocumentedDetails((ended as { error: SignetError }).error);
      expect(told).toMatchObject([{ state: "failed", code: "SESSION_KEY_MISMATCH" }]);
      expect(await client.sessions.list(accountId)).toEqual([]);
      expect((await listPossibleSessions(client, accountId)).map((p) => p.key.publicKey)).toEqual([
        tek.publicKey,
      ]);
      expect(await store.list()).toEqual([]);
    },
  );

  it("refuses a kept stamp made by another key than the noted one", async () => {
    const setup = await device();
    const { client, tek } = setup;
    const other = await client.crypto.generateSigningKey();
    const store = createMemoryPendingStore();
    await store.set(await keptVerify(client, tek, other));
    const { seams } = seamsOf(setup, store, async () => ({ status: 200, body: answered() }));
    const [ended] = await resumeKeptCalls(seams);
    expect(ended).toMatchObject({ outcome: "failed", error: { code: "SESSION_KEY_MISMATCH" } });
    expect(await client.sessions.list(accountId)).toEqual([]);
  });

  it("refuses with KEY_NOT_FOUND when the key store no longer holds the noted key", async () => {
    const setup = await device();
    const { client, keyStore } = setup;
    const unnoted = await client.crypto.generateSigningKey();
    const store = createMemoryPendingStore();
    await store.set(await keptVerify(client, unnoted));
    const before = await keyStore.list();
    const { seams } = seamsOf(setup, store, async () => ({ status: 200, body: answered() }));
    const [ended] = await resumeKeptCalls(seams);
    expect(ended).toMatchObject({ outcome: "failed", error: { code: "KEY_NOT_FOUND" } });
    expectDocumentedDetails((ended as { error: SignetError }).error);
    expect(await client.sessions.list(accountId)).toEqual([]);
    expect(await keyStore.list()).toEqual(before);
  });

  it.each([
    ["a wrong code", new SignetError("UNAUTHORIZED", "the code is wrong", { status: 401 })],
    ["a bad request", new SignetError("INVALID_ARGUMENT", "bad", { status: 400 })],
    ["an unknown credential", new SignetError("NOT_FOUND", "gone", { status: 404 })],
  ])("refused by the service (%s) is dropped, and its one-time key deleted", async (_w, error) => {
    const setup = await device();
    const { client, tek } = setup;
    const store = createMemoryPendingStore();
    await store.set(await keptVerify(client, tek));
    const { seams, told } = seamsOf(setup, store, async () => {
      throw error;
    });
    const [ended] = await resumeKeptCalls(seams);
    expect(ended).toMatchObject({ outcome: "failed", error: { code: error.code } });
    expect(ended).not.toHaveProperty("kept");
    expect(told).toMatchObject([{ state: "failed", code: error.code, status: error.status }]);
    expect(await listPossibleSessions(client, accountId)).toEqual([]);
    expect(await store.list()).toEqual([]);
  });

  it.each([
    ["no connection", new SignetError("NETWORK", "offline")],
    ["a timeout", new SignetError("TIMEOUT", "slow")],
    ["the run's deadline", new SignetError("PROCESSING_TIMEOUT", "late", { retryable: true })],
    ["a 502", new SignetError("UPSTREAM_ERROR", "bad gateway", { status: 502 })],
    ["a 503", new SignetError("UPSTREAM_ERROR", "unavailable", { status: 503 })],
    ["a 408", new SignetError("TIMEOUT", "request timeout", { status: 408 })],
    ["a 429", new SignetError("RATE_LIMITED", "slow down", { status: 429 })],
  ])(
    "whose re-send got no answer (%s) stays kept for the next resume, its key still noted",
    async (_w, error) => {
      const setup = await device();
      const { client, tek } = setup;
      const store = createMemoryPendingStore();
      const kept = await keptVerify(client, tek);
      await store.set(kept);
      const { seams, told } = seamsOf(setup, store, async () => {
        throw error;
      });
      const [ended] = await resumeKeptCalls(seams);
      expect(ended).toMatchObject({ outcome: "failed", kept: true, error: { code: error.code } });
      expect(told).toMatchObject([{ state: "failed", code: error.code }]);
      expect((await store.list()).map((k) => k.requestId)).toEqual([kept.requestId]);
      expect((await listPossibleSessions(client, accountId)).map((p) => p.key.publicKey)).toEqual([
        tek.publicKey,
      ]);
      expect(await client.sessions.list(accountId)).toEqual([]);
    },
  );

  it("kept after a lost answer, is settled by the next resume under the same key", async () => {
    const setup = await device();
    const { client, tek } = setup;
    const store = createMemoryPendingStore();
    const kept = await keptVerify(client, tek);
    await store.set(kept);
    let answers = 0;
    const { seams, sent } = seamsOf(setup, store, async () => {
      answers += 1;
      if (answers === 1) throw new SignetError("NETWORK", "cut");
      return { status: 200, body: answered() };
    });
    expect(await resumeKeptCalls(seams)).toMatchObject([{ outcome: "failed", kept: true }]);
    expect(await resumeKeptCalls(seams)).toMatchObject([{ outcome: "settled", status: 200 }]);
    expect(sent.map((s) => s.signature)).toEqual([kept.signature, kept.signature]);
    expect(await client.sessions.list(accountId)).toMatchObject([
      { id: sessionId, publicKey: tek.publicKey },
    ]);
    expect(await listPossibleSessions(client, accountId)).toEqual([]);
    expect(await store.list()).toEqual([]);
  });

  it.each([
    [
      "a spent request id (OUTCOME_UNKNOWN: the page before's send landed)",
      new SignetError("OUTCOME_UNKNOWN", "lost", {
        details: { operation: "verifyOtp", step: "leg 2", code: "UNAUTHORIZED", status: 401 },
      }),
    ],
    ["a lapse while re-sending", new SignetError("CHALLENGE_EXPIRED", "lapsed", { status: 401 })],
  ])("ended by %s is dropped, its key left noted for a sign-out", async (_w, error) => {
    const setup = await device();
    const { client, tek } = setup;
    const store = createMemoryPendingStore();
    await store.set(await keptVerify(client, tek));
    const { seams } = seamsOf(setup, store, async () => {
      throw error;
    });
    const [ended] = await resumeKeptCalls(seams);
    expect(ended).toMatchObject({ outcome: "failed", error: { code: error.code } });
    expect(ended).not.toHaveProperty("kept");
    expect(await store.list()).toEqual([]);
    expect((await listPossibleSessions(client, accountId)).map((p) => p.key.publicKey)).toEqual([
      tek.publicKey,
    ]);
  });

  it("whose challenge lapsed is dropped unsent, its key left noted for a sign-out", async () => {
    const setup = await device();
    const { client, tek } = setup;
    const store = createMemoryPendingStore();
    await store.set(await keptVerify(client, tek, tek, { expiresAtMs: NOW }));
    const { seams, sent } = seamsOf(setup, store, async () => ({ status: 200, body: answered() }));
    expect(await resumeKeptCalls(seams)).toMatchObject([
      { outcome: "dropped", code: "CHALLENGE_EXPIRED" },
    ]);
    expect(sent).toEqual([]);
    expect(await store.list()).toEqual([]);
    // PROCESSING said the service took the verify: its session may exist, and only a sign-out
    // (which proves and ends it) settles the key.
    expect((await listPossibleSessions(client, accountId)).map((p) => p.key.publicKey)).toEqual([
      tek.publicKey,
    ]);
  });
});

describe("the tracker ends a resumed sign-in", () => {
  it.each([
    ["a re-send that got no answer keeps the copy", { code: "NETWORK" }, true],
    ["a refusal deletes it", { status: 401, code: "UNAUTHORIZED" }, false],
  ])("%s", async (_what, end, stays) => {
    const { client, tek } = await device();
    const store = createMemoryPendingStore();
    const kept = await keptVerify(client, tek);
    await store.set(kept);
    const tracker = createPendingTracker(createPendingView(), {
      store: async () => store,
      lock: (_key, task) => task(),
      now: () => NOW,
      emit: () => undefined,
    });
    const keepAfter = (e: { status?: number | undefined; code?: string | undefined }) =>
      e.code === "NETWORK";
    tracker.track("verifyOtp", { resumed: kept, keepAfter }).onEnd({
      stage: "failed",
      mode: "challenge",
      operation: "verifyOtp",
      requestId: kept.requestId,
      ...end,
    });
    await expect.poll(async () => (await store.list()).length).toBe(stays ? 1 : 0);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await store.list()).length).toBe(stays ? 1 : 0);
  });
});

describe("refusedByService", () => {
  it.each([
    [400, "INVALID_ARGUMENT", true],
    [401, "UNAUTHORIZED", true],
    [404, "NOT_FOUND", true],
    [409, "CONFLICT", true],
    [401, "CHALLENGE_EXPIRED", false],
    [408, "TIMEOUT", false],
    [429, "RATE_LIMITED", false],
    [500, "INTERNAL", false],
    [502, "UPSTREAM_ERROR", false],
    [undefined, "NETWORK", false],
    [undefined, "OUTCOME_UNKNOWN", false],
  ] as const)("%s %s: %s", (status, code, refused) => {
    expect(isRefusal({ status, code })).toBe(refused);
    const error = new SignetError(code as "NETWORK", "x", status === undefined ? {} : { status });
    expect(refusedByService(error)).toBe(refused);
  });

  it("is false for what is not a SignetError", () => {
    expect(refusedByService(Object.assign(new Error("x"), { status: 401 }))).toBe(false);
    expect(refusedByService(undefined)).toBe(false);
  });
});

/** A passkey sign-in's verify kept after its first PROCESSING answer: unsigned, for `key`. */
function keptPasskeyVerify(key: SigningKey, overrides: Partial<KeptCall> = {}): KeptCall {
  return {
    v: 1,
    action: "signInWithPasskey",
    accountId,
    method: "POST",
    path: verifyPath,
    body: JSON.stringify({ type: "PASSKEY", assertion: { credentialId: "cred" } }),
    expectedStatus: 200,
    requestId: requestId(),
    expiresAtMs: NOW + 60_000,
    since: NOW - 1_000,
    attempt: 1,
    finish: { kind: "adoptSession", accountId, credentialId, publicKey: key.publicKey },
    ...overrides,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const PROCESSING = { status: "PROCESSING", message: "still settling" };

describe("a kept passkey sign-in's record", () => {
  it("reads back unsigned, naming the key by its public key only", async () => {
    const { tek } = await device();
    const kept = keptPasskeyVerify(tek);
    expect(readKeptCall(kept)).toBe(kept);
    expect(JSON.stringify(kept)).not.toMatch(/privateKey|"d"|scalar|signature/);
  });

  it.each([
    ["a stamp (the passkey verify goes unsigned)", { signature: "stamp-value" }],
    ["no finish", { finish: undefined }],
    [
      "a revoke's finish",
      { finish: { kind: "forgetSessions", accountId, sessionId } as KeptCall["finish"] },
    ],
    [
      "a finish for another account",
      {
        finish: {
          kind: "adoptSession",
          accountId: otherAccountId,
          credentialId,
          publicKey: `02${"ab".repeat(32)}`,
        } as KeptCall["finish"],
      },
    ],
    ["another account's call", { accountId: otherAccountId }],
    ["another route (a credential add)", { path: "/auth/credentials" }],
    ["a session revoke's route", { method: "DELETE", path: `/auth/sessions/${sessionId}` }],
  ])("refuses %s", async (_what, change) => {
    const { tek } = await device();
    expect(readKeptCall({ ...keptPasskeyVerify(tek), ...change })).toBeUndefined();
  });

  it("an OTP verify without its stamp is refused", async () => {
    const { client, tek } = await device();
    const { signature: _s, ...unsigned } = await keptVerify(client, tek);
    expect(readKeptCall(unsigned)).toBeUndefined();
  });
});

describe("a resumed passkey sign-in", () => {
  /** A device whose relay answers the verify from `answers`, in order, and records the sends. */
  async function passkeyDevice(answers: (() => Response)[]) {
    const sends: { path: string; requestId: string | null; body: string; stamped: boolean }[] = [];
    const setup = await device(async (request) => {
      sends.push({
        path: new URL(request.url).pathname,
        requestId: request.headers.get("Request-Id"),
        body: await request.text(),
        stamped: request.headers.has("Grid-Wallet-Signature"),
      });
      const next = answers.shift();
      if (next === undefined) throw new TypeError("no answer left");
      return next();
    });
    // The client's own store: its tracker writes the resumed call's copy there.
    const store = setup.pendingStore;
    const kept = keptPasskeyVerify(setup.tek);
    await store.set(kept);
    const { seams, told } = seamsOf(setup, store, async () => {
      throw new Error("a passkey verify never goes through the signed engine");
    });
    const noted = async () =>
      (await listPossibleSessions(setup.client, accountId)).map((p) => p.key.publicKey);
    return { ...setup, store, kept, seams, told, sends, noted };
  }

  it("re-sends the identical unsigned verify with its Request-Id, told as resumed and processing", async () => {
    const cut = () => {
      throw new TypeError("connection reset");
    };
    const d = await passkeyDevice([() => json(200, PROCESSING), cut, cut, cut, cut, cut, cut]);
    const [ended] = await resumeKeptCalls(d.seams);
    expect(ended).toMatchObject({ outcome: "failed", kept: true, error: { code: "NETWORK" } });
    expect(d.sends.length).toBeGreaterThanOrEqual(2);
    for (const send of d.sends) {
      expect(send).toEqual({
        path: `/relay${verifyPath}`,
        requestId: d.kept.requestId,
        body: d.kept.body,
        stamped: false,
      });
    }
    const states = d.events.flatMap((e) => (e.type === "pending" ? [e.state] : []));
    expect(states.slice(0, 2)).toEqual(["resumed", "processing"]);
    // Kept for the next resume, its attempts counted on; the key still noted.
    await expect
      .poll(async () => (await d.store.list()).map((k) => [k.requestId, k.attempt]))
      .toEqual([[d.kept.requestId, 2]]);
    expect(await d.noted()).toEqual([d.tek.publicKey]);
  });

  it("refused by the service (the assertion is invalid) is dropped, and its key deleted", async () => {
    const d = await passkeyDevice([
      () =>
        json(401, {
          status: 401,
          code: "UNAUTHORIZED",
          message: "bad assertion",
          details: { reason: "PASSKEY_ASSERTION_INVALID" },
        }),
    ]);
    const [ended] = await resumeKeptCalls(d.seams);
    expect(ended).toMatchObject({ outcome: "failed", error: { code: "UNAUTHORIZED" } });
    expect(ended).not.toHaveProperty("kept");
    expect(await d.store.list()).toEqual([]);
    expect(await d.noted()).toEqual([]);
  });

  it.each(["REQUEST_ID_ALREADY_USED", "REQUEST_ID_EXPIRED"])(
    "meeting a spent request id (%s) is OUTCOME_UNKNOWN: dropped, its key left for a sign-out",
    async (reason) => {
      const d = await passkeyDevice([
        () =>
          json(401, { status: 401, code: "UNAUTHORIZED", message: "spent", details: { reason } }),
      ]);
      const [ended] = await resumeKeptCalls(d.seams);
      expect(ended).toMatchObject({
        outcome: "failed",
        error: { code: "OUTCOME_UNKNOWN", details: { code: "UNAUTHORIZED", status: 401 } },
      });
      expectDocumentedDetails((ended as { error: SignetError }).error);
      expect(await d.store.list()).toEqual([]);
      expect(await d.noted()).toEqual([d.tek.publicKey]);
      expect(await d.client.sessions.list(accountId)).toEqual([]);
    },
  );

  it.each([
    ["another account's session", answered({ accountId: otherAccountId })],
    ["a session with a sealed key", answered({ encryptedSessionSigningKey: "sealed" })],
  ])(
    "answered with %s adopts nothing (SESSION_KEY_MISMATCH), the key left noted",
    async (_w, body) => {
      const d = await passkeyDevice([() => json(200, body)]);
      const [ended] = await resumeKeptCalls(d.seams);
      expect(ended).toMatchObject({ outcome: "failed", error: { code: "SESSION_KEY_MISMATCH" } });
      expect(d.sends).toHaveLength(1);
      expect(await d.client.sessions.list(accountId)).toEqual([]);
      expect(await d.noted()).toEqual([d.tek.publicKey]);
    },
  );

  it("whose challenge lapsed is dropped unsent, its key left noted", async () => {
    const d = await passkeyDevice([]);
    await d.store.set({ ...d.kept, expiresAtMs: NOW });
    expect(await resumeKeptCalls(d.seams)).toMatchObject([
      { outcome: "dropped", code: "CHALLENGE_EXPIRED" },
    ]);
    expect(d.sends).toEqual([]);
    expect(await d.noted()).toEqual([d.tek.publicKey]);
  });
});
