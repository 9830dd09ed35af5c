// Step-up's clocks and its timing in the tap (docs/security.md "Step-up"), over the real stack
// (core → relay → emulator on 127.0.0.1). The age of a verification must be under the maximum on
// the device's clock, which never goes back below the highest time it showed (a mark kept in the
// key store beside the sessions), and on the service's clock (the device clock corrected by the
// relay's `Date`): a date set back on the device makes no stale verification young again, and an
// honest device clock that is minutes off locks nobody out. Once the held sessions are loaded
// (createClient starts that when `stepUp` is set), a named action that opens a passkey prompt
// opens it in the caller's own task. The device's and the service's time move through the
// client's `clock` and the `Date` of the relay's answers (rewritten by the client's `fetch`),
// never by sleeping.
import {
  addPasskey,
  type createClient,
  createMemoryKeyStore,
  exportWallet,
  getStepUpStatus,
  isSignetError,
  type KeyStore,
  listSessions,
  refreshSession,
  type SignetClient,
  type SignetError,
  stepUp,
  stepUpRequired,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

const MAX_AGE_MS = 60_000;
const POLICY = { actions: new Set(["exportWallet"]), maxAgeMs: MAX_AGE_MS };
const rp = { id: "localhost", name: "Signet step-up clocks test" };

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

/** The device's clock and the service's, each `ahead` ms of real time. */
type Clocks = { device: number; service: number | "device" };

/**
 * A signed-up user and a way to make clients for them on one key store (a reload keeps it): each
 * client's device clock and the relay's `Date` follow `clocks` (`service: "device"`: the relay
 * says what the device says, so the service's clock cannot tell a date set back).
 */
async function user(keyStore: KeyStore = createMemoryKeyStore()) {
  const signedUp = await stack.signUp();
  const clocks: Clocks = { device: 0, service: 0 };
  const deviceNow = () => Date.now() + clocks.device;
  const served: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const headers = new Headers(response.headers);
    const now = clocks.service === "device" ? deviceNow() : Date.now() + clocks.service;
    headers.set("date", new Date(now).toUTCString());
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
  const client = (overrides: Parameters<typeof createClient>[0] | object = {}) =>
    stack.client(signedUp.customerId, {
      keyStore,
      clock: { now: deviceNow },
      fetch: served,
      stepUp: { actions: ["exportWallet", "addPasskey"], maxAgeMs: MAX_AGE_MS },
      ...overrides,
    });
  return { ...signedUp, keyStore, clocks, client };
}

/** What `call` threw: a SignetError, or the test fails. */
async function refusal(call: Promise<unknown>): Promise<SignetError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isSignetError(error)) throw new Error(`expected a SignetError, got ${String(error)}`);
  return error;
}

/** The device times the key store's clock marks hold. */
async function marks(store: KeyStore): Promise<number[]> {
  return (await store.list())
    .filter((id) => id.startsWith("signet.clock|"))
    .map((id) => Number(id.slice("signet.clock|".length)));
}

// No signer frame here: the export resolves to the phrase itself.
const exported = async (client: SignetClient, accountId: string) =>
  ((await exportWallet(client, { accountId })) as string).split(" ").length;

