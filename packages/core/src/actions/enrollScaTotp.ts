// docs/protocol.md §9 (SCA factors): a TOTP authenticator app enrolled as an SCA factor. The
// service makes the shared secret (`POST /sca/factors` `{ type: "TOTP" }` answers
// `TotpEnrollmentStart`: `secret`, `secretBase32Encoded`, `totpUri`); the customer scans the URI
// (or types the Base32 form) into their app and proves it with the first code
// (`POST /sca/factors/confirm` `{ type: "TOTP", secret, code }`), which answers one-time recovery
// codes. The relay names the customer.
//
// The secret is a credential: it stays in this call's memory, goes to the app's `onSecret` only
// as what the customer needs to scan or type, back to the service only as the `secret` it came
// as, and into no event or error (request events carry no body).

import { assertCall } from "../arguments/arguments.js";
import { type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, SignetError, type SignetErrorOf } from "../errors/errors.js";
import { MAX_REFUSED_ANSWERS } from "../sca/scaProof.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import { SCA_FACTOR_CONFIRM, SCA_FACTOR_ENROLL } from "./scaFactors.js";

/** What the customer's authenticator app needs: the QR code's URI, or its secret to type. */
export type ScaTotpSetup = {
  /** The `otpauth://totp/…` provisioning URI: the payload of the QR code to show. */
  totpUri: string;
  /** The shared secret in Base32, for an app that cannot scan (show it grouped, never log it). */
  secretBase32Encoded: string;
};

export type EnrollScaTotpParameters = CallOptions & {
  /**
   * Shows the setup (a QR code of `totpUri`, the Base32 secret for typing) and resolves to the
   * first code the customer's app shows. Asked again with `context.error` when the service refused
   * that code (a typo, a step that passed).
   */
  onSecret: (
    setup: ScaTotpSetup,
    context: { error?: SignetError | undefined },
  ) => { code: string } | Promise<{ code: string }>;
};
/** The one-time recovery codes of the new factor: show them once, never store them in the app. */
export type EnrollScaTotpReturnType = { recoveryCodes: string[] };
export type EnrollScaTotpErrorType = SignetErrorOf<ActionErrorCode<"enrollScaTotp">>;

type TotpStartJson = {
  type: string;
  secret: string;
  secretBase32Encoded: string;
  totpUri: string;
};

/**
 * Enrolls an authenticator app (TOTP) as the customer's SCA factor: starts the enrolment, hands
 * `onSecret` the `otpauth://` URI to show as a QR code (and the Base32 secret to type), and
 * confirms with the code it returns. Once enrolled, `scaLogin({ factor: "TOTP" })` logs in with
 * the app's codes; the service does not take TOTP for a payment's own challenge.
 *
 * @throws {SignetError} `PAYLOAD_MISMATCH` (`details.field` `totpUri.secret`: the QR code's secret
 *   is not the one given for typing; nothing confirmed), `CONFLICT` (409: not an SCA region, or a
 *   TOTP factor already enrolled), `INVALID_INPUT` (the code refused `MAX_REFUSED_ANSWERS` times),
 *   `MALFORMED_RESPONSE`, `NETWORK`, `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * const { recoveryCodes } = await enrollScaTotp(client, {
 *   onSecret: ({ totpUri }, { error }) => ui.showQrAndAskCode(totpUri, error),
 * });
 * ```
 */
