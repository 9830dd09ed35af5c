// The service's wallet-operation webhooks (its #802, vendored in packages/test/spec/
// grid-api-pr802.yaml): `WALLET_OPERATION.COMPLETED` / `.FAILED` for a credential added or
// removed, a session revoked and a wallet exported, correlated by the signed request's
// `requestId`, signed with `X-Grid-Signature` (the base document's `WebhookSignature`: P-256 over
// the SHA-256 of the body, base64; its encoding unnamed, DER here), and retried with exponential
// backoff on anything but a 2xx or a 409 (the service's retry table). Each attempt carries a fresh
// `timestamp` ("when the webhook was sent") under the same delivery `id` (the key to deduplicate).

import type { P256KeyPair } from "./crypto/index.js";
import { signDer } from "./crypto/index.js";

/** The header carrying the signature. */
export const WEBHOOK_SIGNATURE_HEADER = "X-Grid-Signature";

/** The operations the service reports by webhook. */
export type WalletOperationType =
  | "auth_credential.create"
  | "auth_credential.delete"
  | "session.revoke"
  | "wallet.export";

/** What a signed endpoint says of its operation when it ends (in `SignedRetrySpec`). */
export type WebhookOperation = {
  operationType: WalletOperationType;
  resourceType: "AUTH_METHOD" | "SESSION" | "INTERNAL_ACCOUNT";
  /** The affected resource's id, from the success answer's body when there is one. */
  resourceId: (answer: unknown) => string;
};

/** Options of the emulator's webhooks (`createEmulator({ webhooks })`). */
export type WebhookOptions = {
  /** Where to POST them; none sent while unset (`Emulator.setWebhookUrl` sets it later). */
  url?: string;
  /** The first retry's wait (default 1 000 ms); each next one doubles, up to `maxDelayMs`. */
  baseDelayMs?: number;
  /** The longest wait between attempts (default 1 800 000 ms, the service's 30 minutes). */
  maxDelayMs?: number;
  /** Attempts per webhook before giving up (default: as many as fit in 7 days). */
  maxAttempts?: number;
  /**
   * How long after a PROCESSING answer the operation settles by itself and its webhook is sent
   * (default 100 ms of real time); the next re-send then collects the result.
   */
  settleMs?: number;
  /** The `fetch` that delivers (default: the global one). */
  fetch?: typeof fetch;
};

/** One delivery attempt, as `Emulator.webhookDeliveries()` lists it. */
export type WebhookDelivery = {
  id: string;
  type: string;
  requestId: string;
  attempt: number;
  /** The receiver's status, or 0 when it could not be reached. */
  status: number;
};

/** The end of one operation, to report. */
export type WalletOperationEnd = {
  requestId: string;
  operation: WebhookOperation;
  /** The success answer's JSON body (or `undefined`), or the failure's code. */
  outcome: { completed: unknown } | { failed: string };
};

/** Sends the webhooks of one emulator. */
export interface WebhookSender {
  send(end: WalletOperationEnd): void;
  setUrl(url: string | undefined): void;
  deliveries(): WebhookDelivery[];
  /** Whether webhooks are sent (a URL is set): only then does a PROCESSING operation settle by itself. */
  active(): boolean;
  /** Cancels every pending retry. */
  stop(): void;
  readonly settleMs: number;
}

const SEVEN_DAYS_MS = 7 * 24 * 60 * 60_000;

/** Makes the sender; `nextId` mints `Webhook:` and `Operation:` ids, `now` is the service clock. */
export function createWebhookSender(
  options: WebhookOptions | undefined,
  deps: { key: P256KeyPair; now: () => number; nextId: (kind: string) => string },
): WebhookSender {
  let url = options?.url;
  const baseDelayMs = options?.baseDelayMs ?? 1_000;
  const maxDelayMs = options?.maxDelayMs ?? 30 * 60_000;
  const maxAttempts = options?.maxAttempts ?? Number.POSITIVE_INFINITY;
  const post = options?.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const log: WebhookDelivery[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  function later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    // A pending retry never keeps a process alive.
    (timer as { unref?: () => void }).unref?.();
    timers.add(timer);
  }

  function send(end: WalletOperationEnd): void {
    if (url === undefined) return;
    const target = url;
    const completed = "completed" in end.outcome;
    const id = deps.nextId("Webhook");
    const type = completed ? "WALLET_OPERATION.COMPLETED" : "WALLET_OPERATION.FAILED";
    const data = {
      operationId: deps.nextId("Operation"),
      requestId: end.requestId,
      operationType: end.operation.operationType,
      resourceType: end.operation.resourceType,
      resourceId: end.operation.resourceId(
        "completed" in end.outcome ? end.outcome.completed : undefined,
      ),
      status: completed ? "completed" : "failed",
      ...("failed" in end.outcome ? { error: { code: end.outcome.failed } } : {}),
    };
    const firstAt = deps.now();
    const attempt = async (n: number) => {
      const body = JSON.stringify({
        id,
        type,
        timestamp: new Date(deps.now()).toISOString(),
        data,
      });
      const bytes = new TextEncoder().encode(body);
      let status = 0;
      try {
        const response = await post(target, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [WEBHOOK_SIGNATURE_HEADER]: Buffer.from(signDer(deps.key.privateKey, bytes)).toString(
              "base64",
            ),
          },
          body: bytes,
        });
        status = response.status;
        await response.body?.cancel().catch(() => undefined);
      } catch {
        status = 0;
      }
      log.push({ id, type, requestId: end.requestId, attempt: n, status });
      // The service's table: retried with backoff, never after a 409 (a duplicate).
      if ((status >= 200 && status < 300) || status === 409 || n >= maxAttempts) return;
      const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (n - 1));
      if (deps.now() + delay - firstAt > SEVEN_DAYS_MS) return;
      later(delay, () => void attempt(n + 1));
    };
    later(0, () => void attempt(1));
  }

  return {
    send,
    setUrl(next) {
      url = next;
    },
    deliveries: () => log.map((entry) => ({ ...entry })),
    active: () => url !== undefined,
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
    settleMs: options?.settleMs ?? 100,
  };
}