describe("step-up on two clocks", () => {
  it("a device date set back to just after a lapsed verification is refused on the service's clock", async () => {
    const u = await user();
    const { client } = u.client();
    const session = await signInWithEmail(client, u.emailCredentialId);
    // The service's time moves past the maximum age; the device's date stays at the sign-in (set
    // back to it). One answer of the relay carries the service's time.
    u.clocks.service = MAX_AGE_MS + 5_000;
    await listSessions(client, { accountId: u.accountId });
    // On the device's clock alone the verification is young: the old rule let this export run.
    expect(stepUpRequired(POLICY, "exportWallet", session.verifiedAt, Date.now())).toBe(false);
    await stack.clearRequests();
    const refused = await refusal(exportWallet(client, { accountId: u.accountId }));
    expect(refused).toMatchObject({
      code: "STEP_UP_REQUIRED",
      details: { action: "exportWallet", verifiedAt: session.verifiedAt },
    });
    expect(await stack.requests()).toEqual([]);
    // A new verification is dated on both clocks, and counts.
    await stepUp(client, { accountId: u.accountId, onCode: () => "000000" });
    expect(await exported(client, u.accountId)).toBe(12);
  });

  it("the device's time never goes back below the highest it showed, across a reload, and the mark is what refuses", async () => {
    const u = await user();
    u.clocks.service = "device";
    const first = u.client().client;
    await signInWithEmail(first, u.emailCredentialId);
    u.clocks.device = MAX_AGE_MS + 5_000;
    const lapsed = Date.now() + u.clocks.device;
    expect((await refusal(exportWallet(first, { accountId: u.accountId }))).code).toBe(
      "STEP_UP_REQUIRED",
    );
    // The check saw the lapsed time: kept beside the sessions, in the background.
    await vi.waitFor(async () =>
      expect(Math.max(...(await marks(u.keyStore)))).toBeGreaterThanOrEqual(lapsed),
    );
    // The date is set back to 10 s after the sign-in: neither this client nor a reload believes it.
    u.clocks.device = 10_000;
    expect((await refusal(exportWallet(first, { accountId: u.accountId }))).code).toBe(
      "STEP_UP_REQUIRED",
    );
    const reloaded = u.client().client;
    await stack.clearRequests();
    expect((await refusal(exportWallet(reloaded, { accountId: u.accountId }))).code).toBe(
      "STEP_UP_REQUIRED",
    );
    expect(await stack.requests()).toEqual([]);
    // Without the mark (its entry deleted) the same reload exports: the mark alone refused it.
    for (const at of await marks(u.keyStore)) await u.keyStore.delete(`signet.clock|${at}`);
    expect(await exported(u.client().client, u.accountId)).toBe(12);
  });

  it("writes the mark only once the device's time has risen a minute past the last one written; a date set back by more is still refused after a reload", async () => {
    const inner = createMemoryKeyStore();
    const written: number[] = [];
    const counting: KeyStore = {
      ...inner,
      async set(id, record) {
        if (id.startsWith("signet.clock|")) written.push(Number(id.slice("signet.clock|".length)));
        return inner.set(id, record);
      },
    };
    const u = await user(counting);
    u.clocks.service = "device";
    const { client } = u.client();
    const session = await signInWithEmail(client, u.emailCredentialId);
    const status = async (on: SignetClient) =>
      (await getStepUpStatus(on, { accountId: u.accountId, action: "exportWallet" })).required;
    // The first check writes; checks and a session change within the next minute do not.
    expect(await status(client)).toBe(false);
    await vi.waitFor(() => expect(written).toHaveLength(1));
    for (const ahead of [10_000, 20_000, 30_000, 40_000]) {
      u.clocks.device = ahead;
      expect(await status(client)).toBe(false);
    }
    await refreshSession(client, { accountId: u.accountId, sessionId: session.id });
    u.clocks.device = 50_000;
    expect(await status(client)).toBe(false);
    // A minute past the last write: written again (the verification has lapsed by then).
    u.clocks.device = 70_000;
    const highest = Date.now() + u.clocks.device;
    expect(await status(client)).toBe(true);
    await vi.waitFor(() => expect(written).toHaveLength(2));
    expect(written[1]).toBeGreaterThanOrEqual(written[0]! + 60_000);
    // Within this client the mark in memory is exact: a date set back by seconds is refused.
    u.clocks.device = 50_000;
    expect(await status(client)).toBe(true);
    expect(written).toHaveLength(2);
    // A reload reads the last mark written: the date set back by more than a minute from the
    // highest shown (to 5 s after the sign-in) is refused, and the reload writes nothing new.
    u.clocks.device = 5_000;
    expect(highest - (Date.now() + u.clocks.device)).toBeGreaterThan(60_000);
    const reloaded = u.client().client;
    await stack.clearRequests();
    expect((await refusal(exportWallet(reloaded, { accountId: u.accountId }))).code).toBe(
      "STEP_UP_REQUIRED",
    );
    expect(await stack.requests()).toEqual([]);
    expect(written).toHaveLength(2);
  });

  it("a key store that refuses the mark keeps it in memory for the client's life", async () => {
    const inner = createMemoryKeyStore();
    const refusing: KeyStore = {
      ...inner,
      async set(id, record) {
        if (id.startsWith("signet.clock|")) throw new Error("key records only");
        return inner.set(id, record);
      },
    };
    const u = await user(refusing);
    u.clocks.service = "device";
    const { client } = u.client();
    await signInWithEmail(client, u.emailCredentialId);
    u.clocks.device = MAX_AGE_MS + 5_000;
    expect((await refusal(exportWallet(client, { accountId: u.accountId }))).code).toBe(
      "STEP_UP_REQUIRED",
    );
    u.clocks.device = 10_000;
    expect((await refusal(exportWallet(client, { accountId: u.accountId }))).code).toBe(
      "STEP_UP_REQUIRED",
    );
    expect(await marks(refusing)).toEqual([]);
  });

  it("an honest device clock twenty minutes slow is not locked out: the verification is dated on the service's clock too", async () => {
    const u = await user();
    u.clocks.device = -20 * 60_000;
    const { client } = u.client();
    const session = await signInWithEmail(client, u.emailCredentialId);
    expect(Date.parse(session.verifiedAt!)).toBeLessThan(Date.now() - 19 * 60_000);
    expect(await exported(client, u.accountId)).toBe(12);
  });

  it("a relay's Date set back does not make a lapsed verification young: the device's clock still counts", async () => {
    const u = await user();
    const { client } = u.client();
    await signInWithEmail(client, u.emailCredentialId);
    u.clocks.device = MAX_AGE_MS + 5_000;
    u.clocks.service = 0;
    await listSessions(client, { accountId: u.accountId });
    expect((await refusal(exportWallet(client, { accountId: u.accountId }))).code).toBe(
      "STEP_UP_REQUIRED",
    );
  });
});

