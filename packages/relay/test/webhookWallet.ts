// Test-only helpers of the webhook suites: a customer signed in through a relay in front of the
// emulator (node:crypto stamps, as nodeWallet.ts), a signed retry through the relay, webhooks
// signed with a key the test holds, and a store that counts what it publishes.
import { sign } from "node:crypto";
import { sealOtpBundle } from "@signet/core";
import { expect } from "vitest";
import type { WebhookStore } from "../src/webhooks/store.js";
import { as, json, newKey, stamp, type TestKey, type Wallet } from "./nodeWallet.js";

export type Json = Record<string, unknown>;

const BASIC = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;

/** A direct platform call to the emulator (what the app's backend does outside the relay). */
export async function platform(
  emulatorUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Json> {
  const response = await fetch(`${emulatorUrl}${path}`, {
    method,
    headers: { Authorization: BASIC, "Content-Type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === "" ? {} : (JSON.parse(text) as Json);
}

/** Relays leg 1 of a signed request, then the same body bytes stamped; returns both answers. */
export async function signedRetry(
  api: string,
  user: { customerId: string },
  method: string,
  path: string,
  body: string | undefined,
  key: TestKey,
): Promise<{ challenge: Json; final: Response; resend: () => Promise<Response> }> {
  const headers = body === undefined ? as(user) : json(user);
  const first = await fetch(`${api}${path}`, { method, headers, ...(body ? { body } : {}) });
  if (first.status !== 202) throw new Error(`leg 1: ${first.status} ${await first.text()}`);
  const challenge = (await first.json()) as Json;
  const resend = () =>
    fetch(`${api}${path}`, {
      method,
      headers: {
        ...headers,
        "Content-Type": "application/json",
        "Grid-Wallet-Signature": stamp(challenge.payloadToSign as string, key),
        "Request-Id": challenge.requestId as string,
      },
      ...(body !== undefined ? { body } : {}),
    });
  return { challenge, final: await resend(), resend };
}

/** Creates a customer and signs them in by email OTP, every wallet call through the relay. */
export async function signUp(
  api: string,
  emulatorUrl: string,
  attestationKey: string,
  email: string,
): Promise<Wallet> {
  const customer = await platform(emulatorUrl, "POST", "/customers", {
    customerType: "INDIVIDUAL",
    email,
  });
  const user = { customerId: customer.id as string };
  const accounts = (await (
    await fetch(`${api}/customers/internal-accounts?type=EMBEDDED_WALLET`, { headers: as(user) })
  ).json()) as { data: Json[] };
  const wallet = accounts.data[0]!.id as string;
  const credentials = (await (
    await fetch(`${api}/auth/credentials?accountId=${wallet}`, { headers: as(user) })
  ).json()) as { data: Json[] };
  const credential = credentials.data.find((c) => c.type === "EMAIL_OTP")!.id as string;
  const challenged = await fetch(`${api}/auth/credentials/${credential}/challenge`, {
    method: "POST",
    headers: json(user),
  });
  expect(challenged.status).toBe(200);
  const { otpEncryptionTargetBundle } = (await challenged.json()) as Json;
  const tek = newKey();
  const encryptedOtpBundle = await sealOtpBundle({
    targetBundle: otpEncryptionTargetBundle as string,
    otpCode: "000000",
    publicKey: tek.uncompressed,
    trustedKeys: [attestationKey],
  });
  const body = JSON.stringify({ type: "EMAIL_OTP", encryptedOtpBundle });
  const { final } = await signedRetry(
    api,
    user,
    "POST",
    `/auth/credentials/${credential}/verify`,
    body,
    tek,
  );
  expect(final.status).toBe(200);
  const session = (await final.json()) as Json;
  return {
    customerId: user.customerId,
    wallet,
    credential,
    session: session.id as string,
    sessionKey: tek,
  };
}

/** `X-Grid-Signature` over `body` with `key`: base64 of DER, or of r‖s with `raw`. */
export function webhookSignature(body: string, key: TestKey, raw = false): string {
  return sign("sha256", Buffer.from(body, "utf8"), {
    key: key.privateKey,
    dsaEncoding: raw ? "ieee-p1363" : "der",
  }).toString("base64");
}

/** A wallet-operation webhook body, as the service's #802 shapes it. */
export function webhookBody(
  requestId: string,
  options: { id?: string; timestamp?: number; failed?: boolean; resourceId?: string } = {},
): string {
  const failed = options.failed === true;
  return JSON.stringify({
    id: options.id ?? `Webhook:${crypto.randomUUID()}`,
    type: failed ? "WALLET_OPERATION.FAILED" : "WALLET_OPERATION.COMPLETED",
    timestamp: new Date(options.timestamp ?? Date.now()).toISOString(),
    data: {
      operationId: `Operation:${crypto.randomUUID()}`,
      requestId,
      operationType: "wallet.export",
      resourceType: "INTERNAL_ACCOUNT",
      resourceId: options.resourceId ?? `InternalAccount:${crypto.randomUUID()}`,
      status: failed ? "failed" : "completed",
      ...(failed ? { error: { code: "SIGNER_PROVIDER_REJECTED" } } : {}),
    },
  });
}

/** Posts a webhook to a relay's receiver. */
export function deliver(api: string, body: string, signature: string | undefined) {
  return fetch(`${api}/webhooks`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      ...(signature !== undefined ? { "X-Grid-Signature": signature } : {}),
    },
    body,
  });
}

/** A device's wait for its request's end, through the relay. */
export async function waitFor(
  api: string,
  user: { customerId: string },
  requestId: string,
): Promise<{ status: number; event?: Json }> {
  const response = await fetch(`${api}/wallet-operations/${requestId}`, { headers: as(user) });
  const text = await response.text();
  const data = /^data: (.*)$/m.exec(text)?.[1];
  return { status: response.status, ...(data ? { event: JSON.parse(data) as Json } : {}) };
}

/** Wraps a store to record every message it publishes (what could reach a device). */
export function countingStore(store: WebhookStore): WebhookStore & { published: string[] } {
  const published: string[] = [];
  return {
    published,
    claim: (key, value, ttlMs) => store.claim(key, value, ttlMs),
    get: (key) => store.get(key),
    async publish(channel, message, ttlMs) {
      published.push(message);
      await store.publish(channel, message, ttlMs);
    },
    subscribe: (channel, listener) => store.subscribe(channel, listener),
  };
}
