// What the frame signs for the account's own settings (README "What the frame signs"): the
// wallet's privacy (`updateWalletPrivacy`) and the customer's email or phone number, by the PATCH
// (`updateCustomerContact`, and `changeContact` in its default mode) or by the contact-change
// resource's submit (`changeContact` with `contactChanges: "resource"`). Each rule runs core's own
// check of the action (imported from its action file when first asked for, so the frame page does
// not load it up front), binds what the request and the frame itself know (the path's ids, the
// body, the stamping session's account), needs the user's tap in the frame, and shows what the
// checked payload says, never what the page says about it. `rules.ts` spreads these into its table.

import { SignetError } from "../../../core/src/errors/errors.js";
import type { CheckPayload } from "../../../core/src/transport/payloadCheck.js";
import { readActivity, readTransaction } from "../../../core/src/transport/payloadParse.js";
import type { ConfirmRow } from "./confirm.js";
// The pins' owner every check of the frame shares (ruleOwner.ts), as one client keeps them.
import { owner } from "./ruleOwner.js";

/** `WALLET_PRIVACY_UPDATE` of core's updateWalletPrivacy.ts (the frame's test holds them equal). */
export const WALLET_PRIVACY_ROUTE = {
  method: "PATCH",
  path: "/internal-accounts/{InternalAccount}",
} as const;
/** `CONTACT_UPDATE` of core's updateCustomerContact.ts. */
export const CONTACT_UPDATE_ROUTE = { method: "PATCH", path: "/customers/{Customer}" } as const;
/** `CONTACT_CHANGE_SUBMIT` of core's changeContact.ts (a stamp with no body). */
export const CONTACT_CHANGE_SUBMIT_ROUTE = {
  method: "POST",
  path: "/customers/{Customer}/contact-changes/{ContactChange}/submit",
} as const;

/** What a rule shows where the signed payload does not say it (the service's may be opaque). */
const ABSENT = "Not in what is signed: check it in the app before you confirm";

type Contact = { email: string } | { phoneNumber: string };

/** Core's checks, loaded when an account change is first asked for. */
const accountChecks = {
  privacy:
    (request: { accountId: string; privateEnabled: boolean }): CheckPayload =>
    async (payload, context) =>
      (await import("../../../core/src/actions/updateWalletPrivacy.js")).updateWalletPrivacyPayload(
        owner,
        request,
      )(payload, context),
  contact:
    (request: { accountId: string } & Contact): CheckPayload =>
    async (payload, context) =>
      (
        await import("../../../core/src/actions/updateCustomerContact.js")
      ).updateCustomerContactPayload(owner, request)(payload, context),
};

/** A check that refuses: the request itself is not one the action sends. */
const refusing =
  (what: string): CheckPayload =>
  async () => {
    throw new SignetError("INVALID_ARGUMENT", `The request's ${what} is not the action's`);
  };

const parametersOf = (payload: string) =>
  (readActivity(payload)?.parameters ?? {}) as Record<string, unknown>;

/** The new contact the payload's activity sets: the email or the phone number, by its type. */
function contactOf(payload: string): Contact | undefined {
  const type = readActivity(payload)?.type;
  const parameters = parametersOf(payload);
  if (type === "ACTIVITY_TYPE_UPDATE_USER_EMAIL" && typeof parameters.userEmail === "string")
    return { email: parameters.userEmail };
  if (
    type === "ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER" &&
    typeof parameters.userPhoneNumber === "string"
  )
    return { phoneNumber: parameters.userPhoneNumber };
  return undefined;
}

/** The rows of a contact change: the customer and the new contact, as the payload names them. */
const contactRows = (payload: string, ids: readonly string[]): ConfirmRow[] => {
  const contact = contactOf(payload);
  return [
    { label: "Customer", value: ids[0] ?? "" },
    contact && "email" in contact
      ? { label: "New email", value: contact.email }
      : { label: "New phone number", value: contact?.phoneNumber ?? ABSENT },
  ];
};

