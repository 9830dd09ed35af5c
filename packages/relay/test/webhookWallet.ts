// Test-only helpers of the webhook suites: webhooks signed with a key the test holds, their
// delivery to a relay, a device's wait, and a store that counts what it publishes.
import { sign } from "node:crypto";
import type { WebhookStore } from "../src/webhooks/store.js";
import { as, type Json, type TestKey } from "./nodeWallet.js";

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
