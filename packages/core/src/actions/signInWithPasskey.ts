// docs/protocol.md §5 (passkey authentication): /challenge binds a fresh client-held key, the WebAuthn
// challenge is the UTF-8 bytes of the 64-hex string, /verify carries the assertion and Request-Id.

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import type { DecryptionKey, SigningKey } from "../crypto/backend.js";
import { base64UrlEncode, utf8Encode } from "../crypto/encoding.js";
import {
  BUNDLE_ERRORS,
  CRYPTO_ERRORS,
  REQUEST_ERRORS,
  SIGNED_REQUEST_ERRORS,
} from "../errors/errorGroups.js";
import { SignetError, type SignetErrorOf } from "../errors/errors.js";
import { refusedByService } from "../errors/refusedByService.js";
import { sendUnsignedKept } from "../pending/unsignedKept.js";
import { notePasskeys } from "../sca/scaLedger.js";
import {
  establishSession,
  parseAuthSession,
  sessionSigningKey,
  verifiedNow,
} from "../session/establishSession.js";
import type { CallOptions } from "../session/events.js";
import { forgetPossibleSession, notePossibleSession } from "../session/possibleSessions.js";
import type { Session } from "../session/sessionStore.js";
import { requestUntilSettled } from "../transport/pollUntil.js";
import { REQUEST_ID_HEADER } from "../transport/protocol.js";
import { expectShape } from "../transport/responseShape.js";
import type { AuthSessionJson, PasskeyAuthChallengeJson } from "../transport/wire.js";
import { toWebAuthnError } from "../webauthn/errors.js";
import { CREDENTIAL_CHALLENGE } from "./requestOtp.js";
import { adoptProvenSession, refreshSessionPayload, SESSION_REFRESH } from "./settleSessions.js";
import { CREDENTIAL_VERIFY } from "./verifyOtp.js";

export type PreparePasskeySignInParameters = CallOptions & {
  /** The PASSKEY credential (`AuthMethod:…`). */
  credentialId: string;
  /** Use the deprecated legacy flow (uncompressed key, sealed session key). Default false. */
  legacy?: boolean | undefined;
};

/** A challenge fetched ahead of the user's tap. Single use; valid until `expiresAt`. */
export type PreparedPasskeySignIn = {
  readonly credentialId: string;
  readonly challenge: PasskeyAuthChallengeJson;
  /** @internal the key bound to the challenge. */
  readonly key: SigningKey | { legacy: DecryptionKey };
};

/**
 * Fetches a passkey challenge for a fresh session key, so that `signInWithPasskey` can open the
 * passkey prompt at once inside the user's tap (iOS Safari drops prompts after slow async work).
 *
 * @throws {SignetError} `RATE_LIMITED`, `MALFORMED_RESPONSE`, `NETWORK`.
 * @example
 * ```ts
 * const prepared = await preparePasskeySignIn(client, { credentialId }); // on screen load
 * button.onclick = () => signInWithPasskey(client, { prepared });
 * ```
 */
export async function preparePasskeySignIn(
  client: SignetClient,
  parameters: PreparePasskeySignInParameters,
): Promise<PreparePasskeySignInReturnType> {
  const { credentialId, legacy = false } = assertCall(client, parameters);
  assertServiceId("credentialId", credentialId, "AuthMethod");
  const key = legacy
    ? { legacy: await client.crypto.generateDecryptionKey() }
    : await client.crypto.generateSigningKey();
  const clientPublicKey = "legacy" in key ? key.legacy.publicKeyUncompressed : key.publicKey;
  // docs/protocol.md §2.5: a 200 endpoint may answer PROCESSING; the same request goes again.
  const body = await requestUntilSettled(
    client,
    {
      ...at(CREDENTIAL_CHALLENGE, [credentialId]),
      body: JSON.stringify({ clientPublicKey }),
      // A repeat only makes another challenge for the same key: safe to retry.
      idempotent: true,
    },
    parameters,
    "preparePasskeySignIn",
  );
  const challenge = expectShape<PasskeyAuthChallengeJson>(
    body,
    ["credentialId", "challenge", "requestId", "expiresAt"],
    "passkey challenge",
  );
  if (!/^[0-9a-f]{64}$/.test(challenge.challenge) || !challenge.requestId.startsWith("Request:")) {
    throw new SignetError(
      "CHALLENGE_INVALID",
      "The passkey challenge is not 64 hex digits and a Request id",
    );
  }
  return { credentialId, challenge, key };
}

export type SignInWithPasskeyParameters = CallOptions &
  ({ prepared: PreparedPasskeySignIn } | PreparePasskeySignInParameters) & {
    /** The relying party id, when it differs from the page's domain. */
    rpId?: string | undefined;
    /** Prompt time limit in ms. Default 60 000. */
    timeoutMs?: number | undefined;
    /**
     * Offer the passkey in the browser's autofill (conditional UI) instead of a modal prompt: the
     * call waits until the user picks it from the suggestions of an
     * `<input autocomplete="username webauthn">`. Check `browserSupportsPasskeyAutofill()` first.
     * Autofill lists every passkey of the site; picking another one than `credentialId`'s fails
     * with `WEBAUTHN_WRONG_CREDENTIAL`.
     */
    autofill?: boolean | undefined;
  };

