// WebAuthn Level 3 §5.1.3 (create) and §5.1.4 (get) in the browser, through @simplewebauthn/browser:
// it converts the JSON options and results, cancels a pending ceremony when a new one starts
// (its WebAuthnAbortService) and offers conditional UI (autofill). It loads as a chunk of its own,
// started when a client is created, so no tap waits for it; its errors become Signet codes in
// ./errors.ts, read with the ceremony's context (a timeout is not a cancel).
import { loadChunk } from "../crypto/chunk.js";
import { SignetError } from "../errors/errors.js";
import { toWebAuthnError, type WebAuthnFailureContext } from "./errors.js";
import type { WebAuthnProvider } from "./types.js";

type SimpleWebAuthn = typeof import("./ceremonies.js");

function assertSupported(): void {
  const global = globalThis as {
    navigator?: { credentials?: unknown };
    PublicKeyCredential?: unknown;
  };
  if (!global.navigator?.credentials || typeof global.PublicKeyCredential !== "function") {
    throw new SignetError("WEBAUTHN_UNSUPPORTED", "This browser does not support passkeys");
  }
}

/**
 * The browser's passkeys (`navigator.credentials`) as a `WebAuthnProvider`, through
 * `@simplewebauthn/browser`. Nothing is read at import time; support is checked when a ceremony
 * starts. Starting a ceremony cancels one still pending (its promise rejects with
 * `WEBAUTHN_CANCELLED`), so a second tap never meets "a request is already pending". Failures
 * are mapped by {@link toWebAuthnError} with the ceremony's context: a prompt left to its
 * `timeout` is `WEBAUTHN_TIMEOUT`, a relying party id this page may not use
 * `WEBAUTHN_RP_ID_INVALID`, @simplewebauthn/browser's code is in `details.webauthnCode`.
 *
 * @returns A {@link WebAuthnProvider} for `createClient({ webauthn })`.
 * @throws Nothing at creation; its ceremonies reject with `SignetError` (`WEBAUTHN_*`).
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", webauthn: createBrowserWebAuthn() });
 * ```
 */
export function createBrowserWebAuthn(): WebAuthnProvider {
  let library: SimpleWebAuthn | undefined;
  const load = (): Promise<SimpleWebAuthn> =>
    loadChunk(() => import("./ceremonies.js")).then((module) => (library = module));
  // Once loaded, a ceremony calls WebAuthn in the same task as the tap: nothing is awaited first.
  // A failure is read with the ceremony's context: its options, whether it was conditional, how
  // long it ran against its timeout, and the page's host against the relying party id.
  const ceremony = async <T>(
    context: WebAuthnFailureContext,
    run: (lib: SimpleWebAuthn) => Promise<T>,
  ): Promise<T> => {
    assertSupported();
    const lib = library ?? (await load());
    const started = Date.now();
    try {
      return await run(lib);
    } catch (error) {
      const hostname = (globalThis as { location?: { hostname?: unknown } }).location?.hostname;
      throw toWebAuthnError(error, {
        ...context,
        elapsedMs: Date.now() - started,
        hostname: typeof hostname === "string" ? hostname : undefined,
      });
    }
  };
  return {
    preload() {
      load().catch(() => undefined);
    },
    register: (options) =>
      ceremony({ ceremony: "registration", options }, (lib) => lib.register(options)),
    authenticate: (options, extras) =>
      ceremony(
        { ceremony: "authentication", options, conditional: extras?.autofill === true },
        (lib) => lib.authenticate(options, extras),
      ),
  };
}

/**
 * Whether this browser can offer passkeys in autofill (WebAuthn conditional mediation), for
 * `signInWithPasskey(client, { …, autofill: true })`. Never throws; `false` outside browsers.
 *
 * @example
 * ```ts
 * if (await browserSupportsPasskeyAutofill()) void signInWithPasskey(client, { credentialId, autofill: true });
 * ```
 */
export async function browserSupportsPasskeyAutofill(): Promise<boolean> {
  try {
    assertSupported();
    return await (await import("./ceremonies.js")).browserSupportsWebAuthnAutofill();
  } catch {
    return false;
  }
}
