// Per-call `onEvent`: each action call sees its own events (and only those), the client-wide sink
// sees all of them, and neither ever holds a payload, stamp or key.
import { describe, expect, it } from "vitest";
import { activityPayload } from "../../../test/src/payloads.js";
import { challengeJson, fakeClock, scriptedFetch } from "../../../test/src/scriptedFetch.js";

/** What ending a session signs (docs/protocol.md §11). */
const revokePayload = (timestampMs: number) =>
  activityPayload(
    "ACTIVITY_TYPE_DELETE_API_KEYS",
    { apiKeyIds: ["apikey_1"], userId: "user_1" },
    { timestampMs },
  );

import {
  createClient,
  createMemoryKeyStore,
  listSessions,
  revokeSession,
  type SignetClient,
  type SignetEvent,
} from "../index.js";

const accountId = "InternalAccount:11111111-1111-4111-8111-111111111111";
const sessionId = "Session:22222222-2222-4222-8222-222222222222";
const otherSessionId = "Session:33333333-3333-4333-8333-333333333333";

async function holding(client: SignetClient, ...ids: string[]) {
  for (const id of ids) {
    const key = await client.crypto.generateSigningKey();
    await client.holdSession(
      {
        id,
        accountId,
        expiresAt: new Date(client.clock.now() + 900_000).toISOString(),
        publicKey: key.publicKey,
      },
      key,
    );
  }
}

const summary = (event: SignetEvent) =>
  event.type === "signedRequest"
    ? `${event.stage}:${event.attempt}`
    : event.type === "session"
      ? `session:${event.action}`
      : event.type === "request"
        ? `request:${event.status ?? event.code}`
        : event.type === "pending"
          ? `pending:${event.state}:${event.attempt}`
          : event.type;

describe("per-call onEvent", () => {
  it("a signed action reports challenge → signing → submitting → processing(n) → done to its own sink", async () => {
    const time = fakeClock();
    const challenge = challengeJson(time.now, { payloadToSign: revokePayload(time.now) });
    const script = scriptedFetch([
      { status: 202, json: challenge },
      { status: 200, json: { status: "PROCESSING" } },
      { status: 200, json: { status: "PROCESSING" } },
      { status: 204 },
    ]);
    const all: SignetEvent[] = [];
    const client = createClient({
      relayUrl: "https://relay.test/api/grid",
      fetch: script.fetch,
      keyStore: createMemoryKeyStore(),
      clock: time.clock,
      sleep: time.sleep,
      onEvent: (event) => all.push(event),
    });
    await holding(client, sessionId, otherSessionId);
    all.length = 0;
    const mine: SignetEvent[] = [];
    await revokeSession(client, {
      accountId,
      sessionId: otherSessionId,
      onEvent: (event) => mine.push(event),
    });
    expect(mine.map(summary)).toEqual([
      "challenge:1",
      "request:202",
      "signing:0",
      "submitting:1",
      "request:200",
      "processing:1",
      // The call is pending (docs/protocol.md §2.5): its action, attempt and since, no secret.
      "pending:processing:1",
      // Each wait is also a `retry` event with its reason and delay (docs/architecture.md "Retries").
      "retry",
      "submitting:2",
      "request:200",
      "processing:2",
      "pending:processing:2",
      "retry",
      "submitting:3",
      "request:204",
      // Told by the end's direct call, just before the engine's terminal event.
      "pending:settled:2",
      "done:3",
      "session:revoked",
    ]);
    expect(mine.filter((event) => event.type === "pending")).toEqual([
      expect.objectContaining({
        action: "revokeSession",
        resumable: true,
        requestId: challenge.requestId,
      }),
      expect.objectContaining({ action: "revokeSession", state: "processing", attempt: 2 }),
      expect.objectContaining({ action: "revokeSession", state: "settled", status: 204 }),
    ]);
    expect(mine.filter((event) => event.type === "retry")).toEqual([
      expect.objectContaining({ reason: "processing", attempt: 1, operation: "revokeSession" }),
      expect.objectContaining({ reason: "processing", attempt: 2, operation: "revokeSession" }),
    ]);
    // The client-wide sink got the same events, in the same order.
    expect(all).toEqual(mine);
    const text = JSON.stringify(mine);
    expect(text).not.toContain(challenge.payloadToSign);
    expect(text).not.toContain(script.calls[1]?.headers.get("Grid-Wallet-Signature"));
  });

  it("a failed call ends with `failed` and its code; a sink that throws breaks nothing", async () => {
    const script = scriptedFetch([
      {
        status: 202,
        json: challengeJson(Date.now(), { payloadToSign: revokePayload(Date.now()) }),
      },
      { status: 404, json: { status: 404, code: "NOT_FOUND", message: "no such session" } },
    ]);
    const client = createClient({
      relayUrl: "https://relay.test/api/grid",
      fetch: script.fetch,
      keyStore: createMemoryKeyStore(),
    });
    await holding(client, sessionId);
    const stages: string[] = [];
    await expect(
      revokeSession(client, {
        accountId,
        sessionId: otherSessionId,
        onEvent: (event) => {
          stages.push(summary(event));
          throw new Error("a broken sink");
        },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(stages.at(-1)).toBe("failed:1");
  });

  it("concurrent calls each see only their own events", async () => {
    const body = (id: string) => ({ data: [{ id, accountId, expiresAt: "2030-01-01T00:00:00Z" }] });
    const script = scriptedFetch([
      { status: 200, json: body(sessionId) },
      { status: 200, json: body(otherSessionId) },
    ]);
    const client = createClient({ relayUrl: "https://relay.test/api/grid", fetch: script.fetch });
    const first: SignetEvent[] = [];
    const second: SignetEvent[] = [];
    await Promise.all([
      listSessions(client, { accountId, onEvent: (event) => first.push(event) }),
      listSessions(client, { accountId, onEvent: (event) => second.push(event) }),
    ]);
    expect(first.map(summary)).toEqual(["request:200"]);
    expect(second.map(summary)).toEqual(["request:200"]);
    expect(first[0]).not.toBe(second[0]);
  });
});
