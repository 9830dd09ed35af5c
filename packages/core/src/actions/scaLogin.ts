// docs/protocol.md §9 (SCA login): the customer's Strong Customer Authentication session, opened
// with a factor (`POST /sca/login/start`, then `/sca/login/complete` with the proof) and needed
// before a payment's challenge can be authorized. The relay names the customer.

import { assertCall } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS, SCA_PROOF_ERRORS } from "../errors/errorGroups.js";
import {
  assertArgument,
  isSignetError,
  SignetError,
  type SignetErrorOf,
} from "../errors/errors.js";
import { bindChallenge, type ScaProofSite } from "../sca/scaBinding.js";
import { SCA_LOGIN_OWNER } from "../sca/scaLedger.js";
import {
  MAX_REFUSED_ANSWERS,
  type ScaChallengeContext,
  type ScaProof,
  scaProofFields,
} from "../sca/scaProof.js";
import type { CallOptions } from "../session/events.js";
import { abortedError } from "../transport/abort.js";
import { expectShape } from "../transport/responseShape.js";
import { resolveRetryPolicy } from "../transport/retry.js";
import type { ScaChallengeJson } from "../transport/wire.js";

/** The factors an SCA login can use. */
export type ScaLoginFactor = "SMS_OTP" | "TOTP" | "PASSKEY";

export type ScaLoginParameters = CallOptions & {
  /** The factor to log in with. Default `SMS_OTP` (every SCA customer has a verified phone). */
  factor?: ScaLoginFactor | undefined;
  /**
   * Asked for the proof, as in `authorizeQuote`: the challenge's `purpose` is `"SCA_LOGIN"` and
   * `context.login` is true. Again after a refused proof, with `context.error`.
   */
  onChallenge: (
    challenge: ScaChallengeJson,
    context: ScaChallengeContext,
  ) => ScaProof | Promise<ScaProof>;
  /** The origin of a passkey ceremony. Default: the one in the authenticator's `clientDataJSON`. */
  origin?: string | undefined;
  /**
   * The end user's IP address (the service requires one on completion). Usually filled in by
   * the relay (`createRelay({ endUserIpAddress })`), which sees the user's connection.
   */
  endUserIpAddress?: string | undefined;
  /** Passkey prompt time limit in ms, when the options give none. Default 60 000. */
  timeoutMs?: number | undefined;
};

/** The SCA session the login opened. */
export type ScaLoginReturnType = {
  status: "SUCCESS";
  /** When the session ends; log in again before it does (money movement stops after it). */
  sessionExpiresAt?: string | undefined;
};

export type ScaLoginErrorType = SignetErrorOf<ActionErrorCode<"scaLogin">>;

type ScaLoginStartJson = {
  factor: string;
  challengeId?: string | null;
  expiresAt?: string | null;
  passkeyOptions?: Record<string, unknown> | null;
  allowedOrigins?: string[] | null;
  relyingPartyId?: string | null;
};

/** How long a login challenge without an `expiresAt` (TOTP, PASSKEY) is taken to stay open. */
const OPEN_CHALLENGE_MS = 5 * 60_000;

/**
 * Opens the customer's Strong Customer Authentication session: starts a login with `factor`,
 * asks `onChallenge` for the proof (an SMS or TOTP code, or a passkey tap on the passkey enrolled
 * for SCA), and completes it. `authorizeQuote` calls it by itself when the service answers
 * `SCA_SESSION_REQUIRED`; call it directly to log in ahead of a payment. A completion left
 * unanswered (a relay restart) or answered 5xx starts the login over with a fresh challenge (at
 * least once, as often as the retry policy's `retryCount` allows),
 * and `onChallenge` is asked again with that error: a proof is never sent twice.
 *
 * @throws {SignetError} `ACCOUNT_LOCKED` (423: `details.lockedUntil`), `CONFLICT` (409: not an SCA
 *   region), `SCA_LOGIN_FAILED` (the service reported another status, in `details.status`),
 *   `CHALLENGE_EXPIRED`, `WEBAUTHN_*`, `RATE_LIMITED`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * const { sessionExpiresAt } = await scaLogin(client, {
 *   onChallenge: (_challenge, { error }) => ui.askCode("Confirm it is you", error),
 * });
 * ```
 */
