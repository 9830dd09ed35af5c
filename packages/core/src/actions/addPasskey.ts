// docs/protocol.md §5 (registration): the integrator backend issues the challenge; the add is a signed request.

import { assertCall, assertServiceId, query } from "../arguments/arguments.js";
import { passkeyNickname, serviceTransports } from "../arguments/fieldArguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { SESSION_SIGNED_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, isSignetError, type SignetErrorOf } from "../errors/errors.js";
import { notePasskeys } from "../sca/scaLedger.js";
import type { CallOptions } from "../session/events.js";
import { isExpired } from "../session/expiry/lapse.js";
import { expiredSessionError } from "../session/expiry/sessionExpiry.js";
import { requireSession, signWithSession } from "../session/sessionSigner.js";
import { type CheckPayload, expectActivity } from "../transport/payloadCheck.js";
import { expectShape } from "../transport/responseShape.js";
import type { AuthMethodJson } from "../transport/wire.js";
import { toWebAuthnError } from "../webauthn/errors.js";

export type AddPasskeyParameters = CallOptions & {
  accountId: string;
  /**
   * 1–100 characters after trimming: Unicode letters and numbers, spaces and `. _ - ' ( )`
   * (`"Téléphone de Zoë"` is fine).
   */
  nickname: string;
  /** The registration challenge your backend issued (random, single use, base64url). */
  challenge: string;
  /** The relying party: `id` is your domain (`localhost` in development). */
  rp: { id?: string; name: string };
  /** The WebAuthn user handle (base64url) and names shown by the authenticator. */
  user: { id: string; name: string; displayName: string };
  /** Prompt time limit in ms. Default 60 000. */
  timeoutMs?: number | undefined;
};

export type AddPasskeyReturnType = AuthMethodJson;
export type AddPasskeyErrorType = SignetErrorOf<ActionErrorCode<"addPasskey">>;

/**
 * Creates a passkey on this device and adds it to the wallet: the WebAuthn prompt opens first
 * (inside the user's tap), then the credential add is stamped by a held session.
 *
 * A lapsed challenge starts over once with a fresh one; an add whose answer was lost is
 * resolved by looking the new passkey up by its credential id (docs/architecture.md "Retries").
 *
 * @throws {SignetError} `WEBAUTHN_CANCELLED`, `WEBAUTHN_INVALID_STATE`, `NO_SESSION`,
 * `SESSION_EXPIRED` (the service no longer knows the session: sign in again),
 * `PASSKEY_CREDENTIAL_ALREADY_EXISTS`, `INVALID_INPUT`.
 * @example
 * ```ts
 * const { challenge } = await fetch("/api/demo/passkey-challenge").then((r) => r.json());
 * await addPasskey(client, { accountId, nickname: "My phone", challenge, rp: { id: "localhost", name: "Demo" }, user });
 * ```
 */
export async function addPasskey(
  client: SignetClient,
  parameters: AddPasskeyParameters,
): Promise<AddPasskeyReturnType> {
  assertCall(client, parameters);
  const { accountId, challenge, rp, user } = parameters;
  assertServiceId("accountId", accountId, "InternalAccount");
  const nickname = passkeyNickname(parameters.nickname);
  assertArgument(
    typeof challenge === "string" && /^[A-Za-z0-9_-]{16,}$/.test(challenge),
    "challenge",
    "a base64url string of at least 16 characters",
    typeof challenge,
  );
  const webauthn = client.webauthn();
  // iOS Safari drops a passkey prompt that follows slow async work after the tap: when an
  // unexpired session is already loaded (the app called getSession earlier), the prompt opens at
  // once and the session key is fetched afterwards; otherwise the sessions are loaded first, so
  // that no passkey is ever created for an add that cannot be signed.
  const now = client.clock.now();
  if (!client.sessions.getSnapshot()[accountId]?.some((s) => !isExpired(s, now)))
    await requireSession(client, { accountId });
  const registration = await webauthn
    .register({
      rp,
      user,
      challenge,
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      timeout: parameters.timeoutMs ?? 60_000,
      authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
      attestation: "none",
    })
    .catch((error: unknown) => {
      throw toWebAuthnError(error);
    });
  // A wallet sign-in passkey: it never answers an SCA challenge on this client (§11).
  notePasskeys(client, "signIn", [registration.rawId]);
  const session = await requireSession(client, { accountId });
  // docs/protocol.md §10: only the service's transports go (browsers report `smart-card`, `cable`).
  const transports = serviceTransports(registration.response.transports);
  const { body: credential } = await client
    .signed(
      {
        operation: "addPasskey",
        pending: { resumable: true, accountId },
        ...at(CREDENTIAL_ADD),
        body: JSON.stringify({
          type: "PASSKEY",
          accountId,
          nickname,
          challenge,
          attestation: {
            credentialId: registration.rawId,
            clientDataJson: registration.response.clientDataJSON,
            attestationObject: registration.response.attestationObject,
            ...(transports.length ? { transports } : {}),
          },
        }),
        sign: signWithSession(client, session),
        checkPayload: addPasskeyPayload(client, {
          accountId,
          nickname,
          challenge,
          credentialId: registration.rawId,
          clientDataJson: registration.response.clientDataJSON,
          attestationObject: registration.response.attestationObject,
        }),
        parseBody: (answer) =>
          expectShape<AuthMethodJson>(answer, ["id", "accountId", "type"], "AuthMethod"),
        // The add went unanswered (a dropped connection, a 5xx after the stamp passed, a relay
        // restart): the service is asked whether it holds the passkey this device just made. If it
        // does, that is the result; if not, nothing was added and a fresh challenge is safe.
        resolveAmbiguous: async () => {
          const found = await findPasskey(client, accountId, registration.rawId, parameters.signal);
          return found ? { status: 201, body: found } : "restart";
        },
      },
      parameters,
    )
    .catch(async (error: unknown) => {
      // A duplicate met by a re-send of this very add (its first send's answer was lost): the
      // credential id is the one the authenticator made in this call, so if the service holds it,
      // the first send took effect and that passkey is the result. Without a re-send, a duplicate
      // is an authenticator that replayed an old credential, and stays an error. (A relay that
      // lied here could as well have answered 201: no trust is added.)
      if (
        isSignetError(error, "PASSKEY_CREDENTIAL_ALREADY_EXISTS") &&
        error.details.ambiguousResend === true
      ) {
        const found = await findPasskey(
          client,
          accountId,
          registration.rawId,
          parameters.signal,
        ).catch(() => undefined);
        if (found) return { body: found };
      }
      throw await expiredSessionError(client, error, session, parameters.signal);
    });
  return credential;
}

