// A WebAuthnProvider over react-native-passkeys (ASAuthorization on iOS, Credential Manager on
// Android), with the library's native failures mapped to Signet's WEBAUTHN_* codes.
import { SignetError } from "../errors/errors.js";
import {
  toWebAuthnError,
  type WebAuthnFailureContext,
  webAuthnFailure,
} from "../webauthn/errors.js";
import type {
  AuthenticateExtras,
  AuthenticationOptionsJSON,
  AuthenticationResponseJSON,
  RegistrationOptionsJSON,
  RegistrationResponseJSON,
  WebAuthnProvider,
} from "../webauthn/types.js";

/** The parts of `react-native-passkeys` the adapter calls, as that library documents them. */
export type PasskeysModule = {
  isSupported(): boolean;
  create(request: RegistrationOptionsJSON): Promise<unknown>;
  get(request: AuthenticationOptionsJSON): Promise<unknown>;
};

/** Options of `createPasskeysWebAuthn`. */
export type PasskeysWebAuthnOptions = {
  /**
   * The relying party id (your web domain, the one serving `apple-app-site-association` and
   * `assetlinks.json`), used when the service's options carry none: the native APIs need one.
   */
  rpId?: string | undefined;
};

/** A native failure: its WebAuthn equivalent (read by the shared rules), or a code of its own. */
type Native =
  | { name: string }
  | { code: "WEBAUTHN_UNSUPPORTED" | "WEBAUTHN_FAILED" | "ENCODING_INVALID"; message: string };

// iOS: the library rejects with Expo exceptions, whose `code` is ERR_ + the class name in
// upper snake case (UserCancelledException → ERR_USER_CANCELLED); ASAuthorizationError 1001
// (canceled) is UserCancelledException, 4004 (app not associated with the domain) NotConfigured.
// Those with a WebAuthn equivalent take its DOM name, so the shared rules read them with the
// ceremony's context (a cancel after the timeout is a timeout; a domain problem names the file).
const byIosCode: Record<string, Native> = {
  ERR_USER_CANCELLED: { name: "NotAllowedError" },
  ERR_NOT_CONFIGURED: { name: "SecurityError" },
  ERR_NOT_SUPPORTED: { code: "WEBAUTHN_UNSUPPORTED", message: "Passkeys need iOS 15 or later" },
  ERR_BIOMETRIC: {
    code: "WEBAUTHN_UNSUPPORTED",
    message: "This device has no biometrics set up for passkeys",
  },
  ERR_INVALID_CHALLENGE: { code: "ENCODING_INVALID", message: "The challenge is not base64url" },
  ERR_INVALID_USER_ID: { code: "ENCODING_INVALID", message: "The user id is not base64url" },
  ERR_MISSING_USER_ID: { code: "ENCODING_INVALID", message: "The user id is missing" },
  ERR_PENDING_PASSKEY_REQUEST: {
    code: "WEBAUTHN_FAILED",
    message: "Another passkey prompt is still open",
  },
  ERR_PASSKEY_REQUEST_FAILED: { code: "WEBAUTHN_FAILED", message: "The passkey request failed" },
};

// Android: the library rejects with the Credential Manager exception's kind as the message
// ("UserCancelled", "NoCredentials", …, or "DomError: <WebAuthn error name> - …").
const byAndroidKind: Record<string, Native> = {
  UserCancelled: { name: "NotAllowedError" },
  NoCredentials: {
    code: "WEBAUTHN_FAILED",
    message: "No passkey for this account is available on this device",
  },
  Interrupted: {
    code: "WEBAUTHN_FAILED",
    message: "The passkey prompt was interrupted; try again",
  },
  NotConfigured: {
    code: "WEBAUTHN_UNSUPPORTED",
    message: "No credential provider is set up on this device",
  },
  NotSupported: { code: "WEBAUTHN_UNSUPPORTED", message: "Passkeys need Android 9 or later" },
};

/** What a react-native-passkeys rejection says, and on which platform, when it is native. */
function readNative(
  error: unknown,
): { native: string; mapped: Native; platform: "ios" | "android" } | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && Object.hasOwn(byIosCode, code))
    return { native: code, mapped: byIosCode[code] as Native, platform: "ios" };
  const text = typeof message === "string" ? message : "";
  // The Android DOM error's class name is the WebAuthn error name (NotAllowedError, …).
  const dom = /\bDomError:\s*([A-Za-z]+)/.exec(text)?.[1];
  if (dom !== undefined)
    return { native: `DomError:${dom}`, mapped: { name: dom }, platform: "android" };
  const kind = Object.keys(byAndroidKind).find((name) => new RegExp(`\\b${name}\\b`).test(text));
  if (kind !== undefined)
    return { native: kind, mapped: byAndroidKind[kind] as Native, platform: "android" };
  return undefined;
}

/**
 * Maps whatever `react-native-passkeys` rejects with to a `SignetError`, through the same rules
 * as the browser's failures (`toWebAuthnError`): its iOS codes and Android messages that have a
 * WebAuthn equivalent are read as that, with the ceremony's context (a dismissal after the
 * timeout is `WEBAUTHN_TIMEOUT`; an app not associated with the relying party is
 * `WEBAUTHN_RP_ID_INVALID`, naming the file to publish); the others (an old OS, no biometrics, a
 * prompt already open) have codes of their own. The native code or kind goes to `details.native`;
 * native messages are not copied into Signet's. On web (DOMExceptions) it is `toWebAuthnError`.
 *
 * @param error - What the library rejected with.
 * @param context - The ceremony, its options and how long it ran.
 * @returns A `SignetError`; never throws.
 * @example
 * ```ts
 * try { await Passkeys.get(request) } catch (e) { throw toPasskeysError(e, { ceremony: "authentication", options: request }) }
 * ```
 */
