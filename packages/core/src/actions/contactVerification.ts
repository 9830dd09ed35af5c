// docs/protocol.md §3 (contact verification): in a jurisdiction that requires it (the EU), the
// customer's email and phone are each proven by a code before they count:
// `POST /customers/{id}/verify-email|verify-phone` sends one, `…/confirm` `{ code }` takes it.
// Platform calls through the relay; nothing is signed by the device.

import { assertCall, assertServiceId } from "../arguments.js";
import type { SignetClient } from "../client.js";
import { assertArgument, type SignetErrorOf } from "../errors.js";
import type { CallOptions } from "../events.js";
import { expectShape } from "../transport/responseShape.js";
import type { CustomerJson } from "../wire.js";
import type { ActionErrorCode } from "./errorCodes.js";

/** Which contact a verification proves. */
export type ContactChannel = "email" | "phone";

const PATHS: Record<ContactChannel, string> = { email: "verify-email", phone: "verify-phone" };

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

/** `startContactVerification`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
export async function startContactVerification(
  client: SignetClient,
  parameters: StartContactVerificationParameters,
): Promise<StartContactVerificationReturnType> {
  const { customerId, channel } = assertCall(client, parameters);
  assertServiceId("customerId", customerId, "Customer");
  assertChannel(channel);
  await client.request<unknown>(
    { method: "POST", path: `/customers/${customerId}/${PATHS[channel]}`, expectedStatus: 204 },
    parameters,
  );
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

/** `confirmContactVerification`, loaded on first use: documented at the public function in `lazyWallet.ts`. */
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
        method: "POST",
        path: `/customers/${customerId}/${PATHS[channel]}/confirm`,
        body: JSON.stringify({ code: code.trim() }),
        expectedStatus: 200,
      },
      parameters,
    ),
    ["id"],
    "Customer",
  );
}
