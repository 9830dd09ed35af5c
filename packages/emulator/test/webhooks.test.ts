// The emulator's wallet-operation webhooks (the service's #802, vendored in
// packages/test/spec/grid-api-pr802.yaml): each of the four operations, answered PROCESSING,
// settles by itself and is reported COMPLETED (or FAILED) to a receiver on 127.0.0.1, its body
// judged against the vendored schema and its X-Grid-Signature checked with node:crypto against
// the key `GET /_emulator/keys` publishes; deliveries are retried with backoff, never after a 409,
// and never past `maxAttempts`.
import { createPublicKey, verify } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openApiJudge } from "../../test/src/openapi.js";
import { createEmulator } from "../src/index.js";
import {
  call,
  newKey,
  otpSignIn,
  processTarget,
  SIGNATURE,
  signedCall,
  stamp,
  type Target,
  type TestKey,
} from "./testClient.js";

type Received = { body: string; signature: string | null };
type Webhook = { id: string; type: string; timestamp: string; data: Record<string, unknown> };

let server: Server;
const received: Received[] = [];
/** Statuses the receiver answers, in turn; 200 once spent. */
let script: number[] = [];
const emulator = createEmulator({
  seed: "webhooks",
  webhooks: { baseDelayMs: 5, maxAttempts: 3, settleMs: 5 },
});
const t: Target = processTarget(emulator);

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: req.headers["x-grid-signature"] as string | null,
      });
      res.statusCode = script.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  emulator.setWebhookUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
});

afterAll(async () => {
  emulator.stop();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  emulator.clearFaults();
});

/** The webhooks received for `requestId`, once `count` of them have come. */
async function hooksFor(requestId: string, count = 1): Promise<Received[]> {
  const mine = () => received.filter((r) => r.body.includes(requestId));
  await expect.poll(() => mine().length).toBeGreaterThanOrEqual(count);
  return mine();
}

/** Judges one received webhook: the vendored schema and the signature under the published key. */
async function judge(hook: Received): Promise<Webhook> {
  const keys = (await call(t, "GET", "/_emulator/keys")).body as { webhookPublicKey: string };
  const body = JSON.parse(hook.body) as Webhook;
  expect(openApiJudge().checkComponent("WalletOperationWebhook", body)).toEqual([]);
  const point = Buffer.from(keys.webhookPublicKey, "hex");
  const publicKey = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const signature = Buffer.from(hook.signature ?? "", "base64");
  expect(verify("sha256", Buffer.from(hook.body, "utf8"), publicKey, signature)).toBe(true);
  // Another body under the same signature does not verify.
  expect(verify("sha256", Buffer.from(`${hook.body} `, "utf8"), publicKey, signature)).toBe(false);
  return body;
}

/** A customer with an email and a phone, signed in by email OTP. */
async function wallet() {
  const keys = (await call(t, "GET", "/_emulator/keys")).body as { attestationPublicKey: string };
  const customer = await call(t, "POST", "/customers", {
    customerType: "INDIVIDUAL",
    email: `w-${crypto.randomUUID()}@example.com`,
    phoneNumber: "+14155550123",
  });
  const accounts = await call(
    t,
    "GET",
    `/customers/internal-accounts?customerId=${customer.body.id}&type=EMBEDDED_WALLET`,
  );
  const account = accounts.body.data[0].id as string;
  const credentials = await call(t, "GET", `/auth/credentials?accountId=${account}`);
  const credential = credentials.body.data[0].id as string;
  const signedIn = await otpSignIn(t, credential, keys.attestationPublicKey);
  return { account, credential, session: signedIn.session.id as string, key: signedIn.sessionKey };
}

/** A signed call answered PROCESSING (a fault), then re-sent once its webhook has come. */
async function processing(method: string, path: string, body: string | undefined, key: TestKey) {
  emulator.addFault({ kind: "processing", match: { method, path } });
  const challenge = await call(t, method, path, body);
  expect(challenge.status).toBe(202);
  const requestId = challenge.body.requestId as string;
  const headers = {
    [SIGNATURE]: stamp(challenge.body.payloadToSign, key),
    "Request-Id": requestId,
  };
  const first = await call(t, method, path, body, headers);
  expect(first.body.status).toBe("PROCESSING");
  const [hook] = await hooksFor(requestId);
  const event = await judge(hook!);
  const collected = await call(t, method, path, body, headers);
  // The re-send after the settlement collects the result once; the next is refused.
  const again = await call(t, method, path, body, headers);
  expect(again.status).toBeGreaterThanOrEqual(400);
  return { requestId, event, collected };
}