describe("step-up inside the tap", () => {
  /** `client`'s passkey registrations, and whether one began in the calling task. */
  function watchRegister(authenticator: ReturnType<Stack["client"]>["authenticator"]) {
    const reached: string[] = [];
    const register = authenticator.provider.register.bind(authenticator.provider);
    authenticator.provider.register = (options) => {
      reached.push("register");
      return register(options);
    };
    return reached;
  }
  const adding = (client: SignetClient, accountId: string) =>
    addPasskey(client, {
      accountId,
      nickname: "Tap",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser(`tap${Date.now()}`),
    });

  it("addPasskey named by step-up opens the passkey prompt in the caller's task once the sessions are loaded", async () => {
    const u = await user();
    const { client, authenticator } = u.client();
    await signInWithEmail(client, u.emailCredentialId);
    const reached = watchRegister(authenticator);
    const call = adding(client, u.accountId);
    expect(reached).toEqual(["register"]);
    expect((await call).type).toBe("PASSKEY");
  });

  it("createClient with stepUp reads the held sessions at once: after a reload, the first tap opens the prompt in its task", async () => {
    const u = await user();
    await signInWithEmail(u.client().client, u.emailCredentialId);
    const { client, authenticator } = u.client();
    // Nothing asked for the sessions: the client read them because `stepUp` is set.
    await vi.waitFor(() => expect(client.sessions.getSnapshot()[u.accountId]).toHaveLength(1));
    const reached = watchRegister(authenticator);
    const call = adding(client, u.accountId);
    expect(reached).toEqual(["register"]);
    expect((await call).type).toBe("PASSKEY");
  });

  it("a stale addPasskey is refused before any prompt: no passkey is made for an add that cannot be signed", async () => {
    const u = await user();
    const { client, authenticator } = u.client();
    await signInWithEmail(client, u.emailCredentialId);
    u.clocks.device = MAX_AGE_MS + 5_000;
    u.clocks.service = MAX_AGE_MS + 5_000;
    const reached = watchRegister(authenticator);
    expect((await refusal(adding(client, u.accountId))).code).toBe("STEP_UP_REQUIRED");
    expect(reached).toEqual([]);
    expect(authenticator.credentials).toEqual([]);
  });
});
