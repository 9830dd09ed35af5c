// The frame's rules for the account's settings (src/page/rulesAccount.ts): the wallet's privacy and
// the contact changes, each on core's own route, running core's own check with what the frame
// knows (the path's wallet, the body, the stamping session's account), and showing what the
// checked payload names.
import { describe, expect, it } from "vitest";
import { CONTACT_CHANGE_SUBMIT } from "../../core/src/actions/changeContact.js";
import { CONTACT_UPDATE } from "../../core/src/actions/updateCustomerContact.js";
import { WALLET_PRIVACY_UPDATE } from "../../core/src/actions/updateWalletPrivacy.js";
import { actionTable } from "../../core/src/catalog/actionTable.js";
import { ruleFor } from "../src/page/rules.js";
import {
  CONTACT_CHANGE_SUBMIT_ROUTE,
  CONTACT_UPDATE_ROUTE,
  WALLET_PRIVACY_ROUTE,
} from "../src/page/rulesAccount.js";
import { activity, input, key, verdict } from "./support/ruleInput.js";

const checkOf = (built: ReturnType<NonNullable<ReturnType<typeof ruleFor>>["rule"]["build"]>) => {
  if (typeof built === "string") throw new Error(`expected a check, got ${built}`);
  return built;
};

it("every route core's catalog signs has a rule (the delegated key's may still be pending elsewhere)", () => {
  const signed = Object.entries(actionTable).flatMap(([action, row]) =>
    (row.requests as ReadonlyArray<{ method: string; path: string; signed?: unknown }>)
      .filter((request) => request.signed)
      .map((request) => ({ action, method: request.method, path: request.path })),
  );
  // The route templates stand for their own ids here: each {Kind} is one path segment.
  const without = signed.filter(({ method, path }) => !ruleFor(method, path));
  const pending = new Set(["createDelegatedKey"]);
  expect(without.filter(({ action }) => !pending.has(action))).toEqual([]);
  expect(signed.map(({ action }) => action)).toEqual(
    expect.arrayContaining(["updateWalletPrivacy", "updateCustomerContact", "changeContact"]),
  );
});

it("the routes are core's own", () => {
  for (const [own, core] of [
    [WALLET_PRIVACY_ROUTE, WALLET_PRIVACY_UPDATE],
    [CONTACT_UPDATE_ROUTE, CONTACT_UPDATE],
    [CONTACT_CHANGE_SUBMIT_ROUTE, CONTACT_CHANGE_SUBMIT],
  ] as const)
    expect(own).toEqual({ method: core.method, path: core.path });
});

describe("the wallet's privacy (PATCH /internal-accounts/{id})", () => {
  const found = ruleFor("PATCH", "/internal-accounts/InternalAccount:1")!;
  // The emulator's raw payload: hex of UTF-8 JSON naming the wallet and the setting.
  const raw = (fields: Record<string, unknown>) =>
    activity("SIGN_RAW_PAYLOAD_V2", {
      signWith: "wallet_1",
      encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
      payload: Buffer.from(JSON.stringify(fields)).toString("hex"),
    });
  const on = raw({ internalAccountId: "InternalAccount:1", privateEnabled: true });

  it("needs the tap, signs this wallet's setting as the body sends it, and shows it", async () => {
    expect(found.rule.gesture).toBe(true);
    expect(found.ids).toEqual(["InternalAccount:1"]);
    const built = checkOf(
      found.rule.build(input({ ids: found.ids, body: { privateEnabled: true } })),
    );
    expect(built.accountId).toBe("InternalAccount:1");
    expect(await verdict(built.check, on)).toBe("signed");
    expect(found.rule.rows?.(on, found.ids)).toEqual([{ label: "Privacy", value: "On" }]);
    const off = raw({ internalAccountId: "InternalAccount:1", privateEnabled: false });
    expect(found.rule.rows?.(off, found.ids)).toEqual([{ label: "Privacy", value: "Off" }]);
  });

  it("refuses the other setting, another wallet, and a body without the setting", async () => {
    const built = checkOf(
      found.rule.build(input({ ids: found.ids, body: { privateEnabled: false } })),
    );
    expect(await verdict(built.check, on)).not.toBe("signed");
    const other = raw({ internalAccountId: "InternalAccount:2", privateEnabled: false });
    expect(await verdict(built.check, other)).not.toBe("signed");
    const noBody = checkOf(found.rule.build(input({ ids: found.ids, body: {} })));
    expect(await verdict(noBody.check, on)).toBe("INVALID_ARGUMENT");
  });

  it("refuses a wallet that is not the stamping session's", () => {
    const body = { privateEnabled: true };
    expect(found.rule.build(input({ ids: found.ids, body, storedAccountId: undefined }))).toBe(
      "key",
    );
    expect(
      found.rule.build(input({ ids: found.ids, body, storedAccountId: "InternalAccount:2" })),
    ).toBe("key");
  });

  it("says so where the raw payload is opaque (the service's)", () => {
    const opaque = activity("SIGN_RAW_PAYLOAD_V2", { signWith: "wallet_1", payload: "ea69b4bf" });
    expect(found.rule.rows?.(opaque, found.ids)?.[0]?.value).toMatch(/^Not in what is signed/);
  });
});

