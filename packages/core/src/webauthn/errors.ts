// The one place that maps WebAuthn failures to Signet error codes: the DOMException names of
// WebAuthn Level 3 §5.1.3 (create) and §5.1.4 (get), @simplewebauthn/browser's diagnosis of them
// (its `WebAuthnError` codes), and, through the same rules, react-native-passkeys' native errors.
// A DOM name alone does not say enough: NotAllowedError is both "dismissed" and "timed out"
// (§5.1.3 step 24, §5.1.4.1 step 20), SecurityError both "bad RP id" and "bad origin", so each
// failure is read with the ceremony it ended and the options it ran with.
import { defined } from "../errors/defined.js";
import { SignetError, type WebAuthnErrorCode } from "../errors/errors.js";
import type { AuthenticationOptionsJSON, RegistrationOptionsJSON } from "./types.js";

/**
 * What a passkey ceremony was doing when it failed, for {@link toWebAuthnError}. Every field is
 * optional; the more it carries, the more precise the code and message (without `elapsedMs` a
 * `NotAllowedError` is a cancel, without `hostname` a `SecurityError` names no domain problem).
 */
export type WebAuthnFailureContext = {
  /** `registration` (`navigator.credentials.create`) or `authentication` (`.get`). */
  ceremony?: "registration" | "authentication" | undefined;
  /** The options the ceremony ran with: their relying party id and timeout are read. */
  options?: RegistrationOptionsJSON | AuthenticationOptionsJSON | undefined;
  /** Whether it was a conditional (autofill) request, which never times out on its own. */
  conditional?: boolean | undefined;
  /** Milliseconds from the start of the ceremony to its failure. */
  elapsedMs?: number | undefined;
  /** The page's host (`location.hostname`); absent in an app. */
  hostname?: string | undefined;
  /**
   * Set when the ceremony ran in an iOS or Android app, where the OS checks the app's association
   * with the relying party (`apple-app-site-association`, `assetlinks.json`) instead of a page's
   * host.
   */
  platform?: "ios" | "android" | undefined;
};

/**
 * A failure as the mapping reads it: a WebAuthn DOM error name (or its equivalent, for a native
 * error), @simplewebauthn/browser's code, and the native code, kept in `details`.
 */
export type WebAuthnFailure = {
  name?: string | undefined;
  webauthnCode?: string | undefined;
  native?: string | undefined;
};

type Code = WebAuthnErrorCode | "ENCODING_INVALID";

// What each DOM name means when nothing else is known (WebAuthn L3 §5.1.3, §5.1.4; atob()'s
// InvalidCharacterError for a malformed base64url option, before any prompt opens).
const byDomName: Record<string, [Code, string]> = {
  NotAllowedError: ["WEBAUTHN_CANCELLED", "The passkey prompt was dismissed"],
  AbortError: ["WEBAUTHN_CANCELLED", "The passkey ceremony was aborted"],
  InvalidStateError: ["WEBAUTHN_INVALID_STATE", "This device already has this passkey"],
  SecurityError: ["WEBAUTHN_SECURITY", "This page may not use passkeys"],
  NotSupportedError: ["WEBAUTHN_UNSUPPORTED", "No authenticator supports this"],
  ConstraintError: ["WEBAUTHN_UNSUPPORTED", "The authenticator cannot verify the user"],
  InvalidCharacterError: ["ENCODING_INVALID", "A passkey option is not valid base64url"],
};

/** The code and message for a failure, by its DOM name read with the ceremony's context. */
function classify(name: unknown, context: WebAuthnFailureContext | undefined): [Code, string] {
  const options = context?.options as { rp?: { id?: string }; rpId?: string; timeout?: number };
  const rpId = options?.rp?.id ?? options?.rpId;
  const host = context?.hostname;
  if (name === "SecurityError") {
    // In an app the OS checks the app's association with the RP id's domain (§5.1.3 step 8).
    if (context?.platform)
      return [
        "WEBAUTHN_RP_ID_INVALID",
        `This app is not associated with "${rpId}" (apple-app-site-association, assetlinks.json)`,
      ];
    // In a page the host decides, as @simplewebauthn/browser reads it for ERROR_INVALID_DOMAIN and
    // ERROR_INVALID_RP_ID: localhost or dotted labels ending in letters, never an IP address
    // (§5.1.3 step 7); the RP id is the host or a parent domain of it, the host's own when absent.
    if (host && host !== "localhost" && !/^([a-z\d-]+\.)+[a-z]{2,}$/i.test(host))
      return ["WEBAUTHN_DOMAIN_INVALID", `Passkeys need a domain name, not "${host}"`];
    if (host && rpId && rpId !== host && !host.endsWith(`.${rpId}`))
      return [
        "WEBAUTHN_RP_ID_INVALID",
        `The relying party id "${rpId}" does not cover "${host}": use this site's domain`,
      ];
  }
  // A prompt that ran to its timeout (WebAuthn L3 §15.1's 5 minutes when the options name none)
  // ended on its own: not a cancel (§5.1.3 step 24). Autofill (conditional) requests ignore
  // `timeout`. The browser's timer starts after ours: 250 ms of slack.
  if (
    name === "NotAllowedError" &&
    !context?.conditional &&
    (context?.elapsedMs ?? -1e9) + 250 >= (options?.timeout || 300_000)
  )
    return ["WEBAUTHN_TIMEOUT", "The passkey prompt timed out"];
  return Object.hasOwn(byDomName, String(name))
    ? (byDomName[String(name)] as [Code, string])
    : ["WEBAUTHN_FAILED", "The passkey ceremony failed"];
}

