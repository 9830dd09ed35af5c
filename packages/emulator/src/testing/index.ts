/**
 * A software passkey authenticator for tests in Node.
 *
 * @module @signet/emulator/testing
 */
// Test helpers for Node: a software passkey authenticator, usable directly or as a
// `WebAuthnProvider` of a Signet client.
export type { CborValue } from "./cbor.js";
export { encodeCbor } from "./cbor.js";
export { createSoftAuthenticator } from "./softAuthenticator.js";
export type {
  Base64UrlString,
  CeremonyOverrides,
  CreationOptionsJSON,
  CredentialDescriptorJSON,
  RequestOptionsJSON,
  SoftAuthenticationResponseJSON,
  SoftAuthenticator,
  SoftAuthenticatorOptions,
  SoftCredential,
  SoftRegistrationResponseJSON,
  SoftWebAuthnProvider,
} from "./softAuthenticatorTypes.js";
