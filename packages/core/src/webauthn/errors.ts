// The one place that maps WebAuthn failures to Signet error codes: the DOMException names of
// WebAuthn Level 3 §5.1.3 (create) and §5.1.4 (get), @simplewebauthn/browser's diagnosis of them
// (its `WebAuthnError` codes), and, through the same rules, react-native-passkeys' native errors.
// A DOM name alone does not say enough: NotAllowedError is both "dismissed" and "timed out"
// (§5.1.3 step 24, §5.1.4.1 step 20), SecurityError both "bad RP id" and "bad origin", so each
// failure is read with the ceremony it ended and the options it ran with.
import { defined } from "../defined.js";
import { SignetError, type WebAuthnErrorCode } from "../errors.js";
import type { AuthenticationOptionsJSON, RegistrationOptionsJSON } from "./types.js";

/**
 * What a passkey ceremony was doing when it failed, for {@link toWebAuthnError}. Every field is
 * optional but `ceremony`; the more it carries, the more precise the code and message.
 */
export type WebAuthnFailureContext = {
  /** `registration` (`navigator.credentials.create`) or `authentication` (`.get`). */
  ceremony: "registration" | "authentication";
  /** The options the ceremony ran with: their relying party id, timeout and requirements. */
  options?: RegistrationOptionsJSON | AuthenticationOptionsJSON | undefined;
  /** Whether it was a conditional (autofill) request, which never times out on its own. */
  conditional?: boolean | undefined;
  /** Milliseconds from the start of the ceremony to its failure. */
  elapsedMs?: number | undefined;
  /** The page's host (`location.hostname`); absent in an app. */
  hostname?: string | undefined;
  /**
   * Where the ceremony ran: in a page (`web`), where the browser checks the relying party id
   * against the origin, or in an iOS or Android app, where the OS checks the app's association
   * with it (`apple-app-site-association`, `assetlinks.json`).
   */
  platform?: "web" | "ios" | "android" | undefined;
};

/**
 * A failure as the mapping reads it: a WebAuthn DOM error name, @simplewebauthn/browser's code,
 * a native code, or a code and message fixed by the adapter for a native failure that has no
 * WebAuthn equivalent.
 */
export type WebAuthnFailure = {
  name?: string | undefined;
  webauthnCode?: string | undefined;
  native?: string | undefined;
  /** Where the failure came from, when its shape says so (an iOS or Android native error). */
  platform?: WebAuthnFailureContext["platform"];
  fixed?: { code: WebAuthnErrorCode | "ENCODING_INVALID"; message: string } | undefined;
};

/**
 * WebAuthn L3 §15.1 recommends 300 000 ms (5 minutes) as the timeout a client uses when the
 * options name none.
 */
const DEFAULT_TIMEOUT_MS = 300_000;
/** A failure this close to the timeout is the timeout: the browser's timer starts after ours. */
const TIMEOUT_SLACK_MS = 250;

/** The DOM names WebAuthn defines for its failures (and atob's, for malformed base64url). */
const DOM_NAMES = new Set([
  "AbortError",
  "ConstraintError",
  "InvalidStateError",
  "NotAllowedError",
  "NotSupportedError",
  "SecurityError",
  "TypeError",
  "UnknownError",
  "InvalidCharacterError",
]);

type Mapped = {
  code: WebAuthnErrorCode | "ENCODING_INVALID";
  message: string;
  retryable?: boolean;
};

function relyingPartyId(context: WebAuthnFailureContext | undefined): string | undefined {
  const options = context?.options as { rp?: { id?: unknown }; rpId?: unknown } | null | undefined;
  const id = context?.ceremony === "registration" ? options?.rp?.id : options?.rpId;
  return typeof id === "string" && id.length > 0 ? id : undefined;
}

/** localhost or a dotted name of letters, digits and hyphens: never an IP address (§5.1.3 step 7). */
function isValidDomain(hostname: string): boolean {
  if (hostname === "localhost") return true;
  const labels = hostname.toLowerCase().split(".");
  const tld = labels[labels.length - 1] ?? "";
  return (
    labels.length >= 2 &&
    labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) &&
    /^([a-z]{2,}|xn--[a-z0-9-]+)$/.test(tld)
  );
}

