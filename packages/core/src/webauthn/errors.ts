// The one place that maps WebAuthn failures (DOMException names, WebAuthn §5.1.3/§5.1.4 error
// cases) to Signet error codes.
import { SignetError } from "../errors.js";

const byDomName: Record<string, { code: string; message: string }> = {
  NotAllowedError: {
    code: "WEBAUTHN_CANCELLED",
    message: "The passkey prompt was dismissed",
  },
  AbortError: { code: "WEBAUTHN_CANCELLED", message: "The passkey ceremony was aborted" },
  InvalidStateError: {
    code: "WEBAUTHN_INVALID_STATE",
    message: "This device already has this passkey",
  },
  SecurityError: {
    code: "WEBAUTHN_SECURITY",
    message: "This origin may not use that relying party",
  },
  NotSupportedError: {
    code: "WEBAUTHN_UNSUPPORTED",
    message: "No authenticator supports this",
  },
  ConstraintError: {
    code: "WEBAUTHN_UNSUPPORTED",
    message: "The authenticator cannot verify the user",
  },
  // atob() on a malformed base64url option, before any prompt opens.
  InvalidCharacterError: {
    code: "ENCODING_INVALID",
    message: "A passkey option is not valid base64url",
  },
};

/**
 * The DOM error name of `error`, when it is one this file maps. DOMExceptions are told apart by
 * their standard `name`, not by class, and React Native adapters throw plain errors carrying it.
 */
function knownName(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" && Object.hasOwn(byDomName, name) ? name : undefined;
}

/**
 * Maps any error thrown by a WebAuthn ceremony to a `SignetError` with a `WEBAUTHN_*` code.
 * A `SignetError` passes through unchanged; a wrapper's `cause` is examined first.
 *
 * @example
 * ```ts
 * try { await navigator.credentials.get(options) } catch (e) { throw toWebAuthnError(e) }
 * ```
 */
export function toWebAuthnError(error: unknown): SignetError {
  if (error instanceof SignetError) return error;
  const inner = (error as { cause?: unknown } | null | undefined)?.cause;
  const name = knownName(inner) ?? knownName(error);
  // @simplewebauthn/browser's WebAuthnError wraps the DOMException and borrows its name: the
  // DOMException is the real cause, and the one passed on. Other wrappers stay the cause.
  const borrowed =
    typeof inner === "object" &&
    inner !== null &&
    (inner as { name?: unknown }).name === (error as { name?: unknown }).name;
  const cause = borrowed ? inner : error;
  const known = name === undefined ? undefined : byDomName[name];
  if (known) return new SignetError(known.code, known.message, { cause, details: { name } });
  return new SignetError("WEBAUTHN_FAILED", "The passkey ceremony failed", { cause });
}
