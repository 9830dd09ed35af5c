// The push listener: only the end of the device's own request, of the four operations, ends a
// wait; a 204 asks again; a refusal or no answer is "no push" (the backoff goes on).
import { describe, expect, it } from "vitest";
import { scriptedFetch } from "../../../test/src/scriptedFetch.js";
import { createTransport } from "./http.js";
import { readPush, waitForPush } from "./push.js";

const ID = "Request:7c0b7b4e-0000-4000-8000-000000000abc";
const event = (data: Record<string, unknown>) =>
  `event: wallet-operation\ndata: ${JSON.stringify({ id: "Webhook:1", type: "WALLET_OPERATION.COMPLETED", data })}\n\n`;
const completed = {
  requestId: ID,
  operationType: "auth_credential.create",
  resourceType: "AUTH_METHOD",
  resourceId: "AuthMethod:1",
  status: "completed",
};

describe("readPush", () => {
  it("reads the end of the device's own request", () => {
    expect(readPush(event(completed), ID)).toEqual({
      requestId: ID,
      operationType: "auth_credential.create",
      status: "completed",
      resourceId: "AuthMethod:1",
    });
    expect(
      readPush(event({ ...completed, status: "failed", error: { code: "X_FAILED" } }), ID),
    ).toMatchObject({ status: "failed", errorCode: "X_FAILED" });
  });

  it("ignores another request's end, another operation, and anything malformed", () => {
    expect(readPush(event({ ...completed, requestId: `${ID.slice(0, -1)}d` }), ID)).toBeUndefined();
    expect(readPush(event({ ...completed, operationType: "quote.execute" }), ID)).toBeUndefined();
    expect(readPush(event({ ...completed, status: "done" }), ID)).toBeUndefined();
    expect(readPush("data: {not json\n\n", ID)).toBeUndefined();
    expect(readPush("", ID)).toBeUndefined();
  });
});

describe("waitForPush", () => {
  const request = { method: "POST", path: "/auth/credentials" };
  const transportOf = (relay: ReturnType<typeof scriptedFetch>) =>
    createTransport({ relayUrl: "https://app.example/api/grid", fetch: relay.fetch });

  it("asks again after a 204 and reads the pushed event", async () => {
    const relay = scriptedFetch([
      { status: 204, text: "" },
      { status: 200, text: event(completed) },
    ]);
    const push = await waitForPush(transportOf(relay), ID, new AbortController().signal, request);
    expect(push?.resourceId).toBe("AuthMethod:1");
    expect(relay.calls.map((call) => call.url)).toEqual([
      `https://app.example/api/grid/wallet-operations/${encodeURIComponent(ID)}`,
      `https://app.example/api/grid/wallet-operations/${encodeURIComponent(ID)}`,
    ]);
  });

  it("is no push on a refusal, and never asks for an operation the service does not report", async () => {
    const refused = scriptedFetch([{ status: 403, json: { code: "RELAY_FORBIDDEN" } }]);
    const signal = new AbortController().signal;
    expect(await waitForPush(transportOf(refused), ID, signal, request)).toBeUndefined();
    const none = scriptedFetch([]);
    const execute = { method: "POST", path: "/quotes/Quote:1/execute" };
    expect(await waitForPush(transportOf(none), ID, signal, execute)).toBeUndefined();
    expect(none.calls).toHaveLength(0);
  });
});
