import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { CRYPTO_ERRORS, REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import { establishSession, parseAuthSession } from "../session/establishSession.js";
import type { CallOptions } from "../session/events.js";
import type { Session } from "../session/sessionStore.js";
import { CREDENTIAL_VERIFY } from "./verifyOtp.js";

export type SignInWithOAuthParameters = CallOptions & {
  /** The OAUTH credential (`AuthMethod:…`). */
  credentialId: string;
  /**
   * Gets a fresh OIDC id token (less than 60 s old) from the provider with `nonce` set to the
   * given value: the SHA-256 of the session key's public key, binding the token to this device.
   */
  getIdToken: (parameters: { nonce: string }) => Promise<string>;
  /**
   * Use the deprecated legacy flow, as the service's own clients do: an uncompressed key, and a
   * session key made by the service and returned sealed to it (docs/protocol.md §4). Default false.
   */
  legacy?: boolean | undefined;
};

export type SignInWithOAuthReturnType = Session;
export type SignInWithOAuthErrorType = SignetErrorOf<ActionErrorCode<"signInWithOAuth">>;

/**
 * Signs in with an OAuth (OIDC) credential: a fresh client-held key, `oauthNonce` of its exact
 * compressed public key, then `verify` in one call (docs/protocol.md §6).
 *
 * @throws {SignetError} `INVALID_ARGUMENT` (no token), `UNAUTHORIZED` (stale token, wrong identity or nonce), `NETWORK`.
 * @example
 * ```ts
 * await signInWithOAuth(client, {
 *   credentialId,
 *   getIdToken: ({ nonce }) => google.signIn({ nonce }),
 * });
 * ```
 */
export async function signInWithOAuth(
  client: SignetClient,
  parameters: SignInWithOAuthParameters,
): Promise<SignInWithOAuthReturnType> {
  const { credentialId, getIdToken, legacy = false } = assertCall(client, parameters);
  assertServiceId("credentialId", credentialId, "AuthMethod");
  assertArgument(typeof getIdToken === "function", "getIdToken", "a function", typeof getIdToken);
  const key = legacy
    ? { legacy: await client.crypto.generateDecryptionKey() }
    : await client.crypto.generateSigningKey();
  // The nonce binds the token to the exact clientPublicKey string sent (docs/protocol.md §6).
  const clientPublicKey = "legacy" in key ? key.legacy.publicKeyUncompressed : key.publicKey;
  const nonce = await client.crypto.oauthNonce(clientPublicKey);
  const oidcToken = await getIdToken({ nonce });
  assertArgument(
    typeof oidcToken === "string" && oidcToken.length > 0,
    "oidcToken",
    "a JWT string",
    typeof oidcToken,
  );
  const body = await client.request<unknown>(
    {
      ...at(CREDENTIAL_VERIFY, [credentialId]),
      body: JSON.stringify({ type: "OAUTH", oidcToken, clientPublicKey }),
    },
    parameters,
  );
  const { key: _key, ...session } = await establishSession(client, {
    onEvent: parameters.onEvent,
    session: parseAuthSession(body),
    key,
    credentialId,
  });
  return session;
}

/** signInWithOAuth's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const signInWithOAuthRow = {
  chunk: "session",
  summary:
    "a fresh key, `oauthNonce` of its exact public key into your OIDC request, one verify; `legacy: true` for a service-made session key",
  parameters: "`{ credentialId, getIdToken: ({ nonce }) => Promise<idToken>, legacy? }`",
  resolvesTo: "`Session`",
  requests: [{ route: CREDENTIAL_VERIFY }],
  errors: { client: [REQUEST_ERRORS, CRYPTO_ERRORS, "KEY_STORAGE_UNAVAILABLE"] },
  hook: {
    kind: "mutation",
    name: "useSignInWithOAuth",
    doc: "Signs in with an OIDC token bound to a fresh key (`signInWithOAuth`).",
    invalidates: ["sessions"],
  },
} as const satisfies ActionSourceRow;
