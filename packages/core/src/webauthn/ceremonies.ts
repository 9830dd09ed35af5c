// WebAuthn Level 3 §5.1.3 (create) and §5.1.4 (get) through @simplewebauthn/browser: the lazy
// chunk of the browser provider (./browser.ts), with the parts of the library Signet uses (a
// dynamic import of the package itself would keep every export) and the steps around them that
// only a ceremony needs.
import {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
import { SignetError } from "../errors/errors.js";
import type {
  AuthenticateExtras,
  AuthenticationOptionsJSON,
  AuthenticationResponseJSON,
  RegistrationOptionsJSON,
  RegistrationResponseJSON,
} from "./types.js";

export { browserSupportsWebAuthnAutofill };

/** `navigator.credentials.create()` on JSON options; transports omitted rather than empty. */
export async function register(
  options: RegistrationOptionsJSON,
): Promise<RegistrationResponseJSON> {
  const optionsJSON = options as Parameters<typeof startRegistration>[0]["optionsJSON"];
  const result = await startRegistration({ optionsJSON });
  // Transports are omitted rather than empty (docs/protocol.md §3).
  if (!result.response.transports?.length) delete result.response.transports;
  return result as RegistrationResponseJSON;
}

/** `navigator.credentials.get()` on JSON options, as a modal prompt or in autofill. */
export async function authenticate(
  options: AuthenticationOptionsJSON,
  extras?: AuthenticateExtras,
): Promise<AuthenticationResponseJSON> {
  const autofill = extras?.autofill === true;
  if (autofill) {
    // Checked here, so each gets its own code instead of a generic failure.
    if (!(await browserSupportsWebAuthnAutofill()))
      throw new SignetError(
        "WEBAUTHN_UNSUPPORTED",
        "This browser cannot offer passkeys in autofill",
      );
    if (!document.querySelector("input[autocomplete$='webauthn']"))
      throw new SignetError(
        "INVALID_ARGUMENT",
        'Passkey autofill needs an <input autocomplete="username webauthn"> on the page',
      );
  }
  const optionsJSON = options as Parameters<typeof startAuthentication>[0]["optionsJSON"];
  const result = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill });
  if (!result.response.userHandle) delete result.response.userHandle;
  return result as AuthenticationResponseJSON;
}
