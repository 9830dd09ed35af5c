// Contact changes as a resource (the service's #853, vendored in packages/test/spec/grid-api-pr853.yaml),
// in process. Every answer goes through `call`, which judges it against the OpenAPI with the pull
// request merged in (testClient.ts): a status or body the PR's schemas do not allow fails the test.
import { beforeEach, describe, expect, it } from "vitest";
import { openApiJudge } from "../../test/src/openapi.js";
import { createEmulator, type Emulator } from "../src/index.js";
import {
  call,
  newKey,
  processTarget,
  SIGNATURE,
  signUp,
  stamp,
  type Target,
} from "./testClient.js";

let emulator: Emulator;
let t: Target;
beforeEach(() => {
  emulator = createEmulator();
  t = processTarget(emulator);
});

const changes = (customerId: string) => `/customers/${customerId}/contact-changes`;

describe("contact changes (#853)", () => {
  it("the judge knows the pull request's operations", () => {
    const judge = openApiJudge();
    expect(judge.operationOf("POST", "/customers/Customer:x/contact-changes")).toBe(
      "POST /customers/{customerId}/contact-changes",
    );
    expect(judge.operationOf("POST", "/customers/Customer:x/contact-changes/C:y/submit")).toBe(
      "POST /customers/{customerId}/contact-changes/{changeId}/submit",
    );
    expect(judge.checkComponent("ContactChange", { id: "x" })).not.toEqual([]);
  });

  it("an email tied to EMAIL_OTP: 202 AWAITING_SIGNATURE, the stamp-only submit applies it", async () => {
    const user = await signUp(t, "old@example.com");
    const created = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: "new@example.com",
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      customerId: user.customer.id,
      type: "EMAIL",
      value: "new@example.com",
      status: "AWAITING_SIGNATURE",
    });
    const payload = JSON.parse(created.body.payloadToSign);
    expect(payload.type).toBe("ACTIVITY_TYPE_UPDATE_USER_EMAIL");
    expect(payload.parameters.userEmail).toBe("new@example.com");
    const path = `${changes(user.customer.id)}/${created.body.id}`;
    // GET gives the payload back to a client that lost the create's answer.
    expect((await call(t, "GET", path)).body.payloadToSign).toBe(created.body.payloadToSign);
    const signature = stamp(created.body.payloadToSign, user.sessionKey);
    // A stamp by a key that is no session of the customer's wallets.
    const stranger = await call(t, "POST", `${path}/submit`, undefined, {
      [SIGNATURE]: stamp(created.body.payloadToSign, newKey()),
    });
    expect(stranger.status).toBe(401);
    const submitted = await call(t, "POST", `${path}/submit`, undefined, {
      [SIGNATURE]: signature,
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe("APPLIED");
    expect(submitted.body.payloadToSign).toBeUndefined();
    expect((await call(t, "GET", `/customers/${user.customer.id}`)).body.email).toBe(
      "new@example.com",
    );
    const creds = await call(t, "GET", `/auth/credentials?accountId=${user.account.id}`);
    expect(creds.body.data[0].nickname).toBe("new@example.com");
    // Re-sending after it applied returns the same change (never destructive).
    const again = await call(t, "POST", `${path}/submit`, undefined, { [SIGNATURE]: signature });
    expect(again.body).toEqual(submitted.body);
  });

  it("a phone with no SMS_OTP tied: 201 APPLIED on create, no payload", async () => {
    const user = await signUp(t);
    const created = await call(t, "POST", changes(user.customer.id), {
      type: "PHONE",
      value: "+14155559876",
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("APPLIED");
    expect(created.body.payloadToSign).toBeUndefined();
    expect(created.body.expiresAt).toBeUndefined();
    expect((await call(t, "GET", `/customers/${user.customer.id}`)).body.phoneNumber).toBe(
      "+14155559876",
    );
  });

  it("one active change per type (409 naming it), cancel, then no submit of a cancelled change", async () => {
    const user = await signUp(t);
    const first = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: "one@example.com",
    });
    const second = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: "two@example.com",
    });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      code: "CONTACT_CHANGE_PENDING",
      details: { contactChangeId: first.body.id },
    });
    const path = `${changes(user.customer.id)}/${first.body.id}`;
    const cancelled = await call(t, "DELETE", path);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("CANCELLED");
    const late = await call(t, "POST", `${path}/submit`, undefined, {
      [SIGNATURE]: stamp(first.body.payloadToSign, user.sessionKey),
    });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe("CONTACT_CHANGE_NOT_AWAITING_SIGNATURE");
    expect((await call(t, "DELETE", path)).status).toBe(409);
    const list = await call(t, "GET", changes(user.customer.id));
    expect(list.body.data.map((c: { status: string }) => c.status)).toEqual(["CANCELLED"]);
  });

  it("lapses to EXPIRED at expiresAt; PROCESSING under a fault, the same stamp then applies it", async () => {
    const user = await signUp(t);
    const lapsed = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: "late@example.com",
    });
    await call(t, "POST", "/_emulator/clock", { advanceMs: 10 * 60_000 });
    const read = await call(t, "GET", `${changes(user.customer.id)}/${lapsed.body.id}`);
    expect(read.body.status).toBe("EXPIRED");
    expect(read.body.expiresAt).toBeUndefined();

    const created = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: "slow@example.com",
    });
    const path = `${changes(user.customer.id)}/${created.body.id}`;
    const headers = { [SIGNATURE]: stamp(created.body.payloadToSign, user.sessionKey) };
    await call(t, "POST", "/_emulator/faults", { kind: "processing", match: { path } });
    const processing = await call(t, "POST", `${path}/submit`, undefined, headers);
    expect(processing.status).toBe(200);
    expect(processing.body).toMatchObject({ status: "PROCESSING" });
    expect(processing.body.id).toBeUndefined();
    const settled = await call(t, "POST", `${path}/submit`, undefined, headers);
    expect(settled.body.status).toBe("APPLIED");
  });

  it("a PROCESSING change is read settled, or still PROCESSING under a processing fault on its GET", async () => {
    const user = await signUp(t);
    const created = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: "reconciling@example.com",
    });
    const path = `${changes(user.customer.id)}/${created.body.id}`;
    const headers = { [SIGNATURE]: stamp(created.body.payloadToSign, user.sessionKey) };
    await call(t, "POST", "/_emulator/faults", {
      kind: "processing",
      match: { method: "POST", path },
    });
    const submitted = await call(t, "POST", `${path}/submit`, undefined, headers);
    expect(submitted.body).toMatchObject({ status: "PROCESSING" });
    // Not reconciled yet, twice: the reads find the change PROCESSING.
    await call(t, "POST", "/_emulator/faults", {
      kind: "processing",
      match: { method: "GET", path },
      count: 2,
    });
    for (let i = 0; i < 2; i++) {
      const read = await call(t, "GET", path);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: created.body.id, status: "PROCESSING" });
    }
    // Without the fault, the read finds it reconciled.
    const settled = await call(t, "GET", path);
    expect(settled.body).toMatchObject({ id: created.body.id, status: "APPLIED" });
  });

  it("424 SMS/EMAIL sync failure leaves the contact and moves the change to FAILED", async () => {
    const user = await signUp(t, "keep@example.com");
    const created = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: "lost@example.com",
    });
    const path = `${changes(user.customer.id)}/${created.body.id}`;
    await call(t, "POST", "/_emulator/faults", {
      kind: "error",
      at: "signed",
      status: 424,
      code: "EMAIL_OTP_CREDENTIAL_SYNC_FAILED",
      match: { path },
    });
    const failed = await call(t, "POST", `${path}/submit`, undefined, {
      [SIGNATURE]: stamp(created.body.payloadToSign, user.sessionKey),
    });
    expect(failed.status).toBe(424);
    const read = await call(t, "GET", path);
    expect(read.body).toMatchObject({
      status: "FAILED",
      failureReason: "EMAIL_OTP_CREDENTIAL_SYNC_FAILED",
    });
    expect((await call(t, "GET", `/customers/${user.customer.id}`)).body.email).toBe(
      "keep@example.com",
    );
  });

  it("refuses an invalid value (400) and another wallet's email (409)", async () => {
    const other = await signUp(t, "taken@example.com");
    const user = await signUp(t);
    const bad = await call(t, "POST", changes(user.customer.id), { type: "PHONE", value: "0155" });
    expect(bad.status).toBe(400);
    const taken = await call(t, "POST", changes(user.customer.id), {
      type: "EMAIL",
      value: other.customer.email,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe("EMAIL_OTP_EMAIL_ALREADY_EXISTS");
    expect(
      (await call(t, "GET", `${changes(user.customer.id)}/ContactChange:${crypto.randomUUID()}`))
        .status,
    ).toBe(404);
  });
});
