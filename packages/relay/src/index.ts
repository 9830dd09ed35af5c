/**
 * The backend relay for Embedded Wallet clients, as a web-standard fetch handler.
 *
 * @module @signet/relay
 */
// @signet/relay: the platform backend relay for Embedded Wallet clients.
export {
  type CreateRelayOptions,
  type CreateRelayParameters,
  type CreateRelayReturnType,
  createRelay,
  type RelayEvent,
  type RelayHandler,
  type RelayRateLimit,
  type RelayUser,
  type RelayWebhooks,
} from "./createRelay.js";
export { nodeRemoteAddress } from "./endUserIp.js";
export { type RelayErrorBody, RelayErrorCode } from "./errors.js";
export {
  FORWARDED_REQUEST_HEADERS,
  FORWARDED_RESPONSE_HEADERS,
  WALLET_SIGNATURE_HEADER,
} from "./forwardedHeaders.js";
export {
  createMemoryOwnershipCache,
  type MemoryOwnershipCacheOptions,
  type OwnershipCache,
} from "./ownership.js";
export {
  createMemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  type RateLimitResult,
  type RateLimitStore,
} from "./rateLimit.js";
export {
  ID_FIELDS,
  RELAY_ROUTES,
  type RelayIdKind,
  type RelayQueryParam,
  type RelayRoute,
} from "./routes.js";
export {
  type NodeHandler,
  type NodeRequestLike,
  type NodeResponseLike,
  toNodeHandler,
} from "./toNodeHandler.js";
export { RelayWebhookErrorCode, WALLET_OPERATION_TYPES } from "./webhooks/receiver.js";
export { WEBHOOK_SIGNATURE_HEADER } from "./webhooks/signature.js";
export {
  createMemoryWebhookStore,
  type MemoryWebhookStoreOptions,
  type WebhookStore,
} from "./webhooks/store.js";