export type SignInWithPasskeyReturnType = Session;

export type PreparePasskeySignInReturnType = PreparedPasskeySignIn;
export type PreparePasskeySignInErrorType = SignetErrorOf<ActionErrorCode<"preparePasskeySignIn">>;
export type SignInWithPasskeyErrorType = SignetErrorOf<ActionErrorCode<"signInWithPasskey">>;

/**
 * Signs in with a passkey: challenge (or a prepared one), WebAuthn assertion, verify, then the
 * proof that the session is this device's key's: the passkey's challenge hashes a session-creation
 * body the device never sees, so a backend could have swapped the key the session is for. The new
 * session is refreshed at once, stamped by the device's key (which the service accepts only from
 * that key's session), and the session held is the refreshed one, under a fresh key of this
 * device. Where the service refuses the stamp, nothing is held or signed and `SESSION_KEY_MISMATCH`
 * is thrown (docs/protocol.md §11).
 *
 * @throws {SignetError} `WEBAUTHN_CANCELLED`, `WEBAUTHN_*`, `CHALLENGE_EXPIRED`, `UNAUTHORIZED`,
 *   `SESSION_KEY_MISMATCH` (the session is not this device's key's), `PAYLOAD_MISMATCH`, `NETWORK`.
 * @example
 * ```ts
 * const session = await signInWithPasskey(client, { credentialId });
 * ```
 */
export async function signInWithPasskey(
  client: SignetClient,
  parameters: SignInWithPasskeyParameters,
): Promise<SignInWithPasskeyReturnType> {
  assertCall(client, parameters);
  const webauthn = client.webauthn();
  const prepared =
    "prepared" in parameters ? parameters.prepared : await preparePasskeySignIn(client, parameters);
  const { challenge, credentialId } = prepared;
  if (Date.parse(challenge.expiresAt) <= client.clock.now()) {
    throw new SignetError("CHALLENGE_EXPIRED", "The passkey challenge expired: prepare a new one");
  }
  const assertion = await webauthn
    .authenticate(
      {
        challenge: base64UrlEncode(utf8Encode(challenge.challenge)),
        allowCredentials: [{ id: challenge.credentialId, type: "public-key" }],
        userVerification: "required",
        timeout: parameters.timeoutMs ?? 60_000,
        ...(parameters.rpId ? { rpId: parameters.rpId } : {}),
      },
      parameters.autofill === true ? { autofill: true } : undefined,
    )
    .catch((error: unknown) => {
      throw toWebAuthnError(error);
    });
  // The challenge was made for one credential; autofill lets the user pick any passkey of the site.
  if (assertion.rawId !== challenge.credentialId) {
    throw new SignetError(
      "WEBAUTHN_WRONG_CREDENTIAL",
      "That passkey is another account's: pick this account's passkey",
      { details: { expected: challenge.credentialId, used: assertion.rawId } },
    );
  }
  // A wallet sign-in passkey: it never answers an SCA challenge on this client (§11).
  notePasskeys(client, "signIn", [assertion.rawId]);
  const body = JSON.stringify({
    type: "PASSKEY",
    assertion: {
      credentialId: assertion.rawId,
      clientDataJson: assertion.response.clientDataJSON,
      authenticatorData: assertion.response.authenticatorData,
      signature: assertion.response.signature,
      ...(assertion.response.userHandle ? { userHandle: assertion.response.userHandle } : {}),
    },
  });
  const session = parseAuthSession(await sendVerify(client, prepared, body, parameters));
  const proven = await proveSessionKey(client, session, prepared.key, parameters);
  // Proven: the key's session is this device's now (the refreshed one), so its note goes.
  if (!("legacy" in prepared.key))
    await forgetPossibleSession(client, session.accountId, prepared.key.publicKey).catch(
      () => undefined,
    );
  const { key: _key, ...held } = await establishSession(client, {
    onEvent: parameters.onEvent,
    session: proven.session,
    key: proven.key,
    credentialId,
    // The user's tap: a verification step-up counts (a refresh keeps this time).
    ...verifiedNow(client),
  });
  return held;
}

/**
 * Sends the verify (its `Request-Id` is the challenge's), re-sent while it answers PROCESSING
 * until the challenge lapses. Where the challenge names the account and the key is a client-held
 * one (not the legacy flow's), a verify answered PROCESSING is kept for a reload
 * (docs/protocol.md §2.5), its key noted first as one whose session this device may have made:
 * the key stays in the key store (non-extractable in a browser), the kept copy names only its
 * public key, and a resume proves and holds the session as this call would
 * (pending/adoptKeptPasskey.ts). The note goes once the session is proven here, or when the
 * service refused the verify; any other end leaves it for the kept call or the next sign-out.
 */