export async function scaLogin(
  client: SignetClient,
  parameters: ScaLoginParameters,
): Promise<ScaLoginReturnType> {
  const { onChallenge } = assertCall(client, parameters);
  const factor = parameters.factor ?? "SMS_OTP";
  assertArgument(
    factor === "SMS_OTP" || factor === "TOTP" || factor === "PASSKEY",
    "factor",
    '"SMS_OTP", "TOTP" or "PASSKEY"',
    String(factor),
  );
  assertArgument(
    typeof onChallenge === "function",
    "onChallenge",
    "a function",
    typeof onChallenge,
  );
  const start = async (): Promise<ScaChallengeJson & { challengeId?: string | undefined }> => {
    const answer = expectShape<ScaLoginStartJson>(
      await client.request<unknown>(
        {
          ...at(SCA_LOGIN_START),
          body: JSON.stringify({ factor }),
          // A repeat only starts a newer login (a new code), which supersedes the first.
          idempotent: true,
          operation: "scaLogin",
        },
        parameters,
      ),
      ["factor"],
      "ScaLoginStart",
    );
    const challengeId = answer.challengeId ?? undefined;
    if (factor === "SMS_OTP" && typeof challengeId !== "string") {
      throw new SignetError("MALFORMED_RESPONSE", "The SMS login has no challengeId");
    }
    // ScaLoginStart names the relying party beside the opaque options: they must agree.
    const options = answer.passkeyOptions as { publicKey?: { rpId?: unknown }; rpId?: unknown };
    const rpId = options?.publicKey?.rpId ?? options?.rpId;
    if (answer.relyingPartyId && rpId !== undefined && rpId !== answer.relyingPartyId) {
      throw new SignetError("MALFORMED_RESPONSE", "The login's passkey options name another RP", {
        details: { field: "passkeyOptions.rpId" },
      });
    }
    return {
      id: challengeId ?? "sca-login",
      challengeId,
      expiresAt: answer.expiresAt ?? new Date(client.clock.now() + OPEN_CHALLENGE_MS).toISOString(),
      factor,
      availableFactors: [factor],
      purpose: "SCA_LOGIN",
      passkeyAssertionOptions: answer.passkeyOptions ?? null,
      passkeyAllowedOrigins: answer.allowedOrigins ?? null,
    };
  };
  const site: ScaProofSite = {
    operation: "scaLogin",
    step: 1,
    origin: parameters.origin,
    timeoutMs: parameters.timeoutMs,
    onEvent: parameters.onEvent,
  };
  let challenge = await start();
  let error: SignetError | undefined;
  let refused = 0;
  // Starts over after an unanswered completion: at least once, as often as the retry policy allows.
  const maxRestarts = Math.max(1, resolveRetryPolicy(client.retry, parameters.retry).retryCount);
  let restarts = 0;
  for (;;) {
    if (parameters.signal?.aborted) throw abortedError(parameters.signal);
    // A new SMS code is a new login: its challengeId changes.
    const resend = async () => {
      challenge = await start();
    };
    // docs/protocol.md §11: before the customer is asked, a challenge this device has seen come
    // with a payment is refused: a login's tap or code never releases a payment.
    bindChallenge(client, SCA_LOGIN_OWNER, { ...challenge, id: challenge.challengeId ?? "" }, site);
    const proof = await onChallenge(challenge, { step: 1, error, login: true, resend });
    const fields = await scaProofFields(client, challenge, proof, site);
    if (Date.parse(challenge.expiresAt) <= client.clock.now()) {
      throw new SignetError("CHALLENGE_EXPIRED", "The SCA login code expired");
    }
    const body = {
      factor,
      ...(parameters.endUserIpAddress ? { endUserIpAddress: parameters.endUserIpAddress } : {}),
      ...(challenge.challengeId ? { challengeId: challenge.challengeId } : {}),
      ...fields,
    };
    try {
      const done = expectShape<{ status: string; sessionExpiresAt?: string | null }>(
        await client.request<unknown>(
          {
            ...at(SCA_LOGIN_COMPLETE),
            body: JSON.stringify(body),
            operation: "scaLogin",
          },
          parameters,
        ),
        ["status"],
        "ScaLoginComplete",
      );
      if (done.status !== "SUCCESS") {
        throw new SignetError("SCA_LOGIN_FAILED", "The SCA login did not complete", {
          details: { status: done.status },
        });
      }
      return {
        status: "SUCCESS",
        ...(done.sessionExpiresAt ? { sessionExpiresAt: done.sessionExpiresAt } : {}),
      };
    } catch (cause) {
      // No answer (a relay restart cut the request) or a 5xx: the proof may have been taken, and
      // the service has no read of a login. The same proof again could count one refused code
      // twice toward the lock, so the login starts over with a fresh challenge (the old one can
      // then never be completed) and `onChallenge` is asked again, with this error; as often as
      // the retry policy allows, since a new login can never act twice.
      if (restarts < maxRestarts && isUnanswered(cause)) {
        restarts += 1;
        challenge = await start();
        error = cause;
        continue;
      }
      // A 400 is a refused proof: ask again, until the service locks (423) or limits (429). One
      // about the end user's address (the relay's to set) is no verdict on the proof: asking again
      // cannot cure it.
      if ((cause as SignetError).status !== 400 || namesEndUserIp(cause)) throw cause;
      if (++refused >= MAX_REFUSED_ANSWERS) throw cause;
      error = cause as SignetError;
    }
  }
}

