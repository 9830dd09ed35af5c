import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import type { SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { requestUntilSettled } from "../transport/pollUntil.js";
import { expectShape } from "../transport/responseShape.js";
import type { AuthMethodJson } from "../transport/wire.js";

export type RequestOtpParameters = CallOptions & {
  /** The EMAIL_OTP or SMS_OTP credential (`AuthMethod:…`). */
  credentialId: string;
};

export type RequestOtpReturnType = {
  credential: AuthMethodJson;
  /** Opaque: pass it to `verifyOtp` with the code the user types. A new request voids the previous one. */
  otpEncryptionTargetBundle: string;
};

export type RequestOtpErrorType = SignetErrorOf<ActionErrorCode<"requestOtp">>;

/**
 * Sends a one-time code to the credential's email or phone (`POST /auth/credentials/{id}/challenge`).
 *
 * @throws {SignetError} `RATE_LIMITED` (see `details.retryAfterMs`), `NOT_FOUND`, `MALFORMED_RESPONSE`,
 * `PROCESSING_TIMEOUT` (the service kept answering PROCESSING), `NETWORK`.
 * @example
 * ```ts
 * const otp = await requestOtp(client, { credentialId });
 * const session = await verifyOtp(client, { ...otp, otpCode: "000000" });
 * ```
 */
export async function requestOtp(
  client: SignetClient,
  parameters: RequestOtpParameters,
): Promise<RequestOtpReturnType> {
  const { credentialId } = assertCall(client, parameters);
  assertServiceId("credentialId", credentialId, "AuthMethod");
  // docs/protocol.md §2.5: a 200 endpoint may answer PROCESSING; the same request goes again.
  const body = await requestUntilSettled(
    client,
    {
      ...at(CREDENTIAL_CHALLENGE, [credentialId]),
      body: "{}",
      // A repeat sends a new code and voids the previous one: nothing is committed twice, so
      // a dropped connection or a 5xx is retried (docs/architecture.md "Retries").
      idempotent: true,
    },
    parameters,
    "requestOtp",
  );
  const credential = expectShape<AuthMethodJson>(
    body,
    ["id", "accountId", "type", "otpEncryptionTargetBundle"],
    "OTP challenge",
  );
  const { otpEncryptionTargetBundle, ...rest } = credential;
  return {
    credential: rest as AuthMethodJson,
    otpEncryptionTargetBundle: otpEncryptionTargetBundle as string,
  };
}

/** `POST /auth/credentials/{AuthMethod}/challenge`. */
export const CREDENTIAL_CHALLENGE = {
  method: "POST",
  path: "/auth/credentials/{AuthMethod}/challenge",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** requestOtp's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const requestOtpRow = {
  chunk: "session",
  summary: "starts an email or SMS OTP sign-in: a fresh target bundle, a code sent",
  parameters: "`{ credentialId }`",
  resolvesTo: "`{ credential, otpEncryptionTargetBundle }`",
  requests: [{ route: CREDENTIAL_CHALLENGE }],
  errors: { client: [REQUEST_ERRORS, "PROCESSING_TIMEOUT"] },
  hook: {
    kind: "mutation",
    name: "useRequestOtp",
    doc: "Sends a one-time code to an email or SMS credential (`requestOtp`).",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