/** Whether `rpId` is the host itself or a parent domain of it (§5.1.3 step 8, §5.1.4.1 step 6). */
const rpIdCoversHost = (rpId: string, hostname: string): boolean =>
  hostname === rpId || hostname.endsWith(`.${rpId}`);

function securityFailure(
  failure: WebAuthnFailure,
  context: WebAuthnFailureContext | undefined,
): Mapped {
  const rpId = relyingPartyId(context);
  const platform = failure.platform ?? context?.platform;
  if (platform === "ios" || platform === "android") {
    const file =
      platform === "ios"
        ? "apple-app-site-association (webcredentials)"
        : "assetlinks.json (get_login_creds)";
    return {
      code: "WEBAUTHN_RP_ID_INVALID",
      message: `This app is not associated with the relying party${rpId ? ` "${rpId}"` : ""}: publish ${file} on that domain naming this app`,
    };
  }
  const hostname = context?.hostname;
  if (
    failure.webauthnCode === "ERROR_INVALID_DOMAIN" ||
    (hostname !== undefined && !isValidDomain(hostname))
  ) {
    return {
      code: "WEBAUTHN_DOMAIN_INVALID",
      message: `${hostname ? `"${hostname}"` : "This page's host"} cannot use passkeys: they need a domain name (localhost in development), not an IP address`,
    };
  }
  if (hostname !== undefined) {
    // No id in the options means the host's own (§5.1.3 step 8), which is never the problem.
    if (rpId !== undefined && !rpIdCoversHost(rpId, hostname)) {
      return {
        code: "WEBAUTHN_RP_ID_INVALID",
        message: `The relying party id "${rpId}" is neither "${hostname}" nor a parent domain of it: set the service's rpId to this site's domain, or list this origin in https://${rpId}/.well-known/webauthn`,
      };
    }
  } else if (failure.webauthnCode === "ERROR_INVALID_RP_ID") {
    // The library compared the id with the host; without either here its diagnosis stands.
    return {
      code: "WEBAUTHN_RP_ID_INVALID",
      message: "The relying party id is not valid for this page's domain",
    };
  }
  // The id covers the host (or nothing says otherwise): the page itself may not run WebAuthn.
  return {
    code: "WEBAUTHN_SECURITY",
    message: "This page may not use passkeys: it must be a secure context (https, or localhost)",
  };
}

function notAllowed(context: WebAuthnFailureContext | undefined): Mapped {
  const elapsed = context?.elapsedMs;
  // Conditional (autofill) requests ignore `timeout`: they end when the page or the user ends them.
  if (context?.conditional !== true && typeof elapsed === "number") {
    const timeout = context?.options?.timeout;
    const limit = typeof timeout === "number" && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS;
    if (elapsed + TIMEOUT_SLACK_MS >= limit) {
      return {
        code: "WEBAUTHN_TIMEOUT",
        message: `The passkey prompt timed out after ${Math.round(elapsed / 1000)} s with no answer`,
        retryable: true,
      };
    }
  }
  return {
    code: "WEBAUTHN_CANCELLED",
    message:
      context?.conditional === true
        ? "The passkey autofill request ended"
        : "The passkey prompt was dismissed or not allowed",
  };
}

function constraint(failure: WebAuthnFailure, context: WebAuthnFailureContext | undefined): Mapped {
  const selection = (context?.options as RegistrationOptionsJSON | undefined)
    ?.authenticatorSelection;
  const needsResidentKey =
    failure.webauthnCode === "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT" ||
    (failure.webauthnCode === undefined &&
      context?.ceremony === "registration" &&
      (selection?.requireResidentKey === true || selection?.residentKey === "required"));
  return {
    code: "WEBAUTHN_UNSUPPORTED",
    message: needsResidentKey
      ? "No authenticator here can keep a discoverable passkey"
      : "No authenticator here can verify the user (PIN or biometrics)",
  };
}

