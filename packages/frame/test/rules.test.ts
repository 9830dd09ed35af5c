// The frame's table of what it signs (src/page/rules.ts): each route to its rule, the path's ids
// read back, the account of a stored session read from core's store id, and the bindings that
// refuse a key the frame did not make, before any payload is read.
import { describe, expect, it } from "vitest";
import type { SigningKey } from "../../core/src/crypto/backend.js";
import { accountOfStoreId, type RuleInput, ruleFor } from "../src/page/rules.js";

const key = { publicKey: `02${"ab".repeat(32)}`, publicKeyUncompressed: `04${"ab".repeat(64)}` };
const input = (overrides: Partial<RuleInput>): RuleInput => ({
  key: key as SigningKey,
  storedAccountId: "InternalAccount:1",
  ids: [],
  body: undefined,
  isFreshKey: () => false,
  isExportKey: () => false,
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
  ])("%s %s is %s", (method, path, title, gesture, ids) => {
    const found = ruleFor(method, path);
    expect(found?.rule.title).toBe(title);
    expect(found?.rule.gesture).toBe(gesture);
    expect(found?.ids).toEqual(ids);
  });

  it.each([
    ["POST", "/quotes/Quote:1/execute"],
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
