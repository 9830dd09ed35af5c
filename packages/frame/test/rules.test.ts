// The frame's table of what it signs (src/page/rules.ts): each route to its rule, the path's ids
// read back, the account of a stored session read from core's store id, and the bindings that
// refuse a key the frame did not make, before any payload is read.
import { describe, expect, it } from "vitest";
import { CREDENTIAL_ADD } from "../../core/src/actions/addPasskey.js";
import { QUOTE_EXECUTE } from "../../core/src/actions/executeQuote.js";
import { CREDENTIAL_REVOKE } from "../../core/src/actions/revokeCredential.js";
import type { SigningKey } from "../../core/src/crypto/backend.js";
import { isSignetError } from "../../core/src/errors/errors.js";
import type { CheckPayload } from "../../core/src/transport/payloadCheck.js";
import {
  accountOfStoreId,
  CREDENTIAL_ADD_ROUTE,
  CREDENTIAL_REVOKE_ROUTE,
  QUOTE_EXECUTE_ROUTE,
  type RuleInput,
  ruleFor,
} from "../src/page/rules.js";

const key = { publicKey: `02${"ab".repeat(32)}`, publicKeyUncompressed: `04${"ab".repeat(64)}` };
const input = (overrides: Partial<RuleInput>): RuleInput => ({
  key: key as SigningKey,
  storedAccountId: "InternalAccount:1",
  ids: [],
  body: undefined,
  isFreshKey: () => false,
  isExportKey: () => false,
  payload: "",
  ...overrides,
});

describe("ruleFor", () => {
  it.each([
    ["POST", "/auth/credentials/AuthMethod:1/verify", "Sign in", false, ["AuthMethod:1"]],
    ["POST", "/auth/sessions/Session:1/refresh", "Refresh the session", false, ["Session:1"]],
    ["DELETE", "/auth/sessions/Session:1", "End a session", false, ["Session:1"]],
    [
      "POST",
      "/internal-accounts/InternalAccount:1/export",
      "Show the recovery phrase",
      true,
      ["InternalAccount:1"],
    ],
    ["POST", "/quotes/Quote:1/execute", "Send a payment", true, ["Quote:1"]],
  ])("%s %s is %s", (method, path, title, gesture, ids) => {
    const found = ruleFor(method, path);
    expect(found?.rule.title).toBe(title);
    expect(found?.rule.gesture).toBe(gesture);
    expect(found?.ids).toEqual(ids);
  });

  it.each([
    ["POST", "/quotes/Quote:1/authorize"],
    ["GET", "/auth/sessions/Session:1"],
    ["POST", "/auth/sessions/Session:1/refresh/extra"],
    ["POST", "/internal-accounts/InternalAccount:1/export?x=1"],
  ])("refuses %s %s", (method, path) => {
    expect(ruleFor(method, path)).toBeUndefined();
  });
});

describe("the frame's bindings", () => {
  const refresh = ruleFor("POST", "/auth/sessions/Session:1/refresh")!.rule;
  const exporting = ruleFor("POST", "/internal-accounts/InternalAccount:1/export")!;

  it("refreshes only to a key the frame just made, for a stored session", () => {
    const body = { clientPublicKey: key.publicKey };
    expect(refresh.build(input({ body }))).toBe("key");
    expect(refresh.build(input({ body, isFreshKey: () => true, storedAccountId: undefined }))).toBe(
      "key",
    );
    expect(refresh.build(input({ body, isFreshKey: () => true }))).toMatchObject({
      accountId: "InternalAccount:1",
    });
  });

  it("exports only to a decrypt-only key the frame made", () => {
    const body = { clientPublicKey: key.publicKeyUncompressed };
    const ids = exporting.ids;
    expect(exporting.rule.build(input({ body, ids }))).toBe("key");
    expect(exporting.rule.build(input({ body, ids, isExportKey: () => true }))).toMatchObject({
      accountId: "InternalAccount:1",
      exportKey: key.publicKeyUncompressed,
    });
  });
});

