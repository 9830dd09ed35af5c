// The two webhook routes under the relay's base path: the service's deliveries and a device's wait.
import type { RelayAnswer } from "../errors.js";
import { RelayRefusal } from "../errors.js";
import type { RelayIncoming } from "../incoming.js";
import { REQUEST_ID_PATTERN } from "../protocol.js";
import { receiveWebhook, type WebhookSettings, waitForOperation } from "./receiver.js";
import { WEBHOOK_SIGNATURE_HEADER } from "./signature.js";

/** What the relay lends the routes: who the caller is, and their rate limit. */
export interface WebhookRouteDeps {
  identify(incoming: RelayIncoming): Promise<string>;
  spend(customerId: string): Promise<void>;
}

/**
 * Answers `POST /webhooks` (the service's, authenticated by its signature) and
 * `GET /wallet-operations/{requestId}` (a device's, authenticated by `resolveUser`), or
 * `undefined` when `segments` (the path under the base) is neither.
 * @throws {RelayRefusal} 405 for another method; the device route's 400, 401, 403, 429, 503.
 */
export async function webhookRoute(
  settings: WebhookSettings,
  incoming: RelayIncoming,
  segments: string[],
  state: { route: string | null; customerId?: string; reason?: string },
  deps: WebhookRouteDeps,
): Promise<RelayAnswer | undefined> {
  if (segments.length === 1 && segments[0] === "webhooks") {
    state.route = "/webhooks";
    if (incoming.method !== "POST")
      throw new RelayRefusal(
        "METHOD_NOT_ALLOWED",
        "The webhook receiver takes POST only.",
        { allow: ["POST"] },
        { Allow: "POST" },
      );
    const { answer, outcome } = await receiveWebhook(
      settings,
      (limit) => incoming.readBody(limit),
      incoming.header(WEBHOOK_SIGNATURE_HEADER),
    );
    if (outcome.code !== undefined) state.reason = outcome.code;
    return answer;
  }
  if (segments.length === 2 && segments[0] === "wallet-operations") {
    state.route = "/wallet-operations/{Request}";
    if (incoming.method !== "GET")
      throw new RelayRefusal(
        "METHOD_NOT_ALLOWED",
        "A device waits with GET only.",
        { allow: ["GET"] },
        { Allow: "GET" },
      );
    const requestId = segments[1]!;
    if (!REQUEST_ID_PATTERN.test(requestId))
      throw new RelayRefusal("INVALID_INPUT", "The path does not name a request id.");
    const customerId = await deps.identify(incoming);
    state.customerId = customerId;
    await deps.spend(customerId);
    return waitForOperation(settings, requestId, customerId);
  }
  return undefined;
}
