import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import type { SigningKey } from "../crypto/backend.js";
import {
  BUNDLE_ERRORS,
  CRYPTO_ERRORS,
  REQUEST_ERRORS,
  SIGNED_REQUEST_ERRORS,
} from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import { refusedByService } from "../errors/refusedByService.js";
import { establishSession, parseAuthSession, verifiedNow } from "../session/establishSession.js";
import type { CallOptions } from "../session/events.js";
import { listSessionsJson } from "../session/listedSessions.js";
import { forgetPossibleSession, notePossibleSession } from "../session/possibleSessions.js";
import type { Session } from "../session/sessionStore.js";
import { expectVerificationToken } from "../transport/payloadCheck.js";
import type { AuthMethodJson } from "../transport/wire.js";
import { adoptProvenSession } from "./settleSessions.js";

export type VerifyOtpParameters = CallOptions & {
  /** The credential from `requestOtp`. */
  credential: Pick<AuthMethodJson, "id" | "type">;
  /** From `requestOtp`. */
  otpEncryptionTargetBundle: string;
  /** The code as the user typed it. Never logged, never in an error. */
  otpCode: string;
};

export type VerifyOtpReturnType = Session;
export type VerifyOtpErrorType = SignetErrorOf<ActionErrorCode<"verifyOtp">>;

/**
 * Signs in with a one-time code: a fresh key (the TEK) is generated on the device, the code and the
 * TEK's public key are sealed to the enclave (HPKE), and the verification token is stamped with the
 * TEK, which becomes the session key (docs/protocol.md §3, OTP verify).
 *
 * @throws {SignetError} `BUNDLE_SIGNER_UNTRUSTED` / `BUNDLE_SIGNATURE_INVALID` (target bundle),
 *   `UNAUTHORIZED` (wrong code, see `details`), `RATE_LIMITED`, `CHALLENGE_EXPIRED`, `NETWORK`,
 *   `OUTCOME_UNKNOWN` (an answer was lost and what it did could not be read back: sign in again).
 * @example
 * ```ts
 * const session = await verifyOtp(client, { ...(await requestOtp(client, { credentialId })), otpCode });
 * ```
 */
