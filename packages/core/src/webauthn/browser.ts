// WebAuthn Level 3 ceremonies in the browser, through @simplewebauthn/browser.
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { SignetError } from "../errors.js";
import { toWebAuthnError } from "./errors.js";
import type { WebAuthnProvider } from "./types.js";

function assertSupported(): void {
  if (!browserSupportsWebAuthn()) {
    throw new SignetError("WEBAUTHN_UNSUPPORTED", "This browser does not support passkeys");
  }
}

/**
 * The browser's `navigator.credentials` as a `WebAuthnProvider`. Nothing is read at import
 * time; support is checked when a ceremony starts.
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", webauthn: createBrowserWebAuthn() });
 * ```
 */
export function createBrowserWebAuthn(): WebAuthnProvider {
  return {
    async register(options) {
      assertSupported();
      try {
        const result = await startRegistration({
          optionsJSON: options as PublicKeyCredentialCreationOptionsJSON,
        });
        return { ...result, clientExtensionResults: { ...result.clientExtensionResults } };
      } catch (error) {
        throw toWebAuthnError(error);
      }
    },
    async authenticate(options) {
      assertSupported();
      try {
        const result = await startAuthentication({
          optionsJSON: options as PublicKeyCredentialRequestOptionsJSON,
        });
        return { ...result, clientExtensionResults: { ...result.clientExtensionResults } };
      } catch (error) {
        throw toWebAuthnError(error);
      }
    },
  };
}