/**
 * What adding a passkey signs (docs/protocol.md §11): one authenticator whose attestation is the
 * one this device's ceremony just made. Another would let its holder sign in as the user. Where
 * the payload names the authenticator's name and registration challenge (the service's example
 * does), they are the ones this device sent.
 */
export function addPasskeyPayload(
  client: SignetClient,
  request: {
    accountId: string;
    nickname?: string | undefined;
    challenge?: string | undefined;
    credentialId: string;
    clientDataJson: string;
    attestationObject: string;
  },
): CheckPayload {
  return expectActivity(client, request.accountId, [
    {
      types: ["ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2"],
      equals: {
        "authenticators.0.attestation.credentialId": request.credentialId,
        "authenticators.0.attestation.clientDataJson": request.clientDataJson,
        "authenticators.0.attestation.attestationObject": request.attestationObject,
      },
      where: {
        ...(request.nickname === undefined
          ? {}
          : { "authenticators.0.authenticatorName": request.nickname }),
        ...(request.challenge === undefined
          ? {}
          : { "authenticators.0.challenge": request.challenge }),
      },
      counts: { authenticators: 1 },
    },
  ]);
}

/** The account's passkey with this WebAuthn credential id, if the service holds one. */
async function findPasskey(
  client: SignetClient,
  accountId: string,
  credentialId: string,
  signal: AbortSignal | undefined,
): Promise<AuthMethodJson | undefined> {
  const listed = await client.request<{ data?: AuthMethodJson[] }>(
    {
      ...at(CREDENTIALS_LIST, [], query({ accountId })),
      operation: "addPasskey",
    },
    { signal },
  );
  return listed?.data?.find(
    (entry) => entry?.type === "PASSKEY" && entry.credentialId === credentialId,
  );
}

// The credentials' routes live here, in the module that loads with the page, rather than beside
// addCredential and listCredentials: those load in the wallet chunk, which imports them from here
// (the other way round, the page would import the whole chunk's modules).

/** `POST /auth/credentials`. */
export const CREDENTIAL_ADD = {
  method: "POST",
  path: "/auth/credentials",
  expectedStatus: 201,
} as const satisfies ActionRoute;

/** `GET /auth/credentials`. */
export const CREDENTIALS_LIST = {
  method: "GET",
  path: "/auth/credentials",
} as const satisfies ActionRoute;

/** addPasskey's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const addPasskeyRow = {
  chunk: "wallet",
  sensitive: true,
  summary: "WebAuthn registration with your backend's challenge, then the signed add",
  parameters: "`{ accountId, nickname, challenge, rp, user, timeoutMs? }`",
  resolvesTo: "`AuthMethodJson`",
  requests: [
    {
      route: CREDENTIAL_ADD,
      signed: {
        signer: "session",
        check: addPasskeyPayload,
        signedBy: "a session of a verified credential of the account",
      },
    },
  ],
  errors: { client: SESSION_SIGNED_ERRORS, passkey: true },
  hook: {
    kind: "mutation",
    name: "useAddPasskey",
    doc: "Registers a passkey on the account (`addPasskey`). Call `mutate` directly in the tap's event handler.",
    invalidates: ["credentials"],
  },
} as const satisfies ActionSourceRow;
