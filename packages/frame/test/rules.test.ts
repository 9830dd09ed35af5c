// The frame's table of what it signs (src/page/rules.ts): each route to its rule, the path's ids
// read back, the account of a stored session read from core's store id, and the bindings that
// refuse a key the frame did not make, before any payload is read.
import { describe, expect, it } from "vitest";
import { CREDENTIAL_ADD } from "../../core/src/actions/addPasskey.js";
import { QUOTE_EXECUTE } from "../../core/src/actions/executeQuote.js";
import { CREDENTIAL_REVOKE } from "../../core/src/actions/revokeCredential.js";
import type { RegistrationResponseJSON } from "../../core/src/webauthn/types.js";
import {
  accountOfStoreId,
  CREDENTIAL_ADD_ROUTE,
  CREDENTIAL_REVOKE_ROUTE,
  confirmationRows,
  OPAQUE_PAYMENT,
  QUOTE_EXECUTE_ROUTE,
  type RuleInput,
  ruleFor,
} from "../src/page/rules.js";
import { activity, input, key, verdict } from "./support/ruleInput.js";

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

  it("lets a stored session's legacy refresh name an unclaimed decrypt-only key of the frame, claimed for it", () => {
    const body = { clientPublicKey: key.publicKeyUncompressed };
    const legacy = { isSessionDecryptionKey: (k: string) => k === key.publicKeyUncompressed };
    const built = refresh.build(input({ body, ...legacy }));
    if (typeof built === "string") throw new Error(`expected a check, got ${built}`);
    expect(built).toMatchObject({
      accountId: "InternalAccount:1",
      sessionDecryptionKey: key.publicKeyUncompressed,
    });
    // Not for a session the frame has not stored (a sign-in's proof goes to a fresh signing key),
    // and not to a decrypt-only key an export claimed (the frame answers false for it).
    expect(refresh.build(input({ body, ...legacy, storedAccountId: undefined }))).toBe("key");
    expect(refresh.build(input({ body }))).toBe("key");
  });

  it("lets a fresh key the frame made prove its session by a refresh to another fresh key", async () => {
    const next = `03${"cd".repeat(32)}`;
    const fresh = { isFreshKey: () => true, storedAccountId: undefined };
    // A passkey sign-in's proof (core's proveSessionKey): stamped by the key the sign-in sent.
    const built = refresh.build(
      input({ ...fresh, body: { clientPublicKey: next }, stampedByFreshKey: true }),
    );
    if (typeof built === "string") throw new Error(`expected a check, got ${built}`);
    const session = (target: string) =>
      JSON.stringify({
        type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
        timestampMs: String(Date.now()),
        organizationId: "org_1",
        parameters: { targetPublicKey: target, expirationSeconds: "900" },
      });
    expect(await verdict(built.check, session(next))).toBe("signed");
    expect(await verdict(built.check, session(`02${"ef".repeat(32)}`))).toBe(
      "parameters.targetPublicKey",
    );
    // Never to itself, never from a key that is neither stored nor fresh, never to a key the
    // frame did not make.
    expect(
      refresh.build(
        input({ ...fresh, body: { clientPublicKey: key.publicKey }, stampedByFreshKey: true }),
      ),
    ).toBe("key");
    expect(refresh.build(input({ ...fresh, body: { clientPublicKey: next } }))).toBe("key");
    expect(
      refresh.build(
        input({
          storedAccountId: undefined,
          body: { clientPublicKey: next },
          stampedByFreshKey: true,
        }),
      ),
    ).toBe("key");
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
    expect(execute.rule.rows?.(opaque, execute.ids)).toEqual([
      { label: "Quote", value: "Quote:1" },
      { label: "Amount and payee", value: OPAQUE_PAYMENT },
    ]);
    expect(OPAQUE_PAYMENT).toMatch(/^This signer cannot see the amount or payee/);
    // Where only one of them is readable, the other is said to be absent.
    const partial = payload(
      Buffer.from(
        JSON.stringify({ quoteId: "Quote:1", from: "InternalAccount:1", amount: "5" }),
      ).toString("hex"),
    );
    const rows = execute.rule.rows?.(partial, execute.ids) ?? [];
    expect(rows.find((row) => row.label === "To")?.value).toMatch(/^Not in what is signed/);
  });

  it("names the operation by the frame's rule, never by the page's label", () => {
    const signed = payload(transfer({}));
    const rows = confirmationRows(execute.rule, "InternalAccount:1", signed, execute.ids);
    expect(rows.slice(0, 3)).toEqual([
      { label: "Operation", value: "Send a payment" },
      { label: "Account", value: "InternalAccount:1" },
      { label: "Activity", value: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" },
    ]);
    expect(rows.slice(3)).toEqual(execute.rule.rows?.(signed, execute.ids));
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

  it("shows an OAuth credential's issuer and email as its token names them", () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const token = (claims: Record<string, unknown>) =>
      `${part({ alg: "RS256" })}.${part(claims)}.c2ln`;
    const named = activity("CREATE_OAUTH_PROVIDERS", {
      oauthProviders: [
        {
          providerName: "p",
          oidcToken: token({ iss: "https://accounts.google.com", email: "ada@example.com" }),
        },
      ],
    });
    expect(add.rule.rows?.(named, add.ids)).toEqual([
      { label: "Provider", value: "https://accounts.google.com" },
      { label: "Provider account", value: "ada@example.com" },
    ]);
    const bare = activity("CREATE_OAUTH_PROVIDERS", {
      oauthProviders: [{ providerName: "p", oidcToken: token({ sub: "1" }) }],
    });
    expect(add.rule.rows?.(bare, add.ids)).toEqual([
      { label: "Provider", value: "Not named in the provider's token" },
      { label: "Provider account", value: "Not named in the provider's token" },
    ]);
  });

  it("adds only a passkey the frame's own ceremony made, and shows its name and credential id", async () => {
    const made: RegistrationResponseJSON = {
      id: "cred-1",
      rawId: "cred-1",
      type: "public-key",
      response: { clientDataJSON: "client-data", attestationObject: "attestation" },
    };
    const body = {
      type: "PASSKEY",
      accountId: "InternalAccount:1",
      nickname: "Phone",
      challenge: "challenge-challenge",
      attestation: { credentialId: "cred-1" },
    };
    const payload = (attestationObject: string, name = "Phone") =>
      activity("CREATE_AUTHENTICATORS_V2", {
        userId: "user_1",
        authenticators: [
          {
            authenticatorName: name,
            challenge: "challenge-challenge",
            attestation: {
              credentialId: "cred-1",
              clientDataJson: "client-data",
              attestationObject,
              transports: [],
            },
          },
        ],
      });
    const signed = payload("attestation");
    // An attestation the page made (the frame holds none by that id) is refused before any check.
    expect(add.rule.build(input({ body, payload: signed }))).toBe("passkey");
    const registration = (id: string) =>
      id === "cred-1" ? { registration: made, challenge: "challenge-challenge" } : undefined;
    const check = built(add.rule, { body, payload: signed, registration }).check;
    // Its own attestation, but for another challenge than the ceremony's: refused too.
    expect(
      add.rule.build(
        input({ body: { ...body, challenge: "another-challenge" }, payload: signed, registration }),
      ),
    ).toBe("passkey");
    expect(await verdict(check, signed)).toBe("signed");
    expect(await verdict(check, payload("another"))).toBe(
      "parameters.authenticators.0.attestation.attestationObject",
    );
    expect(await verdict(check, payload("attestation", "Other"))).toBe(
      "parameters.authenticators.0.authenticatorName",
    );
    expect(add.rule.rows?.(signed, add.ids)).toEqual([
      { label: "Passkey", value: "Phone" },
      { label: "Credential id", value: "cred-1" },
    ]);
  });

  it("refuses another account, a key that is no stored session's, and a passkey it did not make", () => {
    const payload = activity("UPDATE_USER_EMAIL", { userEmail: "ada@example.com" });
    const other = { type: "EMAIL_OTP", accountId: "InternalAccount:2" };
    expect(add.rule.build(input({ body: other, payload }))).toBe("key");
    const own = { type: "EMAIL_OTP", accountId: "InternalAccount:1" };
    expect(add.rule.build(input({ body: own, payload, storedAccountId: undefined }))).toBe("key");
    const passkey = { type: "PASSKEY", accountId: "InternalAccount:1" };
    expect(add.rule.build(input({ body: passkey, payload }))).toBe("passkey");
    expect(add.rule.build(input({ body: { type: "TOTP", accountId: "InternalAccount:1" } }))).toBe(
      "unsupported",
    );
    expect(revoke.rule.build(input({ payload, storedAccountId: undefined }))).toBe("key");
  });

  it("removes one credential of the kind the payload removes, never sets a contact", async () => {
    const passkey = activity("DELETE_AUTHENTICATORS", { authenticatorIds: ["a1"] });
    expect(await verdict(built(revoke.rule, { payload: passkey }).check, passkey)).toBe("signed");
    expect(revoke.rule.rows?.(passkey, revoke.ids)).toEqual([
      { label: "Sign-in method", value: "AuthMethod:2" },
      { label: "Kind", value: "PASSKEY" },
      { label: "Passkey removed", value: "a1" },
    ]);
    const provider = activity("DELETE_OAUTH_PROVIDERS", { providerIds: ["op-1"] });
    expect(revoke.rule.rows?.(provider, revoke.ids)).toEqual([
      { label: "Sign-in method", value: "AuthMethod:2" },
      { label: "Kind", value: "OAUTH" },
      { label: "Provider removed", value: "op-1" },
    ]);
    const two = activity("DELETE_AUTHENTICATORS", { authenticatorIds: ["a1", "a2"] });
    expect(await verdict(built(revoke.rule, { payload: two }).check, two)).not.toBe("signed");
    // A "removal" that sets the email elsewhere is no removal.
    const redirect = activity("UPDATE_USER_EMAIL", { userEmail: "thief@example.com" });
    expect(await verdict(built(revoke.rule, { payload: redirect }).check, redirect)).not.toBe(
      "signed",
    );
  });

  it("refuses a removal of no kind it knows (`kind`) before any check or tap", () => {
    for (const payload of [
      activity("DELETE_USERS", { userIds: ["u1"] }),
      activity("UPDATE_USER", { userEmail: "", userPhoneNumber: "" }),
      "not json",
    ])
      expect(revoke.rule.build(input({ payload }))).toBe("kind");
  });
});