describe("accountOfStoreId", () => {
  it("reads the account of core's session ids only", () => {
    expect(accountOfStoreId("signet.session|InternalAccount:1|Session:1||1700000000000")).toBe(
      "InternalAccount:1",
    );
    expect(accountOfStoreId("signet.possible|InternalAccount:1")).toBeUndefined();
    expect(accountOfStoreId(undefined)).toBeUndefined();
  });
});

/** The field core's check refuses in `payload`, or "signed" when it passes. */
async function verdict(check: CheckPayload, payload: string): Promise<string> {
  try {
    const result = await check(payload, { operation: "test", signature: 1, now: Date.now() });
    return result.known ? "signed" : "unknown";
  } catch (error) {
    if (isSignetError(error, "PAYLOAD_MISMATCH")) return String(error.details?.field);
    throw error;
  }
}

describe("a payment (POST /quotes/{id}/execute)", () => {
  it("is core's execute route", () => {
    expect(QUOTE_EXECUTE_ROUTE).toEqual({
      method: QUOTE_EXECUTE.method,
      path: QUOTE_EXECUTE.path,
    });
  });

  const execute = ruleFor("POST", "/quotes/Quote:1/execute")!;
  // The emulator's readable transaction (hex of UTF-8 JSON); the service's is opaque chain bytes.
  const transfer = (fields: Record<string, unknown>) =>
    Buffer.from(
      JSON.stringify({
        quoteId: "Quote:1",
        from: "InternalAccount:1",
        destination: "ExternalAccount:1",
        amount: "100000",
        currency: "USDB",
        ...fields,
      }),
    ).toString("hex");
  const payload = (unsignedTransaction: string) =>
    JSON.stringify({
      type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
      timestampMs: String(Date.now()),
      organizationId: "org_1",
      parameters: { signWith: "wallet_1", unsignedTransaction, type: "TRANSACTION_TYPE_SPARK" },
    });
  const built = () => {
    const result = execute.rule.build(input({ ids: execute.ids }));
    if (typeof result === "string") throw new Error("expected the execute's check");
    return result;
  };

  it("signs a transfer of this quote from the stamping session's account, and shows it", async () => {
    const signed = payload(transfer({}));
    expect(built().accountId).toBe("InternalAccount:1");
    expect(await verdict(built().check, signed)).toBe("signed");
    expect(execute.rule.rows?.(signed, execute.ids)).toEqual([
      { label: "Quote", value: "Quote:1" },
      { label: "Amount", value: "100000 USDB" },
      { label: "To", value: "ExternalAccount:1" },
    ]);
  });

  it("says so where the signed transaction does not show the amount or the payee", async () => {
    const opaque = payload("ea69b4bf05f775209f26ff0a34a05569180f7936579d5c4af9377ae550194f72");
    expect(await verdict(built().check, opaque)).toBe("signed");
    const rows = execute.rule.rows?.(opaque, execute.ids) ?? [];
    expect(rows.find((row) => row.label === "Amount")?.value).toMatch(/^Not in what is signed/);
    expect(rows.find((row) => row.label === "To")?.value).toMatch(/^Not in what is signed/);
  });

  it("refuses another quote, another source account, or an activity that is no transfer", async () => {
    expect(await verdict(built().check, payload(transfer({ quoteId: "Quote:2" })))).toBe(
      "parameters.unsignedTransaction.quoteId",
    );
    expect(await verdict(built().check, payload(transfer({ from: "InternalAccount:2" })))).toBe(
      "parameters.unsignedTransaction.from",
    );
    const privacy = JSON.stringify({
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      timestampMs: String(Date.now()),
      organizationId: "org_1",
      parameters: { signWith: "wallet_1", payload: "00", encoding: "PAYLOAD_ENCODING_HEXADECIMAL" },
    });
    expect(await verdict(built().check, privacy)).not.toBe("signed");
  });

  it("refuses a key that is no stored session's (the frame cannot tell whose payment it is)", () => {
    expect(execute.rule.build(input({ ids: execute.ids, storedAccountId: undefined }))).toBe("key");
  });
});