/** A wallet export, signed and sent once (its webhook is delivered as the receiver scripts): its request id. */
async function signedExport(w: { account: string; key: TestKey }): Promise<string> {
  const body = JSON.stringify({ clientPublicKey: newKey().publicKeyUncompressed });
  const { challenge } = await signedCall(
    t,
    "POST",
    `/internal-accounts/${w.account}/export`,
    body,
    w.key,
  );
  return challenge.body.requestId as string;
}

/** The delivery attempts the emulator logged for `requestId`, as `[attempt, status]`. */
const attempts = (requestId: string) =>
  emulator
    .webhookDeliveries()
    .filter((d) => d.requestId === requestId)
    .map((d) => [d.attempt, d.status]);

describe("wallet-operation webhooks", () => {
  it("reports each of the four operations after a PROCESSING answer, judged by the schema", async () => {
    const w = await wallet();
    const add = await processing(
      "POST",
      "/auth/credentials",
      JSON.stringify({ type: "SMS_OTP", accountId: w.account }),
      w.key,
    );
    expect(add.collected.status).toBe(201);
    // resourceId is how a device learns the new credential's id (#802).
    expect(add.event).toMatchObject({
      type: "WALLET_OPERATION.COMPLETED",
      data: {
        requestId: add.requestId,
        operationType: "auth_credential.create",
        resourceType: "AUTH_METHOD",
        resourceId: add.collected.body.id,
        status: "completed",
      },
    });

    const remove = await processing(
      "DELETE",
      `/auth/credentials/${add.collected.body.id}`,
      undefined,
      w.key,
    );
    expect(remove.collected.status).toBe(204);
    expect(remove.event.data).toMatchObject({
      operationType: "auth_credential.delete",
      resourceId: add.collected.body.id,
    });

    const exported = await processing(
      "POST",
      `/internal-accounts/${w.account}/export`,
      JSON.stringify({ clientPublicKey: newKey().publicKeyUncompressed }),
      w.key,
    );
    expect(exported.collected.body.encryptedWalletCredentials).toBeDefined();
    expect(exported.event.data).toMatchObject({
      operationType: "wallet.export",
      resourceType: "INTERNAL_ACCOUNT",
      resourceId: w.account,
    });

    const revoked = await processing("DELETE", `/auth/sessions/${w.session}`, undefined, w.key);
    expect(revoked.collected.status).toBe(204);
    expect(revoked.event.data).toMatchObject({
      operationType: "session.revoke",
      resourceType: "SESSION",
      resourceId: w.session,
    });
  });

  it("reports a failure as WALLET_OPERATION.FAILED with the service's code", async () => {
    const w = await wallet();
    emulator.addFault({
      kind: "error",
      at: "signed",
      status: 424,
      code: "SIGNER_PROVIDER_REJECTED",
      match: { method: "DELETE", path: `/auth/sessions/${w.session}` },
    });
    const { challenge, result: failed } = await signedCall(
      t,
      "DELETE",
      `/auth/sessions/${w.session}`,
      undefined,
      w.key,
    );
    const requestId = challenge.body.requestId as string;
    expect(failed.status).toBe(424);
    const [hook] = await hooksFor(requestId);
    expect(await judge(hook!)).toMatchObject({
      type: "WALLET_OPERATION.FAILED",
      data: {
        status: "failed",
        error: { code: "SIGNER_PROVIDER_REJECTED" },
        resourceId: w.session,
      },
    });
  });

  it("retries with backoff until a 2xx, under one delivery id with fresh timestamps", async () => {
    const w = await wallet();
    script = [500, 503];
    const requestId = await signedExport(w);
    const hooks = await hooksFor(requestId, 3);
    const bodies = await Promise.all(hooks.map(judge));
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    await expect
      .poll(() => attempts(requestId))
      .toEqual([
        [1, 500],
        [2, 503],
        [3, 200],
      ]);
  });

  it("stops after a 409 (a duplicate) and after maxAttempts", async () => {
    const w = await wallet();
    for (const [answers, expected] of [
      [[409], [[1, 409]]],
      [
        [500, 500, 500, 500],
        [
          [1, 500],
          [2, 500],
          [3, 500],
        ],
      ],
    ] as const) {
      script = [...answers];
      const requestId = await signedExport(w);
      const log = () => attempts(requestId);
      await expect.poll(log).toEqual(expected);
      // Nothing more comes after the last attempt's backoff would have passed.
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(log()).toEqual(expected);
    }
  });

  it("publishes its webhook key beside the others", async () => {
    const keys = (await call(t, "GET", "/_emulator/keys")).body as Record<string, string>;
    expect(keys.webhookPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(keys.webhookPublicKey).not.toBe(keys.signerPublicKey);
  });
});
