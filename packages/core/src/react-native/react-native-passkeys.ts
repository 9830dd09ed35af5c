/**
 * `@signet/core/react-native-passkeys`: passkey ceremonies through react-native-passkeys
 * (iOS 15+, Android 9+). `react-native-passkeys` is an optional peer dependency, imported only
 * here, so web bundles never see it.
 *
 * @module @signet/core/react-native-passkeys
 */
import * as Passkeys from "react-native-passkeys";
import type { WebAuthnProvider } from "../webauthn/types.js";
import { type PasskeysWebAuthnOptions, passkeysWebAuthn } from "./passkeys.js";

export { type PasskeysWebAuthnOptions, toPasskeysError } from "./passkeys.js";

/**
 * A {@link WebAuthnProvider} over react-native-passkeys, for `createClient({ webauthn })`. Its
 * failures are `SignetError`s, mapped by the same rules as the browser's (`toWebAuthnError`): a
 * dismissed prompt (iOS `ERR_USER_CANCELLED`, Android `UserCancelled`) is `WEBAUTHN_CANCELLED`,
 * or `WEBAUTHN_TIMEOUT` once the options' `timeout` has passed; an app not associated with the
 * relying party's domain `WEBAUTHN_RP_ID_INVALID`; an old OS `WEBAUTHN_UNSUPPORTED`; the rest
 * `WEBAUTHN_FAILED` (native code in `details.native`). The app must be associated with `rpId` (`apple-app-site-association`
 * webcredentials, `assetlinks.json` get_login_creds).
 *
 * @param options - `rpId`: used when the service's options carry no relying party id.
 * @returns A {@link WebAuthnProvider}.
 * @throws {SignetError} `INVALID_ARGUMENT` for an empty `rpId`.
 * @example
 * ```ts
 * import { createPasskeysWebAuthn } from "@signet/core/react-native-passkeys";
 * const client = createClient({ relayUrl, webauthn: createPasskeysWebAuthn({ rpId: "app.example" }) });
 * ```
 */
export function createPasskeysWebAuthn(options: PasskeysWebAuthnOptions = {}): WebAuthnProvider {
  return passkeysWebAuthn(Passkeys, options);
}