describe("credential changes (POST /auth/credentials, DELETE /auth/credentials/{id})", () => {
  const add = ruleFor("POST", "/auth/credentials")!;
  const revoke = ruleFor("DELETE", "/auth/credentials/AuthMethod:2")!;
  const activity = (type: string, parameters: Record<string, unknown>) =>
    JSON.stringify({
      type: `ACTIVITY_TYPE_${type}`,
      timestampMs: String(Date.now()),
      organizationId: "org_1",
      parameters,
    });
  const built = (rule: typeof add.rule, overrides: Partial<RuleInput>) => {
    const result = rule.build(input(overrides));
    if (typeof result === "string") throw new Error(`expected a check, got ${result}`);
    return result;
  };

  it("are core's credential routes", () => {
    expect(CREDENTIAL_ADD_ROUTE).toEqual({
      method: CREDENTIAL_ADD.method,
      path: CREDENTIAL_ADD.path,
    });
    expect(CREDENTIAL_REVOKE_ROUTE).toEqual({
      method: CREDENTIAL_REVOKE.method,
      path: CREDENTIAL_REVOKE.path,
    });
    expect(add.rule.gesture).toBe(true);
    expect(revoke.rule.gesture).toBe(true);
  });

  it("adds the email the payload names, and shows it; refuses a payload that adds no email", async () => {
    const payload = activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com" });
    const body = { type: "EMAIL_OTP", accountId: "InternalAccount:1" };
    expect(await verdict(built(add.rule, { body, payload }).check, payload)).toBe("signed");
    expect(add.rule.rows?.(payload, add.ids)).toEqual([
      { label: "Codes will go to", value: "ada@example.com" },
    ]);
    const phone = activity("UPDATE_USER_PHONE_NUMBER", { userPhoneNumber: "+14155550100" });
    expect(await verdict(built(add.rule, { body, payload: phone }).check, phone)).not.toBe(
      "signed",
    );
  });

  it("binds an OAuth credential to the token the body sends", async () => {
    const body = { type: "OAUTH", accountId: "InternalAccount:1", oidcToken: "token-1" };
    const own = activity("CREATE_OAUTH_PROVIDERS", {
      oauthProviders: [{ providerName: "p", oidcToken: "token-1" }],
    });
    const other = activity("CREATE_OAUTH_PROVIDERS", {
      oauthProviders: [{ providerName: "p", oidcToken: "token-2" }],
    });
    expect(await verdict(built(add.rule, { body, payload: own }).check, own)).toBe("signed");
    expect(await verdict(built(add.rule, { body, payload: other }).check, other)).not.toBe(
      "signed",
    );
  });

  it("refuses another account, a key that is no stored session's, and a passkey (not yet)", () => {
    const payload = activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com" });
    const other = { type: "EMAIL_OTP", accountId: "InternalAccount:2" };
    expect(add.rule.build(input({ body: other, payload }))).toBe("key");
    const own = { type: "EMAIL_OTP", accountId: "InternalAccount:1" };
    expect(add.rule.build(input({ body: own, payload, storedAccountId: undefined }))).toBe("key");
    const passkey = { type: "PASSKEY", accountId: "InternalAccount:1" };
    expect(add.rule.build(input({ body: passkey, payload }))).toBe("unsupported");
    expect(revoke.rule.build(input({ payload, storedAccountId: undefined }))).toBe("key");
  });

  it("removes one credential of the kind the payload removes, never sets a contact", async () => {
    const passkey = activity("DELETE_AUTHENTICATORS", { authenticatorIds: ["a1"] });
    expect(await verdict(built(revoke.rule, { payload: passkey }).check, passkey)).toBe("signed");
    expect(revoke.rule.rows?.(passkey, revoke.ids)).toEqual([
      { label: "Sign-in method", value: "AuthMethod:2" },
      { label: "Kind", value: "PASSKEY" },
    ]);
    const two = activity("DELETE_AUTHENTICATORS", { authenticatorIds: ["a1", "a2"] });
    expect(await verdict(built(revoke.rule, { payload: two }).check, two)).not.toBe("signed");
    // A "removal" that sets the email elsewhere is no removal.
    const redirect = activity("UPDATE_USER_EMAIL", { userEmail: "thief@example.com" });
    expect(await verdict(built(revoke.rule, { payload: redirect }).check, redirect)).not.toBe(
      "signed",
    );
  });
});
