/**
 * A local emulator of the service's Embedded Wallet endpoints with real checks.
 *
 * @module @signet/emulator
 */
// @signet/emulator: a local emulator of the service's Embedded Wallet endpoints with real checks.
export type { EmulatorClock } from "./clock.js";
export {
  type CreateEmulatorParameters,
  type CreateEmulatorReturnType,
  createEmulator,
  type Emulator,
  FAULT_HEADER,
  VERSION_PREFIX,
} from "./emulator.js";
export {
  type ArmedFaultJson,
  EmulatorDropError,
  type FaultMatch,
  type FaultSpec,
} from "./faults.js";
export type { EmulatorPublicKeys } from "./keys.js";
export {
  DEFAULT_OIDC_ISSUERS,
  type EmulatorOptions,
  type OidcOptions,
  type WebAuthnOptions,
} from "./options.js";
export type { RequestLogEntry } from "./requestLog.js";
export { type EmulatorServer, type EmulatorServerOptions, startEmulatorServer } from "./server.js";
export { REQUEST_ID_HEADER, SIGNATURE_HEADER } from "./signedRetry.js";
export type { WalletOperationType, WebhookDelivery, WebhookOptions } from "./webhooks.js";