describe("a contact change by PATCH /customers/{id}", () => {
  const found = ruleFor("PATCH", "/customers/Customer:1")!;
  const email = activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com" });
  const phone = activity("UPDATE_USER_PHONE_NUMBER", { userPhoneNumber: "+4915112345678" });

  it("needs the tap, signs the contact the body sends, and shows the payload's", async () => {
    expect(found.rule.gesture).toBe(true);
    const built = checkOf(
      found.rule.build(input({ ids: found.ids, body: { email: "Ada@example.com" } })),
    );
    expect(await verdict(built.check, email)).toBe("signed");
    expect(found.rule.rows?.(email, found.ids)).toEqual([
      { label: "Customer", value: "Customer:1" },
      { label: "New email", value: "ada@example.com" },
    ]);
    const byPhone = checkOf(
      found.rule.build(input({ ids: found.ids, body: { phoneNumber: "+49 151 12345678" } })),
    );
    expect(await verdict(byPhone.check, phone)).toBe("signed");
    expect(found.rule.rows?.(phone, found.ids)?.[1]).toEqual({
      label: "New phone number",
      value: "+4915112345678",
    });
  });

  it("refuses another contact, a body with both or neither, and a key of no stored session", async () => {
    const built = checkOf(
      found.rule.build(input({ ids: found.ids, body: { email: "eve@example.com" } })),
    );
    expect(await verdict(built.check, email)).toBe("parameters.userEmail");
    expect(await verdict(built.check, phone)).not.toBe("signed");
    const both = { email: "ada@example.com", phoneNumber: "+4915112345678" };
    for (const body of [both, {}])
      expect(
        await verdict(checkOf(found.rule.build(input({ ids: found.ids, body }))).check, email),
      ).toBe("INVALID_ARGUMENT");
    expect(
      found.rule.build(
        input({ ids: found.ids, body: { email: "ada@example.com" }, storedAccountId: undefined }),
      ),
    ).toBe("key");
  });
});

describe("a contact change's submit (POST …/contact-changes/{id}/submit)", () => {
  const found = ruleFor("POST", "/customers/Customer:1/contact-changes/ContactChange:1/submit")!;

  it("needs the tap, checks the contact the payload sets and shows it", async () => {
    expect(found.rule.gesture).toBe(true);
    expect(found.ids).toEqual(["Customer:1", "ContactChange:1"]);
    const payload = activity("UPDATE_USER_PHONE_NUMBER", { userPhoneNumber: "+4915112345678" });
    const built = checkOf(found.rule.build(input({ ids: found.ids, payload })));
    expect(await verdict(built.check, payload)).toBe("signed");
    expect(found.rule.rows?.(payload, found.ids)).toEqual([
      { label: "Customer", value: "Customer:1" },
      { label: "New phone number", value: "+4915112345678" },
    ]);
  });

  it("refuses a payload that sets no contact, another organization, and a key of no stored session", async () => {
    const export_ = activity("EXPORT_WALLET", { targetPublicKey: key.publicKeyUncompressed });
    const built = checkOf(found.rule.build(input({ ids: found.ids, payload: export_ })));
    expect(await verdict(built.check, export_)).not.toBe("signed");
    const elsewhere = JSON.stringify({
      ...JSON.parse(activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com" })),
      organizationId: "org_2",
    });
    const pinned = checkOf(found.rule.build(input({ ids: found.ids, payload: elsewhere })));
    expect(await verdict(pinned.check, elsewhere)).not.toBe("signed");
    expect(found.rule.build(input({ ids: found.ids, storedAccountId: undefined }))).toBe("key");
  });
});