/** Whether a completion's outcome is unknown: no answer (not a cancel), or a 5xx. */
function isUnanswered(cause: unknown): cause is SignetError {
  // The relay refusing for want of its own configuration (`endUserIpAddress`): nothing was sent on.
  if (!isSignetError(cause) || cause.code === "ABORTED" || cause.code === "RELAY_MISCONFIGURED")
    return false;
  return cause.status === undefined || cause.status >= 500;
}

/** Whether a 400 names `endUserIpAddress` among its field errors (`details.errors[].field`). */
function namesEndUserIp(cause: unknown): boolean {
  if (!isSignetError(cause) || cause.code !== "INVALID_INPUT") return false;
  const errors = (cause as SignetError<"INVALID_INPUT">).details.errors;
  return (
    Array.isArray(errors) &&
    errors.some((e) => (e as { field?: unknown } | null)?.field === "endUserIpAddress")
  );
}

/** `POST /sca/login/start`. */
export const SCA_LOGIN_START = {
  method: "POST",
  path: "/sca/login/start",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `POST /sca/login/complete`. */
export const SCA_LOGIN_COMPLETE = {
  method: "POST",
  path: "/sca/login/complete",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** scaLogin's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const scaLoginRow = {
  chunk: "payments",
  summary:
    "the customer's SCA session: start with a factor, the proof through `onChallenge`, complete",
  parameters: "`{ factor?, onChallenge, origin?, endUserIpAddress?, timeoutMs? }`",
  resolvesTo: '`{ status: "SUCCESS", sessionExpiresAt? }`',
  requests: [{ route: SCA_LOGIN_START }, { route: SCA_LOGIN_COMPLETE }],
  errors: {
    client: [REQUEST_ERRORS, SCA_PROOF_ERRORS],
    passkey: true,
  },
  hook: {
    kind: "mutation",
    name: "useScaLogin",
    doc: "Opens the customer's SCA session (`scaLogin`); pass `onChallenge` as for `authorizeQuote`.",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
