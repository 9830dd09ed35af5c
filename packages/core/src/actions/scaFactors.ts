// docs/protocol.md §9 (SCA factors): the factors a customer in an SCA region can confirm payments
// and logins with. SMS is always there (the verified phone); a passkey for SCA is enrolled here,
// apart from the wallet's sign-in passkeys, and only one at a time. The relay names the customer.

import { assertCall } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import { notePasskeys, originOf } from "../sca/scaLedger.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import type { ScaFactor } from "../transport/wire.js";
import { toWebAuthnError } from "../webauthn/errors.js";
import type { RegistrationOptionsJSON } from "../webauthn/types.js";

/** One enrolled SCA factor (`ScaFactorView`). */
export type ScaFactorJson = {
  factor: ScaFactor | (string & {});
  /** PASSKEY only: the WebAuthn credential id, which `deleteScaFactor` takes. */
  credentialId?: string;
  name?: string;
};

export type ListScaFactorsParameters = CallOptions;
export type ListScaFactorsReturnType = ScaFactorJson[];
export type ListScaFactorsErrorType = SignetErrorOf<ActionErrorCode<"listScaFactors">>;

/**
 * Lists the customer's enrolled SCA factors (`GET /sca/factors`): `SMS_OTP` always (the verified
 * phone), a `PASSKEY` once one is enrolled for SCA, `TOTP` when set up.
 *
 * @throws {SignetError} `CONFLICT` (409: the customer is not in an SCA region), `NETWORK`.
 * @example
 * ```ts
 * const canUsePasskey = (await listScaFactors(client)).some((f) => f.factor === "PASSKEY");
 * ```
 */
export async function listScaFactors(
  client: SignetClient,
  parameters: ListScaFactorsParameters = {},
): Promise<ListScaFactorsReturnType> {
  assertCall(client, parameters);
  const list = await client.request<{ factors?: unknown } | null>(at(SCA_FACTORS_LIST), parameters);
  if (!Array.isArray(list?.factors)) {
    throw new SignetError("MALFORMED_RESPONSE", "Expected ScaFactorList.factors to be an array");
  }
  const factors = list.factors.map((item) =>
    expectShape<ScaFactorJson>(item, ["factor"], "ScaFactorView"),
  );
  // The service's own word on which passkeys are enrolled for SCA (docs/protocol.md §11).
  notePasskeys(
    client,
    "sca",
    factors.map((f) => f.credentialId),
  );
  return factors;
}

export type EnrollScaPasskeyParameters = CallOptions & {
  /** The origin of the ceremony. Default: the one in the authenticator's `clientDataJSON`. */
  origin?: string | undefined;
  /** Passkey prompt time limit in ms, when the service's options give none. Default 60 000. */
  timeoutMs?: number | undefined;
};
export type EnrollScaPasskeyReturnType = ScaFactorJson;
export type EnrollScaPasskeyErrorType = SignetErrorOf<ActionErrorCode<"enrollScaPasskey">>;

/**
 * Enrolls a passkey as the customer's SCA factor: `POST /sca/factors` `{ type: "PASSKEY" }`, the
 * registration ceremony on the service's opaque options (as they are, a missing timeout added),
 * then `POST /sca/factors/confirm` with the credential and its origin. Distinct from `addPasskey`,
 * which adds a way to sign in to the wallet; a customer has at most one SCA passkey.
 *
 * @throws {SignetError} `PASSKEY_ALREADY_ENROLLED` (409: delete the old one first),
 *   `SCA_ORIGIN_NOT_ALLOWED` (the ceremony ran on an origin the service does not list; nothing was
 *   sent), `CONFLICT` (not an SCA region), `WEBAUTHN_*`, `NETWORK`.
 * @example
 * ```ts
 * const factor = await enrollScaPasskey(client);
 * ```
 */