async function sendVerify(
  client: SignetClient,
  prepared: PreparedPasskeySignIn,
  body: string,
  parameters: CallOptions,
): Promise<unknown> {
  const { challenge, credentialId, key } = prepared;
  const { path } = at(CREDENTIAL_VERIFY, [credentialId]);
  const accountId = (challenge as Partial<PasskeyAuthChallengeJson>).accountId;
  if ("legacy" in key || typeof accountId !== "string" || !accountId.startsWith("InternalAccount:"))
    return requestUntilSettled(
      client,
      { method: "POST", path, body, headers: { [REQUEST_ID_HEADER]: challenge.requestId } },
      parameters,
      "signInWithPasskey",
      // PROCESSING answers are re-sent until the challenge lapses.
      Math.max(0, Date.parse(challenge.expiresAt) - client.clock.now()),
    );
  const startedAt = client.clock.now();
  let noting: Promise<void> | undefined;
  const keep = () => {
    noting ??= notePossibleSession(client, { accountId, credentialId, sinceMs: startedAt, key });
    return noting;
  };
  try {
    return await sendUnsignedKept(
      client,
      { path, body, requestId: challenge.requestId, expiresAtMs: Date.parse(challenge.expiresAt) },
      parameters,
      "signInWithPasskey",
      {
        resumable: true,
        accountId,
        finish: { kind: "adoptSession", accountId, credentialId, publicKey: key.publicKey },
        keep,
      },
    );
  } catch (error) {
    // The service refused the verify: no session was made for the key, so its note goes.
    if (noting !== undefined && refusedByService(error)) {
      await noting;
      await forgetPossibleSession(client, accountId, key.publicKey).catch(() => undefined);
    }
    throw error;
  }
}

/**
 * Proves that `session` is bound to the key this device sent for it, by the refresh proof that
 * adoption after a lost answer uses: the refresh is stamped with that key, and its new session,
 * under a fresh key of this device, is the one to hold.
 * @throws {SignetError} `SESSION_KEY_MISMATCH` when the service refuses the stamp; what the
 *   refresh throws otherwise.
 */
export async function proveSessionKey(
  client: SignetClient,
  session: AuthSessionJson,
  sent: PreparedPasskeySignIn["key"],
  parameters: Pick<CallOptions, "signal" | "onEvent">,
): Promise<{ session: AuthSessionJson; key: SigningKey }> {
  const key = await sessionSigningKey(client, session, sent);
  const proven = await adoptProvenSession(client, {
    operation: "signInWithPasskey",
    accountId: session.accountId,
    // The verify's own answer: no other session is a candidate, so its age does not matter.
    listed: [{ ...session, createdAt: new Date(0).toISOString() }],
    sinceMs: 0,
    key,
    signal: parameters.signal,
    onEvent: parameters.onEvent,
  });
  if (proven === undefined) {
    throw new SignetError(
      "SESSION_KEY_MISMATCH",
      "The passkey sign-in's session is another key's: it was not used",
      { retryable: false, details: { accountId: session.accountId, sessionId: session.id } },
    );
  }
  return proven;
}

/** preparePasskeySignIn's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const preparePasskeySignInRow = {
  chunk: "session",
  summary: "the passkey challenge for a fresh key, made before the tap",
  parameters: "`{ credentialId, legacy? }`",
  resolvesTo: "`PreparedPasskeySignIn`",
  requests: [{ route: CREDENTIAL_CHALLENGE }],
  errors: {
    client: [REQUEST_ERRORS, CRYPTO_ERRORS, "CHALLENGE_INVALID", "PROCESSING_TIMEOUT"],
  },
  hook: {
    kind: "mutation",
    name: "usePreparePasskeySignIn",
    doc: "Fetches a passkey challenge ahead of the tap (`preparePasskeySignIn`).",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;

/** signInWithPasskey's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const signInWithPasskeyRow = {
  chunk: "session",
  summary:
    "a WebAuthn assertion over the challenge's UTF-8 bytes, verified with its `Request-Id`, then a refresh stamped by the device's key proves the session is its own; `autofill: true` offers the passkey in the browser's autofill",
  parameters:
    "`{ prepared }` or `{ credentialId, legacy? }`, plus `{ rpId?, timeoutMs?, autofill? }`",
  resolvesTo: "`Session`",
  requests: [
    { route: CREDENTIAL_CHALLENGE },
    { route: CREDENTIAL_VERIFY },
    {
      route: SESSION_REFRESH,
      signed: {
        signer: "oneTimeKey",
        check: refreshSessionPayload,
        signedBy:
          "the key this device sent for the new session, which only that session's refresh accepts (the proof; the session held is the refreshed one)",
      },
    },
  ],
  errors: {
    client: [
      REQUEST_ERRORS,
      SIGNED_REQUEST_ERRORS,
      CRYPTO_ERRORS,
      BUNDLE_ERRORS,
      "KEY_STORAGE_UNAVAILABLE",
      "SESSION_KEY_MISMATCH",
    ],
    passkey: true,
  },
  hook: {
    kind: "mutation",
    name: "useSignInWithPasskey",
    doc: "Signs in with a passkey (`signInWithPasskey`), with `autofill: true` for browser autofill. Call `mutate` directly in the tap's event handler: the prompt opens in the same task (iOS Safari drops it otherwise).",
    invalidates: ["sessions"],
  },
} as const satisfies ActionSourceRow;
