// Contact changes as a resource (the service's pull request #853, open when vendored:
// packages/test/spec/grid-api-pr853.yaml; docs/protocol.md §3): abandon a change the customer
// backed out of, `DELETE /customers/{id}/contact-changes/{changeId}`. The PR's cancel carries no
// stamp (BasicAuth alone, no `Grid-Wallet-Signature`): nothing is signed, the relay's ownership
// check of the customer and the change is what guards it.
import { assertCall, assertServiceId } from "../arguments/arguments.js";
import { type ActionRoute, type ActionSourceRow, at } from "../catalog/actionRow.js";
import type { ActionErrorCode } from "../catalog/errorCodes.js";
import type { SignetClient } from "../client.js";
import { REQUEST_ERRORS } from "../errors/errorGroups.js";
import { isSignetError, SignetError, type SignetErrorOf } from "../errors/errors.js";
import type { CallOptions } from "../session/events.js";
import { CONTACT_CHANGE_GET, type ContactChangeJson, parseContactChange } from "./changeContact.js";

export type CancelContactChangeParameters = CallOptions & {
  customerId: string;
  /** The change `changeContact`'s `onChange` told, still `AWAITING_SIGNATURE`. */
  changeId: string;
};
/** The change, `CANCELLED`. */
export type CancelContactChangeReturnType = ContactChangeJson & { status: "CANCELLED" };
export type CancelContactChangeErrorType = SignetErrorOf<ActionErrorCode<"cancelContactChange">>;

/**
 * Cancels a contact change that was created and not yet submitted (`AWAITING_SIGNATURE`), which
 * moves it to `CANCELLED`; the PR's cancel is not signed. A change already submitted resolves on
 * its own (`APPLIED` or `FAILED`) and is not cancelled: the service's 409 is passed on. A cancel
 * whose answer was lost is read back: a change found `CANCELLED` is the outcome, nothing is sent
 * twice.
 *
 * @throws {SignetError} `CONTACT_CHANGE_NOT_AWAITING_SIGNATURE` (409: submitted, or already
 *   terminal), `NOT_FOUND` (no such change of this customer), `MALFORMED_RESPONSE`, `NETWORK`,
 *   `INVALID_ARGUMENT`.
 * @example
 * ```ts
 * await cancelContactChange(client, { customerId, changeId });
 * ```
 */
export async function cancelContactChange(
  client: SignetClient,
  parameters: CancelContactChangeParameters,
): Promise<CancelContactChangeReturnType> {
  const { customerId, changeId } = assertCall(client, parameters);
  assertServiceId("customerId", customerId, "Customer");
  assertServiceId("changeId", changeId, "ContactChange");
  let change: ContactChangeJson;
  try {
    // The DELETE of one change is idempotent in effect: a repeat after a lost answer finds it
    // CANCELLED (a 409, read back below) and cancels nothing else.
    change = parseContactChange(
      await client.request<unknown>(
        { ...at(CONTACT_CHANGE_CANCEL, [customerId, changeId]), idempotent: true },
        parameters,
      ),
    );
  } catch (error) {
    if (!isSignetError(error) || error.code !== "CONTACT_CHANGE_NOT_AWAITING_SIGNATURE")
      throw error;
    change = parseContactChange(
      await client.request<unknown>(at(CONTACT_CHANGE_GET, [customerId, changeId]), parameters),
    );
    if (change.status !== "CANCELLED") throw error;
  }
  if (change.id !== changeId || change.customerId !== customerId || change.status !== "CANCELLED") {
    throw new SignetError("MALFORMED_RESPONSE", "Expected this contact change, CANCELLED");
  }
  return change as CancelContactChangeReturnType;
}

/** `DELETE /customers/{Customer}/contact-changes/{ContactChange}`: 200, the change `CANCELLED`. */
export const CONTACT_CHANGE_CANCEL = {
  method: "DELETE",
  path: "/customers/{Customer}/contact-changes/{ContactChange}",
  expectedStatus: 200,
} as const satisfies ActionRoute;

/** cancelContactChange's row of the catalog of actions (docs/architecture.md "Adding an action"). */
export const cancelContactChangeRow = {
  chunk: "wallet",
  summary:
    "cancels a contact change still `AWAITING_SIGNATURE` (the contact-change resource; not signed), read back after a lost answer",
  parameters: "`{ customerId, changeId }`",
  resolvesTo: '`ContactChangeJson` with `status: "CANCELLED"`',
  requests: [{ route: CONTACT_CHANGE_CANCEL }, { route: CONTACT_CHANGE_GET }],
  errors: { client: REQUEST_ERRORS },
  hook: {
    kind: "mutation",
    name: "useCancelContactChange",
    doc: "Cancels a contact change still awaiting its signature (`cancelContactChange`); a submitted change resolves on its own. Nothing the query cache holds changes.",
    invalidates: [],
  },
} as const satisfies ActionSourceRow;
