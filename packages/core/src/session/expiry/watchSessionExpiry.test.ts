// The session watcher on fake timers: the warning before expiry, expiry, and a device that slept
// (the wall clock jumps while no timer runs: `vi.setSystemTime` without advancing the timers).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { refreshPayloadFor } from "../../../../test/src/payloads.js";
import {
  type CreateClientParameters,
  createClient,
  createMemoryKeyStore,
  type FetchFunction,
  type SignetEvent,
} from "../../index.js";
import { MAX_TIMER_MS } from "./watchSessionExpiry.js";

const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
const sessionId = "Session:22222222-2222-4222-8222-222222222222";
const MINUTE = 60_000;

/** A relay that refreshes sessions (15 minutes each), counting the signed refreshes; or refuses. */
function relay(answer: "refresh" | "fail" = "refresh") {
  const refreshed: string[] = [];
  const fetch: FetchFunction = async (input, init) => {
    if (!new Headers(init.headers).has("Grid-Wallet-Signature")) {
      return Response.json(
        {
          payloadToSign: refreshPayloadFor(init.body),
          requestId: `Request:44444444-4444-4444-8444-${String(refreshed.length).padStart(12, "0")}`,
          expiresAt: new Date(Date.now() + 300_000).toISOString(),
        },
        { status: 202 },
      );
    }
    refreshed.push(input);
    if (answer === "fail") {
      return Response.json(
        { status: 400, code: "INVALID_INPUT", message: "refused" },
        { status: 400 },
      );
    }
    return Response.json(
      {
        id: `Session:55555555-5555-4555-8555-${String(refreshed.length).padStart(12, "0")}`,
        accountId,
        expiresAt: new Date(Date.now() + 15 * MINUTE).toISOString(),
      },
      { status: 201 },
    );
  };
  return { fetch, refreshed };
}

/** A client holding one session that ends in `lifeMs`, and its session events. */
async function holding(lifeMs: number, overrides: Partial<CreateClientParameters> = {}) {
  const events: SignetEvent[] = [];
  const client = createClient({
    relayUrl: "https://relay.test/api/grid",
    keyStore: createMemoryKeyStore(),
    fetch: relay().fetch,
    onEvent: (event) => events.push(event),
    signedRequests: { backoff: { baseMs: 1, maxMs: 1 } },
    ...overrides,
  });
  await vi.dynamicImportSettled();
  const key = await client.crypto.generateSigningKey();
  await client.holdSession(
    {
      id: sessionId,
      accountId,
      expiresAt: new Date(Date.now() + lifeMs).toISOString(),
      publicKey: key.publicKey,
    },
    key,
  );
  const actions = () => events.flatMap((e) => (e.type === "session" ? [e.action] : []));
  return { client, events, actions };
}

describe("watchSessionExpiry", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse("2026-03-01T10:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("warns once, a minute before the end by default, then drops the session when it expires", async () => {
    const { client, events, actions } = await holding(10 * MINUTE);
    await vi.advanceTimersByTimeAsync(9 * MINUTE - 1_000);
    expect(actions()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(events.at(-1)).toEqual({
      type: "session",
      action: "expiring",
      accountId,
      sessionId,
      expiresAt: new Date(Date.now() + MINUTE).toISOString(),
    });
    await vi.advanceTimersByTimeAsync(MINUTE - 5_000);
    await vi.waitFor(() => expect(actions()).toEqual(["expiring", "expired"]));
    expect(client.sessions.getSnapshot()).toEqual({});
    client.destroy();
  });

  it("takes the warning margin from sessionWarning, and none with false", async () => {
    const early = await holding(10 * MINUTE, { sessionWarning: { marginMs: 5 * MINUTE } });
    expect(early.client.sessions.expiryWarningMs).toBe(5 * MINUTE);
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(early.actions()).toEqual(["expiring"]);
    early.client.destroy();

    const quiet = await holding(2 * MINUTE, { sessionWarning: false });
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    await vi.waitFor(() => expect(quiet.actions()).toEqual(["expired"]));
    quiet.client.destroy();
  });

  it("refuses a warning margin of a whole session lifetime or a non-number", () => {
    for (const marginMs of [15 * MINUTE, -1, Number.NaN, "60000" as unknown as number]) {
      expect(() => createClient({ relayUrl: "/r", sessionWarning: { marginMs } })).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
  });

  it("a device that slept past the end drops the session on its next timer, and refreshes nothing", async () => {
    const { fetch, refreshed } = relay();
    const { client, actions } = await holding(15 * MINUTE, { fetch, autoRefresh: true });
    await vi.advanceTimersByTimeAsync(MINUTE);
    vi.setSystemTime(Date.now() + 40 * MINUTE); // asleep: the wall clock moves, no timer runs
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    await vi.waitFor(() => expect(actions()).toEqual(["expired"]));
    expect(refreshed).toEqual([]);
    expect(client.sessions.getSnapshot()).toEqual({});
    client.destroy();
  });

  it("a device that slept past the refresh time, not the end, refreshes on waking", async () => {
    const { fetch, refreshed } = relay();
    const { client, actions } = await holding(15 * MINUTE, {
      fetch,
      autoRefresh: { marginMs: 2 * MINUTE },
    });
    // Asleep from the start for 13 minutes: the refresh was due at 13 minutes, the end is at 15.
    vi.setSystemTime(Date.now() + 13 * MINUTE);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    await vi.waitFor(() => expect(refreshed).toHaveLength(1));
    await vi.waitFor(() => expect(actions()).toContain("refreshed"));
    // The refresh came before the warning's time: no warning for a session that was replaced.
    expect(actions()).not.toContain("expiring");
    expect(actions()).not.toContain("expired");
    client.destroy();
  });

  it("coming back to the foreground re-checks at once, through the injected appState", async () => {
    let onActive: (() => void) | undefined;
    let unsubscribed = 0;
    const { client, actions } = await holding(15 * MINUTE, {
      appState: (listener) => {
        onActive = listener;
        return () => {
          unsubscribed += 1;
        };
      },
    });
    expect(onActive).toBeTypeOf("function");
    vi.setSystemTime(Date.now() + 16 * MINUTE);
    onActive?.();
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(actions()).toEqual(["expired"]));
    // No session held: the watcher stops listening.
    expect(unsubscribed).toBe(1);
    client.destroy();
  });

  it("warns when an automatic refresh fails, and the session then expires normally", async () => {
    const { fetch, refreshed } = relay("fail");
    const { client, actions } = await holding(5 * MINUTE, {
      fetch,
      autoRefresh: { marginMs: 2 * MINUTE },
    });
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    await vi.waitFor(() => expect(refreshed).toHaveLength(1));
    expect(actions()).toEqual([]);
    await vi.advanceTimersByTimeAsync(MINUTE);
    await vi.waitFor(() => expect(actions()).toEqual(["expiring"]));
    await vi.advanceTimersByTimeAsync(MINUTE);
    await vi.waitFor(() => expect(actions().filter((a) => a === "expired")).toHaveLength(1));
    expect(actions().filter((a) => a === "expiring")).toHaveLength(1);
    client.destroy();
  });

  it("destroy() stops the timers: nothing is emitted afterwards", async () => {
    const { client, actions } = await holding(2 * MINUTE);
    client.destroy();
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(actions()).toEqual([]);
  });
});
