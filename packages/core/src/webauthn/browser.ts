// WebAuthn Level 3 §5.1.3 (create) and §5.1.4 (get) in the browser, through @simplewebauthn/browser:
// it converts the JSON options and results, cancels a pending ceremony when a new one starts
// (its WebAuthnAbortService) and offers conditional UI (autofill). It loads as a chunk of its own,
// started when a client is created, so no tap waits for it; DOM errors become Signet codes in
// ./errors.ts.
import { base64UrlDecode } from "../crypto/encoding.js";
import { SignetError } from "../errors.js";
import { toWebAuthnError } from "./errors.js";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialDescriptorJSON,
  RegistrationResponseJSON,
  WebAuthnProvider,
} from "./types.js";

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

/** Every base64url field is decoded once up front: a bad one is `ENCODING_INVALID`, never a prompt. */
function checkEncoding(
  fields: Record<string, string | undefined>,
  descriptors: PublicKeyCredentialDescriptorJSON[] | undefined,
  listName: string,
): void {
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined) base64UrlDecode(value, name);
  for (const descriptor of descriptors ?? []) base64UrlDecode(descriptor.id, listName);
}

/**
 * The browser's passkeys (`navigator.credentials`) as a `WebAuthnProvider`, through
 * `@simplewebauthn/browser`. Nothing is read at import time; support is checked when a ceremony
 * starts. Starting a ceremony cancels one still pending (its promise rejects with
 * `WEBAUTHN_CANCELLED`), so a second tap never meets "a request is already pending".
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", webauthn: createBrowserWebAuthn() });
 * ```
 */
export function createBrowserWebAuthn(): WebAuthnProvider {
  let library: SimpleWebAuthn | undefined;
  let loading: Promise<SimpleWebAuthn> | undefined;
  const load = (): Promise<SimpleWebAuthn> => {
    loading ??= import("./ceremonies.js").then(
      (module) => (library = module),
      (cause: unknown) => {
        loading = undefined; // a failed chunk load can be tried again
        throw new SignetError("NETWORK", "could not load a part of Signet", {
          cause,
          retryable: true,
        });
      },
    );
    return loading;
  };
  // Once loaded, a ceremony calls WebAuthn in the same task as the tap: nothing is awaited first.
  const ceremony = async <T>(run: (lib: SimpleWebAuthn) => Promise<T>): Promise<T> => {
    assertSupported();
    const lib = library ?? (await load());
    try {
      return await run(lib);
    } catch (error) {
      throw toWebAuthnError(error);
    }
  };
  return {
    preload() {
      load().catch(() => undefined);
    },
    register: (options) =>
      ceremony(async (lib) => {
        checkEncoding(
          { challenge: options.challenge, "user.id": options.user?.id },
          options.excludeCredentials,
          "excludeCredentials",
        );
        const optionsJSON = options as Parameters<typeof lib.startRegistration>[0]["optionsJSON"];
        const result = await lib.startRegistration({ optionsJSON });
        const transports = result.response.transports ?? [];
        // The documented JSON shape only (no empty transports, none of the library's extras).
        return {
          id: result.id,
          rawId: result.rawId,
          type: "public-key",
          response: {
            clientDataJSON: result.response.clientDataJSON,
            attestationObject: result.response.attestationObject,
            ...(transports.length ? { transports } : {}),
          },
          authenticatorAttachment: result.authenticatorAttachment ?? null,
          clientExtensionResults: { ...result.clientExtensionResults },
        } satisfies RegistrationResponseJSON;
      }),
    authenticate: (options, extras) =>
      ceremony(async (lib) => {
        checkEncoding(
          { challenge: options.challenge },
          options.allowCredentials,
          "allowCredentials",
        );
        if (extras?.autofill === true) {
          // Checked here, so each gets its own code instead of a generic failure.
          if (!(await lib.browserSupportsWebAuthnAutofill()))
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
        const optionsJSON = options as Parameters<typeof lib.startAuthentication>[0]["optionsJSON"];
        const result = await lib.startAuthentication({
          optionsJSON,
          useBrowserAutofill: extras?.autofill === true,
        });
        const { userHandle } = result.response;
        return {
          id: result.id,
          rawId: result.rawId,
          type: "public-key",
          response: {
            clientDataJSON: result.response.clientDataJSON,
            authenticatorData: result.response.authenticatorData,
            signature: result.response.signature,
            ...(userHandle ? { userHandle } : {}),
          },
          authenticatorAttachment: result.authenticatorAttachment ?? null,
          clientExtensionResults: { ...result.clientExtensionResults },
        } satisfies AuthenticationResponseJSON;
      }),
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