export function toPasskeysError(error: unknown, context?: WebAuthnFailureContext): SignetError {
  if (error instanceof SignetError) return error;
  const read = readNative(error);
  if (read === undefined) return toWebAuthnError(error, context);
  const { native, mapped, platform } = read;
  if ("code" in mapped)
    return new SignetError(mapped.code, mapped.message, { cause: error, details: { native } });
  return webAuthnFailure({ name: mapped.name, native }, { ...context, platform }, error);
}

const isBase64Url = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && /^[A-Za-z0-9_-]+$/.test(value);

function malformed(what: string): never {
  throw new SignetError("WEBAUTHN_FAILED", `The passkey library returned no valid ${what}`);
}

function registrationFrom(result: unknown): RegistrationResponseJSON {
  const r = result as Partial<RegistrationResponseJSON> | null | undefined;
  const response = r?.response;
  if (
    !isBase64Url(r?.id) ||
    !isBase64Url(r.rawId) ||
    !isBase64Url(response?.clientDataJSON) ||
    !isBase64Url(response.attestationObject)
  ) {
    return malformed("registration");
  }
  return {
    id: r.id,
    rawId: r.rawId,
    type: "public-key",
    response: {
      clientDataJSON: response.clientDataJSON,
      attestationObject: response.attestationObject,
      ...(Array.isArray(response.transports) ? { transports: response.transports } : {}),
    },
    authenticatorAttachment: r.authenticatorAttachment ?? null,
    clientExtensionResults: r.clientExtensionResults ?? {},
  };
}

function assertionFrom(result: unknown): AuthenticationResponseJSON {
  const r = result as Partial<AuthenticationResponseJSON> | null | undefined;
  const response = r?.response;
  if (
    !isBase64Url(r?.id) ||
    !isBase64Url(r.rawId) ||
    !isBase64Url(response?.clientDataJSON) ||
    !isBase64Url(response.authenticatorData) ||
    !isBase64Url(response.signature)
  ) {
    return malformed("assertion");
  }
  return {
    id: r.id,
    rawId: r.rawId,
    type: "public-key",
    response: {
      clientDataJSON: response.clientDataJSON,
      authenticatorData: response.authenticatorData,
      signature: response.signature,
      userHandle: isBase64Url(response.userHandle) ? response.userHandle : null,
    },
    authenticatorAttachment: r.authenticatorAttachment ?? null,
    clientExtensionResults: r.clientExtensionResults ?? {},
  };
}

/**
 * The WebAuthn provider behind `@signet/core/react-native-passkeys`, over the module it is given.
 * @throws {SignetError} `INVALID_ARGUMENT` for an `rpId` that is not a string.
 */
export function passkeysWebAuthn(
  module: PasskeysModule,
  options: PasskeysWebAuthnOptions = {},
): WebAuthnProvider {
  const { rpId } = options;
  if (rpId !== undefined && (typeof rpId !== "string" || rpId.length === 0)) {
    throw new SignetError("INVALID_ARGUMENT", `"rpId" expected a domain name`);
  }
  const ready = () => {
    let supported = false;
    try {
      supported = typeof module?.isSupported === "function" && module.isSupported() === true;
    } catch {
      // A module that is not linked throws here: the same answer as an old OS.
    }
    if (!supported) {
      throw new SignetError(
        "WEBAUTHN_UNSUPPORTED",
        "Passkeys are not available: react-native-passkeys needs iOS 15 or Android 9 and a rebuilt app",
      );
    }
  };
  const relyingParty = (given: string | undefined): string => {
    const id = given ?? rpId;
    if (id === undefined) {
      throw new SignetError(
        "INVALID_ARGUMENT",
        `"rpId" is needed: the passkey options carry no relying party id`,
      );
    }
    return id;
  };
  return {
    async register(request) {
      ready();
      const id = relyingParty(request.rp?.id);
      const options = { ...request, rp: { ...request.rp, id } };
      const started = Date.now();
      let result: unknown;
      try {
        result = await module.create(options);
      } catch (error) {
        const elapsedMs = Date.now() - started;
        throw toPasskeysError(error, { ceremony: "registration", options, elapsedMs });
      }
      return registrationFrom(result);
    },
    async authenticate(request, extras?: AuthenticateExtras) {
      if (extras?.autofill) {
        throw new SignetError(
          "WEBAUTHN_UNSUPPORTED",
          "Passkey autofill is a browser feature; show a sign-in button instead",
        );
      }
      ready();
      const id = relyingParty(request.rpId);
      const options = { ...request, rpId: id };
      const started = Date.now();
      let result: unknown;
      try {
        result = await module.get(options);
      } catch (error) {
        const elapsedMs = Date.now() - started;
        throw toPasskeysError(error, { ceremony: "authentication", options, elapsedMs });
      }
      return assertionFrom(result);
    },
  };
}