/**
 * What these rules read of a request: `rules.ts`'s `RuleInput` narrowed to it (its `Rule` takes
 * them as they are; this module does not import `rules.ts`, which imports it).
 */
type AccountRuleInput = {
  /** The account of the stored session whose key stamps, when it is one. */
  storedAccountId: string | undefined;
  /** The path's ids, in the route's order. */
  ids: readonly string[];
  /** The request's body, parsed (an object), or undefined. */
  body: Record<string, unknown> | undefined;
  /** The payload asked to be stamped (its check has not run yet). */
  payload: string;
};

/** A rule of `rules.ts`'s table, as these rules need it. */
type AccountRule = {
  title: string;
  gesture: true;
  build(input: AccountRuleInput): { check: CheckPayload; accountId: string } | "key";
  rows(payload: string, ids: readonly string[]): ConfirmRow[];
};

/** The frame's rules for the account's settings, spread into `rules.ts`'s table. */
export const ACCOUNT_RULES: ReadonlyArray<{
  route: { method: string; path: string };
  rule: AccountRule;
}> = [
  {
    route: WALLET_PRIVACY_ROUTE,
    rule: {
      title: "Change the wallet's privacy",
      gesture: true,
      // Core's privacy check for the path's wallet (it must be the stamping session's) and the
      // setting the body sends: the raw payload of this wallet and, where its bytes are readable
      // (the emulator's), of this setting.
      build: ({ ids, body, storedAccountId }) => {
        const accountId = ids[0];
        if (!accountId || !storedAccountId || accountId !== storedAccountId) return "key";
        const privateEnabled = body?.privateEnabled;
        return {
          check:
            typeof privateEnabled === "boolean"
              ? accountChecks.privacy({ accountId, privateEnabled })
              : refusing("body"),
          accountId,
        };
      },
      rows: (payload) => {
        const named = readTransaction(parametersOf(payload))?.privateEnabled;
        const flag =
          named === true || named === "true"
            ? true
            : named === false || named === "false"
              ? false
              : undefined;
        return [
          {
            label: "Privacy",
            value: flag === undefined ? ABSENT : flag ? "On" : "Off",
          },
        ];
      },
    },
  },
  {
    route: CONTACT_UPDATE_ROUTE,
    rule: {
      title: "Change your email or phone number",
      gesture: true,
      // Core's contact check for the one contact the body sends (an email or a phone number):
      // the payload must set exactly it, for the stamping session's account.
      build: ({ body, storedAccountId }) => {
        if (!storedAccountId) return "key";
        const email = typeof body?.email === "string" ? body.email : undefined;
        const phoneNumber = typeof body?.phoneNumber === "string" ? body.phoneNumber : undefined;
        const contact: Contact | undefined =
          email !== undefined && phoneNumber === undefined
            ? { email }
            : phoneNumber !== undefined && email === undefined
              ? { phoneNumber }
              : undefined;
        return {
          check: contact
            ? accountChecks.contact({ accountId: storedAccountId, ...contact })
            : refusing("body"),
          accountId: storedAccountId,
        };
      },
      rows: contactRows,
    },
  },
  {
    route: CONTACT_CHANGE_SUBMIT_ROUTE,
    rule: {
      title: "Change your email or phone number",
      gesture: true,
      // The submit has no body: the contact is the one the payload sets, held to core's contact
      // check (the activity, the organization and user of the stamping session's account) and
      // shown for the user to confirm, so the user's tap is what binds it.
      build: ({ storedAccountId, payload }) => {
        if (!storedAccountId) return "key";
        const contact = contactOf(payload);
        return {
          check: contact
            ? accountChecks.contact({ accountId: storedAccountId, ...contact })
            : refusing("payload"),
          accountId: storedAccountId,
        };
      },
      rows: contactRows,
    },
  },
];