export async function verifyOtp(
  client: SignetClient,
  parameters: VerifyOtpParameters,
): Promise<VerifyOtpReturnType> {
  const { credential, otpEncryptionTargetBundle, otpCode } = assertCall(client, parameters);
  assertServiceId("credential.id", credential?.id, "AuthMethod");
  assertArgument(
    credential.type === "EMAIL_OTP" || credential.type === "SMS_OTP",
    "credential.type",
    "EMAIL_OTP or SMS_OTP",
    String(credential.type),
  );
  assertArgument(
    typeof otpCode === "string" && otpCode.length > 0 && otpCode.length <= 64,
    "otpCode",
    "a non-empty string",
    typeof otpCode === "string" ? `${otpCode.length} characters` : typeof otpCode,
  );
  const tek = await client.crypto.generateSigningKey();
  const { signal } = parameters;
  const startedAt = client.clock.now();
  // The TEK, or the key of a session adopted after a lost answer (see resolveAmbiguous), and
  // the account the TEK was noted for as a key whose session may exist unheld.
  let sessionKey: SigningKey = tek;
  let notedFor: string | undefined;
  const encryptedOtpBundle = await client.crypto.sealOtpBundle({
    targetBundle: otpEncryptionTargetBundle,
    otpCode,
    publicKey: tek.publicKeyUncompressed,
    ...client.bundleTrust("otpTargetBundle", parameters.onEvent),
  });
  // The account the sign-in is for, when the credential names it: a verify answered PROCESSING
  // is then kept for a reload, its one-time key noted first (docs/protocol.md §2.5).
  const accountId = (credential as Partial<AuthMethodJson>).accountId;
  const keptFor =
    typeof accountId === "string" && accountId.startsWith("InternalAccount:")
      ? accountId
      : undefined;
  // Noted once (the kept copy's write or a lost answer); a forget waits for the note's write.
  let noting: Promise<void> | undefined;
  const note = (forAccount: string) => {
    notedFor ??= forAccount;
    noting ??= notePossibleSession(client, {
      accountId: forAccount,
      credentialId: credential.id,
      sinceMs: startedAt,
      key: tek,
    });
    return noting;
  };
  const signed = client.signed(
    {
      operation: "verifyOtp",
      ...at(CREDENTIAL_VERIFY, [credential.id]),
      body: JSON.stringify({ type: credential.type, encryptedOtpBundle }),
      sign: (payload) => client.crypto.stampPayload(payload, tek),
      // The TEK travels sealed in the bundle, which no backend can open or re-seal; the payload
      // must still be the verification token (never an activity) for this TEK, and alive.
      checkPayload: expectVerificationToken([tek.publicKeyUncompressed, tek.publicKey]),
      parseBody: parseAuthSession,
      // A verify whose answer was lost: the session it made is adopted only when the TEK
      // proves it is that session's key (adoptProvenSession); when the list shows no session
      // of this TEK, nothing was made, and the verify runs again with a fresh challenge and the
      // same sealed code. Until it is settled the TEK is noted, so that a sign-out can end the
      // session it may have made. Without the account id nothing can be looked up: the outcome
      // stays unknown, and the user signs in again.
      resolveAmbiguous: async () => {
        if (typeof accountId !== "string") return undefined;
        await note(accountId);
        const listed = await listSessionsJson(client, accountId, signal);
        const adopted = await adoptProvenSession(client, {
          operation: "verifyOtp",
          accountId,
          listed,
          sinceMs: startedAt,
          key: tek,
          signal,
          onEvent: parameters.onEvent,
        });
        if (adopted === undefined) return "restart";
        sessionKey = adopted.key;
        return { status: 200, body: adopted.session };
      },
      // Kept on PROCESSING: the stamped verify, re-sent by the next page, which adopts the
      // session under the TEK (pending/adoptKeptSession.ts). The TEK stays in the key store,
      // non-extractable, noted before the copy is written; the copy names its public key only.
      ...(keptFor === undefined
        ? {}
        : {
            pending: {
              resumable: true,
              accountId: keptFor,
              finish: {
                kind: "adoptSession" as const,
                accountId: keptFor,
                credentialId: credential.id,
                publicKey: tek.publicKey,
              },
              keep: () => note(keptFor),
            },
          }),
    },
    parameters,
  );
  const { body } = await signed.catch(async (error: unknown) => {
    // The service refused the verify (a wrong code, a spent request id): no session was made
    // for the TEK, so its note goes. Any other end (aborted by a reload, no answer) keeps it:
    // the kept call, or the next sign-out, settles it.
    if (notedFor !== undefined && refusedByService(error)) {
      await noting;
      await forgetPossibleSession(client, notedFor, tek.publicKey).catch(() => undefined);
    }
    throw error;
  });
  if (notedFor !== undefined) {
    await noting;
    await forgetPossibleSession(client, notedFor, tek.publicKey);
  }
  const { key: _key, ...session } = await establishSession(client, {
    onEvent: parameters.onEvent,
    session: body,
    key: sessionKey,
    credentialId: credential.id,
    // The code the user typed: a verification step-up counts (a refresh keeps this time).
    ...verifiedNow(client),
  });
  return session;
}

/** `POST /auth/credentials/{AuthMethod}/verify`. */
export const CREDENTIAL_VERIFY = {
  method: "POST",
  path: "/auth/credentials/{AuthMethod}/verify",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** verifyOtp's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const verifyOtpRow = {
  chunk: "session",
  summary:
    "the OTP sealed to the enclave with HPKE under a one-time key (TEK), the token stamped with it; the TEK becomes the session key",
  parameters: "`{ credential, otpEncryptionTargetBundle, otpCode }` (spread `requestOtp`'s result)",
  resolvesTo: "`Session`",
  requests: [
    {
      route: CREDENTIAL_VERIFY,
      signed: {
        signer: "oneTimeKey",
        check: expectVerificationToken,
        signedBy: "the one-time key (TEK) whose public key is inside `encryptedOtpBundle`",
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
    ],
  },
  hook: {
    kind: "mutation",
    name: "useVerifyOtp",
    doc: "Signs in with the code the user typed (`verifyOtp`).",
    invalidates: ["sessions", "credentials"],
  },
} as const satisfies ActionSourceRow;
