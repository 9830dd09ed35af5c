// docs/protocol.md §3 (contact verification): in a jurisdiction that requires it (the EU), the
// customer's email and phone are each proven by a code before they count:
// `POST /customers/{id}/verify-email|verify-phone` sends one, `…/confirm` `{ code }` takes it.
// Platform calls through the relay; nothing is signed by the device.

import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { assertArgument, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { expectShape } from "../transport/responseShape.js";
import type { CustomerJson } from "../transport/wire.js";

/** Which contact a verification proves. */
export type ContactChannel = "email" | "phone";

// Defined below, beside the rows; read only when an action runs.
const START = () => ({ email: EMAIL_VERIFY, phone: PHONE_VERIFY });
const CONFIRM = () => ({ email: EMAIL_VERIFY_CONFIRM, phone: PHONE_VERIFY_CONFIRM });

function assertChannel(channel: unknown): asserts channel is ContactChannel {
  assertArgument(
    channel === "email" || channel === "phone",
    "channel",
    '"email" or "phone"',
    String(channel),
  );
}

export type StartContactVerificationParameters = CallOptions & {
  customerId: string;
  channel: ContactChannel;
};
export type StartContactVerificationReturnType = undefined;
export type StartContactVerificationErrorType = SignetErrorOf<
  ActionErrorCode<"startContactVerification">
>;

/**
 * Sends a verification code to the customer's email or phone (`POST
 * /customers/{id}/verify-email` or `/verify-phone`). Confirm with `confirmContactVerification`.
 *
 * @throws {SignetError} `CONFLICT` (409: already verified, or not required here), `RATE_LIMITED`, `NETWORK`.
 * @example
 * ```ts
 * await startContactVerification(client, { customerId, channel: "phone" });
 * ```
 */
export async function startContactVerification(
  client: SignetClient,
  parameters: StartContactVerificationParameters,
): Promise<StartContactVerificationReturnType> {
  const { customerId, channel } = assertCall(client, parameters);
  assertServiceId("customerId", customerId, "Customer");
  assertChannel(channel);
  await client.request<unknown>(at(START()[channel], [customerId]), parameters);
}

export type ConfirmContactVerificationParameters = CallOptions & {
  customerId: string;
  channel: ContactChannel;
  /** The code the customer received. Never echoed in an error or an event. */
  code: string;
};
/** The customer, its `contactVerification` now saying `VERIFIED` for the channel. */
export type ConfirmContactVerificationReturnType = CustomerJson;
export type ConfirmContactVerificationErrorType = SignetErrorOf<
  ActionErrorCode<"confirmContactVerification">
>;

/**
 * Confirms the code of a contact verification (`POST /customers/{id}/verify-email/confirm` or
 * `/verify-phone/confirm` `{ code }`).
 *
 * @throws {SignetError} `INVALID_INPUT` (400: a wrong or lapsed code), `CONFLICT`, `NETWORK`.
 * @example
 * ```ts
 * const customer = await confirmContactVerification(client, { customerId, channel: "phone", code });
 * ```
 */
export async function confirmContactVerification(
  client: SignetClient,
  parameters: ConfirmContactVerificationParameters,
): Promise<ConfirmContactVerificationReturnType> {
  const { customerId, channel, code } = assertCall(client, parameters);
  assertServiceId("customerId", customerId, "Customer");
  assertChannel(channel);
  assertArgument(
    typeof code === "string" && /^\S{1,64}$/.test(code.trim()),
    "code",
    "the code the customer received",
    typeof code,
  );
  return expectShape<CustomerJson>(
    await client.request<unknown>(
      {
        ...at(CONFIRM()[channel], [customerId]),
        body: JSON.stringify({ code: code.trim() }),
      },
      parameters,
    ),
    ["id"],
    "Customer",
  );
}

/** `POST /customers/{Customer}/verify-email`. */
export const EMAIL_VERIFY = {
  method: "POST",
  path: "/customers/{Customer}/verify-email",
  expectedStatus: 204,
} as const satisfies ActionRoute;
/** `POST /customers/{Customer}/verify-phone`. */
export const PHONE_VERIFY = {
  method: "POST",
  path: "/customers/{Customer}/verify-phone",
  expectedStatus: 204,
} as const satisfies ActionRoute;
/** `POST /customers/{Customer}/verify-email/confirm`. */
export const EMAIL_VERIFY_CONFIRM = {
  method: "POST",
  path: "/customers/{Customer}/verify-email/confirm",
  expectedStatus: 200,
} as const satisfies ActionRoute;
/** `POST /customers/{Customer}/verify-phone/confirm`. */
export const PHONE_VERIFY_CONFIRM = {
  method: "POST",
  path: "/customers/{Customer}/verify-phone/confirm",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** startContactVerification's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const startContactVerificationRow = {
  chunk: "wallet",
  summary: "sends a code that proves the customer's email or phone (EU customers)",
  parameters: '`{ customerId, channel: "email" | "phone" }`',
  resolvesTo: "`undefined`",
  requests: [{ route: EMAIL_VERIFY }, { route: PHONE_VERIFY }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "mutation",
    name: "useStartContactVerification",
    doc: "Sends a code that verifies the customer's email or phone (`startContactVerification`).",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;

/** confirmContactVerification's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const confirmContactVerificationRow = {
  chunk: "wallet",
  summary: "confirms the email or phone with its code",
  parameters: '`{ customerId, channel: "email" | "phone", code }`',
  resolvesTo: "`CustomerJson`",
  requests: [{ route: EMAIL_VERIFY_CONFIRM }, { route: PHONE_VERIFY_CONFIRM }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "mutation",
    name: "useConfirmContactVerification",
    doc: "Confirms a contact verification code (`confirmContactVerification`).",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