export async function enrollScaPasskey(
  client: SignetClient,
  parameters: EnrollScaPasskeyParameters = {},
): Promise<EnrollScaPasskeyReturnType> {
  assertCall(client, parameters);
  const webauthn = client.webauthn();
  webauthn.preload?.();
  const start = await client.request<{
    options?: Record<string, unknown> | null;
    allowedOrigins?: string[];
    relyingPartyId?: string;
  } | null>(
    {
      ...at(SCA_FACTOR_ENROLL),
      body: JSON.stringify({ type: "PASSKEY" }),
    },
    parameters,
  );
  const given = start?.options;
  // Opaque creation options, as they are or wrapped as the browser API takes them.
  const options = (
    typeof given?.publicKey === "object" && given.publicKey !== null ? given.publicKey : given
  ) as RegistrationOptionsJSON | undefined;
  if (typeof options?.challenge !== "string") {
    throw new SignetError("MALFORMED_RESPONSE", "The passkey enrollment has no WebAuthn options");
  }
  const credential = await webauthn
    .register({ timeout: parameters.timeoutMs ?? 60_000, ...options })
    .catch((error: unknown) => {
      throw toWebAuthnError(error);
    });
  const origin = parameters.origin ?? originOf(credential.response.clientDataJSON);
  assertArgument(typeof origin === "string" && origin !== "", "origin", "a string", "none");
  const allowed = start?.allowedOrigins;
  if (Array.isArray(allowed) && allowed.length > 0 && !allowed.includes(origin)) {
    throw new SignetError(
      "SCA_ORIGIN_NOT_ALLOWED",
      "The passkey was made on an origin the service does not allow for SCA",
      { details: { origin, allowedOrigins: allowed } },
    );
  }
  // The device made this credential for SCA itself: its assertions answer SCA challenges.
  notePasskeys(client, "sca", [credential.rawId, credential.id]);
  const confirmed = await client.request<{ factor?: unknown } | null>(
    {
      ...at(SCA_FACTOR_CONFIRM),
      body: JSON.stringify({ type: "PASSKEY", origin, credential }),
    },
    parameters,
  );
  return expectShape<ScaFactorJson>(confirmed?.factor, ["factor"], "ScaFactorView");
}

export type DeleteScaFactorParameters = CallOptions & {
  /** The factor's `credentialId` (PASSKEY factors only). */
  credentialId: string;
};
export type DeleteScaFactorReturnType = undefined;
export type DeleteScaFactorErrorType = SignetErrorOf<ActionErrorCode<"deleteScaFactor">>;

/**
 * Deletes an enrolled SCA factor by its `credentialId` (`DELETE /sca/factors/{credentialId}`).
 * Only passkeys have one.
 *
 * @throws {SignetError} `REFERENCE_NOT_FOUND`/404 (no such factor), `CONFLICT` (not an SCA region), `NETWORK`.
 * @example
 * ```ts
 * await deleteScaFactor(client, { credentialId: factor.credentialId! });
 * ```
 */
export async function deleteScaFactor(
  client: SignetClient,
  parameters: DeleteScaFactorParameters,
): Promise<DeleteScaFactorReturnType> {
  const { credentialId } = assertCall(client, parameters);
  assertArgument(
    typeof credentialId === "string" && /^[A-Za-z0-9_-]{22,1366}$/.test(credentialId),
    "credentialId",
    "a base64url WebAuthn credential id",
    typeof credentialId === "string" ? "another string" : typeof credentialId,
  );
  await client.request<unknown>(at(SCA_FACTOR_DELETE, [credentialId]), parameters);
}

/** The events the service records for its risk engine (`RecordSecurityEventRequest`). */
export type SecurityEventType = "RESET_PASSWORD_COMPLETED" | "FAILED_LOGIN_ATTEMPT";

export type RecordSecurityEventParameters = CallOptions & { eventType: SecurityEventType };
export type RecordSecurityEventReturnType = {
  eventType: SecurityEventType;
  suspended: boolean;
  failedAttempts: number;
  lockedUntil?: string | null;
};
export type RecordSecurityEventErrorType = SignetErrorOf<ActionErrorCode<"recordSecurityEvent">>;

/**
 * Tells the service about a security event of the app's own login (`POST /sca/record-event`):
 * `FAILED_LOGIN_ATTEMPT` counts toward the customer's lockout, `RESET_PASSWORD_COMPLETED` ends
 * every SCA session and clears the count. Returns the customer's login-security state.
 *
 * @throws {SignetError} `ACCOUNT_LOCKED` (423), `CONFLICT` (not an SCA region), `NETWORK`.
 * @example
 * ```ts
 * const { suspended, lockedUntil } = await recordSecurityEvent(client, { eventType: "FAILED_LOGIN_ATTEMPT" });
 * ```
 */
