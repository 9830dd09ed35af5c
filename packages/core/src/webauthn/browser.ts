// WebAuthn Level 3 §5.1.3 (create) and §5.1.4 (get) in the browser: JSON options in, JSON results
// out (the shapes of §5.1.8/§5.1.9 toJSON). Written out rather than taken from
// @simplewebauthn/browser, whose error-guessing helpers would cost ~2.5 KB min+gzip of the 20 KB
// budget; DOMException names are mapped in ./errors.ts instead.
import { base64UrlDecode, base64UrlEncode } from "../crypto/encoding.js";
import { SignetError } from "../errors.js";
import { toWebAuthnError } from "./errors.js";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialDescriptorJSON,
  RegistrationResponseJSON,
  WebAuthnProvider,
} from "./types.js";

const buffer = (text: string, name: string): ArrayBuffer =>
  new Uint8Array(base64UrlDecode(text, name)).buffer as ArrayBuffer;
const text = (data: ArrayBuffer | null | undefined): string =>
  base64UrlEncode(new Uint8Array(data ?? new ArrayBuffer(0)));

const descriptors = (list: PublicKeyCredentialDescriptorJSON[] | undefined, name: string) =>
  list?.map((d) => ({ ...d, id: buffer(d.id, name) }) as PublicKeyCredentialDescriptor);

function credentials(): CredentialsContainer {
  const container = (globalThis as { navigator?: { credentials?: CredentialsContainer } }).navigator
    ?.credentials;
  if (
    !container ||
    typeof (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential !== "function"
  ) {
    throw new SignetError("WEBAUTHN_UNSUPPORTED", "This browser does not support passkeys");
  }
  return container;
}

/**
 * The browser's `navigator.credentials` as a `WebAuthnProvider`. Nothing is read at import time;
 * support is checked when a ceremony starts. Starting a ceremony aborts one still pending, so a
 * second tap never meets "a request is already pending".
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", webauthn: createBrowserWebAuthn() });
 * ```
 */
export function createBrowserWebAuthn(): WebAuthnProvider {
  let pending: AbortController | undefined;
  // Options are decoded before anything else, so malformed options never cancel a pending prompt.
  const ceremony = async <O extends object, T>(
    options: () => O,
    run: (container: CredentialsContainer, request: O & { signal: AbortSignal }) => Promise<T>,
  ) => {
    const container = credentials();
    const request = options();
    pending?.abort();
    const controller = new AbortController();
    pending = controller;
    try {
      return await run(container, { ...request, signal: controller.signal });
    } catch (error) {
      throw toWebAuthnError(error);
    } finally {
      if (pending === controller) pending = undefined;
    }
  };
  return {
    register: (options) =>
      ceremony(
        () => ({
          publicKey: {
            ...options,
            challenge: buffer(options.challenge, "challenge"),
            user: { ...options.user, id: buffer(options.user.id, "user.id") },
            ...(options.excludeCredentials
              ? {
                  excludeCredentials: descriptors(options.excludeCredentials, "excludeCredentials"),
                }
              : {}),
          } as PublicKeyCredentialCreationOptions,
        }),
        async (container, request) => {
          const credential = (await container.create(request)) as PublicKeyCredential | null;
          if (!credential) throw new SignetError("WEBAUTHN_FAILED", "No passkey was created");
          const response = credential.response as AuthenticatorAttestationResponse;
          const transports = response.getTransports?.() ?? [];
          return {
            id: credential.id,
            rawId: text(credential.rawId),
            type: "public-key",
            response: {
              clientDataJSON: text(response.clientDataJSON),
              attestationObject: text(response.attestationObject),
              ...(transports.length ? { transports } : {}),
            },
            authenticatorAttachment: credential.authenticatorAttachment,
            clientExtensionResults: { ...credential.getClientExtensionResults() },
          } satisfies RegistrationResponseJSON;
        },
      ),
    authenticate: (options) =>
      ceremony(
        () => ({
          publicKey: {
            ...options,
            challenge: buffer(options.challenge, "challenge"),
            ...(options.allowCredentials
              ? { allowCredentials: descriptors(options.allowCredentials, "allowCredentials") }
              : {}),
          } as PublicKeyCredentialRequestOptions,
        }),
        async (container, request) => {
          const credential = (await container.get(request)) as PublicKeyCredential | null;
          if (!credential) throw new SignetError("WEBAUTHN_FAILED", "No passkey was used");
          const response = credential.response as AuthenticatorAssertionResponse;
          return {
            id: credential.id,
            rawId: text(credential.rawId),
            type: "public-key",
            response: {
              clientDataJSON: text(response.clientDataJSON),
              authenticatorData: text(response.authenticatorData),
              signature: text(response.signature),
              ...(response.userHandle ? { userHandle: text(response.userHandle) } : {}),
            },
            authenticatorAttachment: credential.authenticatorAttachment,
            clientExtensionResults: { ...credential.getClientExtensionResults() },
          } satisfies AuthenticationResponseJSON;
        },
      ),
  };
}
