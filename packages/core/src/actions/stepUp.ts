import { assertCall, assertServiceId } from "../arguments/arguments.js";
import type { ActionSourceRow } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import {
  BUNDLE_ERRORS,
  CRYPTO_ERRORS,
  REQUEST_ERRORS,
  SIGNED_REQUEST_ERRORS,
} from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import type { Session } from "../session/sessionStore.js";
import { type RequestOtpReturnType, requestOtp } from "./requestOtp.js";
import { revokeSession } from "./revokeSession.js";
import { signInWithPasskey } from "./signInWithPasskey.js";
import { verifyOtp } from "./verifyOtp.js";

export type StepUpParameters = CallOptions & {
  /** The account whose user verifies again (`InternalAccount:…`). */
  accountId: string;
  /**
   * The credential to verify with (`AuthMethod:…`). Default: the one that issued the account's
   * newest held session (the way the user signed in last).
   */
  credentialId?: string | undefined;
  /**
   * Verify by a one-time code: called once the code was sent (`requestOtp`'s answer, to show where
   * it went), resolves to the code the user typed. Leave it out to verify by passkey. The app
   * chooses by the credential's `type`: a `PASSKEY` credential by passkey, an `EMAIL_OTP` or
   * `SMS_OTP` one by code.
   */
  onCode?: ((sent: RequestOtpReturnType) => string | Promise<string>) | undefined;
  /** The passkey's relying party id, when it differs from the page's domain. */
  rpId?: string | undefined;
  /** Passkey prompt time limit in ms. Default 60 000. */
  timeoutMs?: number | undefined;
};
/** The new session, its `verifiedAt` now. */
export type StepUpReturnType = Session;
export type StepUpErrorType = SignetErrorOf<ActionErrorCode<"stepUp">>;

/**
 * Verifies the account's user again, for `createClient`'s `stepUp` (docs/security.md "Step-up"):
 * the passkey ceremony (`signInWithPasskey`), or with `onCode` the one-time code exchange
 * (`requestOtp`, then `verifyOtp`), for the credential of the current session. The user stays
 * signed in throughout: the new session, whose `verifiedAt` is now, is held before the held sessions
 * of the same credential it supersedes are revoked (a revoke that fails leaves that one to lapse; it signs nothing while the
 * newer one is held). Then call the refused action again.
 *
 * @throws {SignetError} `INVALID_ARGUMENT` (no `credentialId` given and no held session names
 *   one), `WEBAUTHN_CANCELLED`, `WEBAUTHN_*`, `UNAUTHORIZED` (a wrong code), `CHALLENGE_EXPIRED`,
 *   `SESSION_KEY_MISMATCH`, `RATE_LIMITED`, `NETWORK`.
 * @example
 * ```ts
 * try {
 *   await exportWallet(client, { accountId });
 * } catch (error) {
 *   if (!isSignetError(error, "STEP_UP_REQUIRED")) throw error;
 *   await stepUp(client, { accountId }); // or { accountId, onCode: () => ui.askCode() }
 *   await exportWallet(client, { accountId });
 * }
 * ```
 */
export async function stepUp(
  client: SignetClient,
  parameters: StepUpParameters,
): Promise<StepUpReturnType> {
  const { accountId, onCode, rpId, timeoutMs, signal, onEvent } = assertCall(client, parameters);
  assertServiceId("accountId", accountId, "InternalAccount");
  assertArgument(
    onCode === undefined || typeof onCode === "function",
    "onCode",
    "a function",
    typeof onCode,
  );
  const before = await client.sessions.list(accountId);
  const credentialId = parameters.credentialId ?? before.find((s) => s.credentialId)?.credentialId;
  // No held session names the credential it came from (an adopted one, say): the app names it.
  assertArgument(
    credentialId !== undefined,
    "credentialId",
    "a credential (no held session of the account names one)",
    "none",
  );
  assertServiceId("credentialId", credentialId, "AuthMethod");
  const call = { signal, onEvent, ...(parameters.retry ? { retry: parameters.retry } : {}) };
  let session: Session;
  if (onCode) {
    const sent = await requestOtp(client, { ...call, credentialId });
    const otpCode = await onCode(sent);
    assertArgument(typeof otpCode === "string", "onCode", "a code (a string)", typeof otpCode);
    session = await verifyOtp(client, { ...call, ...sent, otpCode });
  } else {
    session = await signInWithPasskey(client, {
      ...call,
      credentialId,
      ...(rpId ? { rpId } : {}),
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  }
  // The sessions of the same credential it supersedes, revoked while the new one signs (their keys
  // go with them). Another credential's stay: revoking a credential needs one of those.
  for (const old of before)
    if (old.id !== session.id && old.credentialId === credentialId)
      await revokeSession(client, { accountId, sessionId: old.id }).catch(() => undefined);
  return session;
}

/** stepUp's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const stepUpRow = {
  chunk: "session",
  summary:
    "verifies the user again for `createClient`'s `stepUp`: the passkey ceremony, or the code exchange with `onCode`; the new session (`verifiedAt` now) replaces the held one",
  parameters: "`{ accountId, credentialId?, onCode?, rpId?, timeoutMs? }`",
  resolvesTo: "`Session`",
  requests: [],
  runs: ["signInWithPasskey", "requestOtp", "verifyOtp", "revokeSession"],
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
  hook: { kind: "mutation", name: "useStepUp", invalidates: ["sessions"] },
} as const satisfies ActionSourceRow;