function notSupported(failure: WebAuthnFailure): Mapped {
  if (failure.webauthnCode === "ERROR_MALFORMED_PUBKEYCREDPARAMS")
    return {
      code: "WEBAUTHN_FAILED",
      message: 'The passkey options list no "public-key" algorithm',
    };
  return {
    code: "WEBAUTHN_UNSUPPORTED",
    message: "No authenticator here supports the requested algorithm (ES256)",
  };
}

/** The code and message for a failure, by its DOM name read with the ceremony's context. */
function classify(failure: WebAuthnFailure, context: WebAuthnFailureContext | undefined): Mapped {
  if (failure.fixed) return failure.fixed;
  const registration = context?.ceremony === "registration";
  switch (failure.name) {
    case "NotAllowedError":
      return notAllowed(context);
    case "AbortError":
      return {
        code: "WEBAUTHN_CANCELLED",
        message: "The passkey ceremony was cancelled: a newer one started, or the app aborted it",
      };
    case "SecurityError":
      return securityFailure(failure, context);
    case "InvalidStateError":
      return {
        code: "WEBAUTHN_INVALID_STATE",
        message: registration
          ? "This authenticator already holds a passkey for this account"
          : "The authenticator is busy or in a state that cannot answer",
      };
    case "ConstraintError":
      return constraint(failure, context);
    case "NotSupportedError":
      return notSupported(failure);
    case "InvalidCharacterError":
      // atob() on a malformed base64url option, before any prompt opens.
      return { code: "ENCODING_INVALID", message: "A passkey option is not valid base64url" };
    case "TypeError":
      if (failure.webauthnCode === "ERROR_INVALID_USER_ID_LENGTH")
        return { code: "WEBAUTHN_FAILED", message: "The passkey user id must be 1 to 64 bytes" };
      return { code: "WEBAUTHN_FAILED", message: "The passkey options are not valid" };
    case "UnknownError":
      return {
        code: "WEBAUTHN_FAILED",
        message: "The authenticator could not process the request",
        retryable: true,
      };
    default:
      return { code: "WEBAUTHN_FAILED", message: "The passkey ceremony failed" };
  }
}

/**
 * Maps a failure already read into its parts (a DOM name, @simplewebauthn/browser's code, a
 * native code) to a `SignetError`, with `cause` as the original error. The platform adapters
 * (`react-native/passkeys.ts`) call this after reading their native errors.
 */
export function webAuthnFailure(
  failure: WebAuthnFailure,
  context: WebAuthnFailureContext | undefined,
  cause: unknown,
): SignetError {
  const { code, message, retryable } = classify(failure, context);
  const details = defined({
    ceremony: context?.ceremony,
    name: failure.name,
    webauthnCode: failure.webauthnCode,
    native: failure.native,
    rpId: relyingPartyId(context),
    hostname: context?.hostname,
    timeoutMs: context?.options?.timeout,
    elapsedMs: context?.elapsedMs,
    conditional: context?.conditional,
  });
  return new SignetError(code, message, { cause, details, retryable });
}

const fieldOf = (value: unknown, key: "name" | "code" | "cause"): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;

/** The WebAuthn DOM name of `error`, when it has one of the names WebAuthn defines. */
function domName(error: unknown): string | undefined {
  const name = fieldOf(error, "name");
  // `TypeError` instances carry their name on the prototype, which fieldOf reads too.
  return typeof name === "string" && DOM_NAMES.has(name) ? name : undefined;
}

/**
 * @simplewebauthn/browser's `WebAuthnError` code (`ERROR_INVALID_RP_ID`, …). Read by shape: the
 * library loads as a lazy chunk, and an `instanceof` check would pull it into every page.
 */
function simpleWebAuthnCode(error: unknown): string | undefined {
  const code = fieldOf(error, "code");
  return typeof code === "string" && /^ERROR_[A-Z_]+$/.test(code) ? code : undefined;
}

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
  const name = domName(error) ?? domName(inner);
  const webauthnCode = simpleWebAuthnCode(error) ?? simpleWebAuthnCode(inner);
  return webAuthnFailure({ name, webauthnCode }, context, error);
}