export async function recordSecurityEvent(
  client: SignetClient,
  parameters: RecordSecurityEventParameters,
): Promise<RecordSecurityEventReturnType> {
  const { eventType } = assertCall(client, parameters);
  assertArgument(
    eventType === "RESET_PASSWORD_COMPLETED" || eventType === "FAILED_LOGIN_ATTEMPT",
    "eventType",
    '"RESET_PASSWORD_COMPLETED" or "FAILED_LOGIN_ATTEMPT"',
    String(eventType),
  );
  const state = expectShape<RecordSecurityEventReturnType>(
    await client.request<unknown>(
      {
        ...at(SECURITY_EVENT_RECORD),
        body: JSON.stringify({ eventType }),
      },
      parameters,
    ),
    ["eventType"],
    "RecordSecurityEventResponse",
  );
  if (typeof state.suspended !== "boolean" || !Number.isSafeInteger(state.failedAttempts)) {
    throw new SignetError(
      "MALFORMED_RESPONSE",
      "RecordSecurityEventResponse lacks suspended or failedAttempts",
    );
  }
  return state;
}

/** `GET /sca/factors`. */
export const SCA_FACTORS_LIST = {
  method: "GET",
  path: "/sca/factors",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `POST /sca/factors`. */
export const SCA_FACTOR_ENROLL = {
  method: "POST",
  path: "/sca/factors",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `POST /sca/factors/confirm`. */
export const SCA_FACTOR_CONFIRM = {
  method: "POST",
  path: "/sca/factors/confirm",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `DELETE /sca/factors/{WebAuthnCredential}`. */
export const SCA_FACTOR_DELETE = {
  method: "DELETE",
  path: "/sca/factors/{WebAuthnCredential}",
  expectedStatus: 204,
} as const satisfies ActionRoute;
/** `POST /sca/record-event`. */
export const SECURITY_EVENT_RECORD = {
  method: "POST",
  path: "/sca/record-event",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** listScaFactors's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const listScaFactorsRow = {
  chunk: "scaFactors",
  summary: "the customer's SCA factors",
  parameters: "none (the relay names the customer)",
  resolvesTo: "`ScaFactorJson[]`",
  requests: [{ route: SCA_FACTORS_LIST }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "query",
    name: "useScaFactors",
    reads: "scaFactors",
    doc: "The customer's enrolled SCA factors (`listScaFactors`); refetched after an enrollment or deletion.",
  },
} as const satisfies ActionSourceRow;

/** enrollScaPasskey's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const enrollScaPasskeyRow = {
  chunk: "scaFactors",
  sensitive: true,
  summary:
    "a passkey enrolled for SCA (apart from the wallet's sign-in passkeys, one at most): start, WebAuthn, confirm",
  parameters: "`{ origin?, timeoutMs? }`",
  resolvesTo: "`ScaFactorJson`",
  requests: [{ route: SCA_FACTOR_ENROLL }, { route: SCA_FACTOR_CONFIRM }],
  errors: { client: [REQUEST_ERRORS, "SCA_ORIGIN_NOT_ALLOWED"], passkey: true },
  hook: {
    kind: "mutation",
    name: "useEnrollScaPasskey",
    doc: "Enrolls a passkey as the customer's SCA factor (`enrollScaPasskey`), apart from the wallet's sign-in passkeys; `useScaFactors` refetches.",
    invalidates: ["scaFactors"],
  },
} as const satisfies ActionSourceRow;

/** deleteScaFactor's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const deleteScaFactorRow = {
  chunk: "scaFactors",
  sensitive: true,
  summary: "deletes the SCA passkey by its WebAuthn credential id",
  parameters: "`{ credentialId }`",
  resolvesTo: "`undefined`",
  requests: [{ route: SCA_FACTOR_DELETE }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "mutation",
    name: "useDeleteScaFactor",
    doc: "Deletes the customer's SCA passkey (`deleteScaFactor`); `useScaFactors` refetches.",
    invalidates: ["scaFactors"],
  },
} as const satisfies ActionSourceRow;

/** recordSecurityEvent's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const recordSecurityEventRow = {
  chunk: "scaFactors",
  summary: "a failed login or a password reset of the app's own login, for the service's lockout",
  parameters: '`{ eventType: "FAILED_LOGIN_ATTEMPT" | "RESET_PASSWORD_COMPLETED" }`',
  resolvesTo: "`{ eventType, suspended, failedAttempts, lockedUntil? }`",
  requests: [{ route: SECURITY_EVENT_RECORD }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "mutation",
    name: "useRecordSecurityEvent",
    doc: "Records a security event of the app's own login (`recordSecurityEvent`).",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