export async function enrollScaTotp(
  client: SignetClient,
  parameters: EnrollScaTotpParameters,
): Promise<EnrollScaTotpReturnType> {
  const { onSecret } = assertCall(client, parameters);
  assertArgument(typeof onSecret === "function", "onSecret", "a function", typeof onSecret);
  const start = expectShape<TotpStartJson>(
    await client.request<unknown>(
      { ...at(SCA_FACTOR_ENROLL), body: JSON.stringify({ type: "TOTP" }) },
      parameters,
    ),
    ["type", "secret", "secretBase32Encoded", "totpUri"],
    "TotpEnrollmentStart",
  );
  if (
    start.type !== "TOTP" ||
    typeof start.secret !== "string" ||
    start.secret === "" ||
    typeof start.secretBase32Encoded !== "string" ||
    typeof start.totpUri !== "string"
  ) {
    throw new SignetError("MALFORMED_RESPONSE", "TotpEnrollmentStart is not a TOTP secret");
  }
  const setup = checkTotpSetup(client, start, parameters);
  let error: SignetError | undefined;
  for (let refused = 0; ; ) {
    const given = (await onSecret(setup, { error })) as { code?: unknown } | undefined;
    const code = typeof given?.code === "string" ? given.code.replace(/\s/g, "") : undefined;
    // The code itself is never echoed in an error.
    assertArgument(
      code !== undefined && /^\S{1,16}$/.test(code),
      "onSecret",
      "{ code } with the code the authenticator app shows",
      "something else",
    );
    try {
      const confirmed = expectShape<{ type: string; recoveryCodes: unknown }>(
        await client.request<unknown>(
          {
            ...at(SCA_FACTOR_CONFIRM),
            // TotpEnrollmentConfirmRequest: the secret threaded back exactly as it came.
            body: JSON.stringify({ type: "TOTP", secret: start.secret, code }),
          },
          parameters,
        ),
        ["type"],
        "TotpEnrollmentConfirmResponse",
      );
      const codes = confirmed.recoveryCodes;
      if (
        confirmed.type !== "TOTP" ||
        !Array.isArray(codes) ||
        !codes.every((c) => typeof c === "string")
      ) {
        throw new SignetError("MALFORMED_RESPONSE", "TotpEnrollmentConfirmResponse is not TOTP's");
      }
      return { recoveryCodes: codes as string[] };
    } catch (cause) {
      // 400 "Invalid or expired code" (the OpenAPI's confirm answer): ask again, bounded.
      if ((cause as SignetError).status !== 400 || ++refused >= MAX_REFUSED_ANSWERS) throw cause;
      error = cause as SignetError;
    }
  }
}

/**
 * docs/protocol.md §11: the OpenAPI gives the secret twice for the customer, as the QR code's URI
 * ("the QR-code payload") and in Base32 for typing; both must be the one secret, or the app
 * scanning the code would hold a secret of someone else's choosing. Only the URI's `secret`
 * parameter is compared (case, padding and spaces aside, as RFC 4648 Base32 allows); its label,
 * issuer and the raw `secret` (whose encoding the OpenAPI does not name) are the service's own.
 *
 * @throws {SignetError} `PAYLOAD_MISMATCH` (`totpUri`, `totpUri.secret`).
 */
function checkTotpSetup(
  client: SignetClient,
  start: TotpStartJson,
  parameters: CallOptions,
): ScaTotpSetup {
  const refuse = (field: string, reason: string) => {
    client.emit(
      { type: "payload", action: "refused", operation: "enrollScaTotp", signature: 1, field },
      parameters.onEvent,
    );
    return new SignetError("PAYLOAD_MISMATCH", `Refused the TOTP enrolment: ${field} ${reason}`, {
      retryable: false,
      details: { operation: "enrollScaTotp", signature: 1, field },
    });
  };
  let uri: URL;
  try {
    uri = new URL(start.totpUri);
  } catch {
    throw refuse("totpUri", "is not a URI");
  }
  // A URL of a scheme that is not special keeps `totp` as its host (WHATWG URL).
  if (uri.protocol !== "otpauth:" || uri.host.toLowerCase() !== "totp") {
    throw refuse("totpUri", "is not an otpauth://totp/ URI");
  }
  const normal = (text: string) => text.replace(/[\s=-]/g, "").toUpperCase();
  const secret = uri.searchParams.get("secret");
  if (secret === null || normal(secret) !== normal(start.secretBase32Encoded)) {
    throw refuse("totpUri.secret", "is not the secret given for typing");
  }
  return { totpUri: start.totpUri, secretBase32Encoded: start.secretBase32Encoded };
}

/** enrollScaTotp's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const enrollScaTotpRow = {
  chunk: "scaFactors",
  sensitive: true,
  summary:
    "an authenticator app (TOTP) enrolled for SCA: start, the QR code's URI to `onSecret`, confirm with its code",
  parameters: "`{ onSecret }`",
  resolvesTo: "`{ recoveryCodes }`",
  requests: [{ route: SCA_FACTOR_ENROLL }, { route: SCA_FACTOR_CONFIRM }],
  errors: { client: [REQUEST_ERRORS, "PAYLOAD_MISMATCH"] },
  hook: {
    kind: "mutation",
    name: "useEnrollScaTotp",
    doc: "Enrolls an authenticator app (TOTP) as the customer's SCA factor (`enrollScaTotp`); pass `onSecret` to show the QR code and return the first code; `useScaFactors` refetches.",
    invalidates: ["scaFactors"],
  },
} as const satisfies ActionSourceRow;