/**
 * Maps a failure already read into its parts to a `SignetError`, with `cause` as the original
 * error. The React Native adapter (`react-native/passkeys.ts`) calls this after reading its native
 * errors, so they follow the same rules.
 */
export function webAuthnFailure(
  failure: WebAuthnFailure,
  context: WebAuthnFailureContext | undefined,
  cause: unknown,
): SignetError {
  const [code, message] = classify(failure.name, context);
  const options = context?.options as { rp?: { id?: string }; rpId?: string; timeout?: number };
  // What the mapping judged by, so a developer can see why (none of it is secret).
  const details = defined({
    ceremony: context?.ceremony,
    ...failure,
    rpId: options?.rp?.id ?? options?.rpId,
    hostname: context?.hostname,
    timeoutMs: options?.timeout,
    conditional: context?.conditional,
    elapsedMs: context?.elapsedMs,
  });
  return new SignetError(code, message, { cause, details, retryable: code === "WEBAUTHN_TIMEOUT" });
}

/** `value[key]` of an object (a DOMException's `name`, a wrapper's `cause`, the library's `code`). */
const fieldOf = (value: unknown, key: string): unknown => (value as Record<string, unknown>)?.[key];

/**
 * Maps any error thrown by a WebAuthn ceremony to a `SignetError`, reading it with the ceremony's
 * context: a prompt that ran to its timeout is `WEBAUTHN_TIMEOUT` (retryable), not
 * `WEBAUTHN_CANCELLED`; a relying party id the page's host may not use is
 * `WEBAUTHN_RP_ID_INVALID`, an IP address or other non-domain host `WEBAUTHN_DOMAIN_INVALID`, each
 * with a message that says what to change. @simplewebauthn/browser's code goes to
 * `details.webauthnCode`, the DOM name to `details.name`, the original error to `cause`. A
 * `SignetError` passes through unchanged.
 *
 * @param error - What the ceremony threw: a `DOMException`, @simplewebauthn/browser's
 * `WebAuthnError` (which wraps one as its `cause`), or any other value.
 * @param context - The ceremony, its options, whether it was conditional, how long it ran, the
 * page's host (see {@link WebAuthnFailureContext}). Without it, a `NotAllowedError` is a cancel.
 * @returns A `SignetError` with a `WEBAUTHN_*` code (or `ENCODING_INVALID` for malformed options);
 * it never throws.
 * @example
 * ```ts
 * const started = Date.now();
 * try {
 *   await navigator.credentials.get({ publicKey });
 * } catch (error) {
 *   throw toWebAuthnError(error, {
 *     ceremony: "authentication",
 *     options: optionsJSON,
 *     elapsedMs: Date.now() - started,
 *     hostname: location.hostname,
 *   });
 * }
 * ```
 */
export function toWebAuthnError(error: unknown, context?: WebAuthnFailureContext): SignetError {
  if (error instanceof SignetError) return error;
  const inner = fieldOf(error, "cause");
  // A DOMException's standard `name` (React Native adapters throw plain errors carrying it), or a
  // wrapper's cause's. @simplewebauthn/browser's WebAuthnError borrows its cause's name and adds
  // its diagnosis as `code`, read by shape: the library is a lazy chunk, and `instanceof` would
  // pull it into every page.
  const name = [error, inner]
    .map((e) => fieldOf(e, "name"))
    .find((n) => Object.hasOwn(byDomName, String(n)));
  const code = fieldOf(error, "code");
  const webauthnCode = /^ERROR_[A-Z_]+$/.test(String(code)) ? (code as string) : undefined;
  return webAuthnFailure({ name: name as string | undefined, webauthnCode }, context, error);
}
