// Routing, platform auth, bad input, controls, faults, clock, reset, log and determinism.
import { describe, expect, it } from "vitest";
import { createEmulator, EmulatorDropError } from "../src/index.js";
import { AUTH, call, processTarget, SIGNATURE, signedCall, signUp } from "./testClient.js";

const fresh = (options = {}) => {
  const emulator = createEmulator(options);
  return { emulator, t: processTarget(emulator) };
};

describe("routing and platform auth", () => {
  it("requires Basic auth on service routes, not on controls", async () => {
    const { emulator } = fresh({ clientId: "id", clientSecret: "secret" });
    const none = await emulator.fetch(new Request("http://e/customers"));
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    const wrong = await emulator.fetch(
      new Request("http://e/customers", { headers: { authorization: AUTH } }),
    );
    expect(wrong.status).toBe(401);
    const right = await emulator.fetch(
      new Request("http://e/customers", {
        headers: { authorization: `Basic ${btoa("id:secret")}` },
      }),
    );
    expect(right.status).toBe(200);
    expect((await emulator.fetch(new Request("http://localhost/_emulator/keys"))).status).toBe(200);
  });

  it("serves paths at the root and under /grid/2025-10-13", async () => {
    const { t } = fresh();
    expect((await call(t, "GET", "/grid/2025-10-13/customers")).status).toBe(200);
    expect((await call(t, "GET", "/customers")).status).toBe(200);
  });

  it("answers 404 for unknown routes and 405 with Allow for wrong methods", async () => {
    const { t } = fresh();
    const missing = await call(t, "GET", "/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("REFERENCE_NOT_FOUND");
    const wrong = await call(t, "PUT", "/auth/credentials");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, POST");
    expect((await call(t, "GET", "/_emulator/nope")).status).toBe(404);
    expect((await call(t, "DELETE", "/_emulator/keys")).status).toBe(405);
  });

  it("refuses malformed JSON, a wrong content type, an array body and bad ids with 400", async () => {
    const { t } = fresh();
    const malformed = await call(t, "POST", "/customers", "{", {
      "content-type": "application/json",
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details.errors[0].field).toBe("body");
    const text = await call(
      t,
      "POST",
      "/customers",
      JSON.stringify({ customerType: "INDIVIDUAL" }),
      {
        "content-type": "text/plain",
      },
    );
    expect(text.status).toBe(400);
    expect(text.body.details.errors[0].field).toBe("Content-Type");
    const array = await call(t, "POST", "/customers", []);
    expect(array.status).toBe(400);
    const empty = await call(t, "POST", "/customers");
    expect(empty.status).toBe(400);
    // A read documents no 400: a malformed id is not found; a write names the field.
    const badId = await call(t, "GET", "/customers/Customer:123");
    expect(badId.status).toBe(404);
    expect(badId.body.code).toBe("USER_NOT_FOUND");
    const badWrite = await call(t, "PATCH", "/customers/Customer:123", { fullName: "Ada" });
    expect(badWrite.status).toBe(400);
    expect(badWrite.body.details.errors[0].field).toBe("id");
    const badPercent = await call(t, "GET", "/customers/%E0%A4%A");
    expect([400, 404]).toContain(badPercent.status);
    const binary = await call(
      t,
      "POST",
      "/customers",
      new Uint8Array([0xff, 0xfe]) as unknown as string,
    );
    expect(binary.status).toBe(400);
  });

  it("refuses bodies over 1 MB with 413", async () => {
    const { t } = fresh();
    const r = await call(
      t,
      "POST",
      "/customers",
      JSON.stringify({ customerType: "INDIVIDUAL", fullName: "x".repeat(1_100_000) }),
    );
    expect(r.status).toBe(413);
    expect(r.body.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("never answers 500 to hostile JSON", async () => {
    const { t } = fresh();
    const user = await signUp(t);
    const bodies = [
      "null",
      "1",
      '"s"',
      '{"__proto__":{"x":1}}',
      '{"type":null}',
      '{"type":"EMAIL_OTP","accountId":{"toString":1}}',
      '{"type":"PASSKEY","accountId":"InternalAccount:00000000-0000-4000-8000-000000000000","nickname":"n","challenge":"AA","attestation":{"credentialId":"AA","clientDataJson":"AA","attestationObject":"AA"}}',
      '{"type":"OAUTH","accountId":"x","oidcToken":"a.b.c"}',
    ];
    for (const path of [
      "/auth/credentials",
      `/auth/credentials/${user.credential.id}/verify`,
      "/quotes",
      "/cards",
      "/auth/delegated-keys",
    ]) {
      for (const body of bodies) {
        const r = await call(t, "POST", path, body);
        expect(r.status, `${path} ${body}`).toBeGreaterThanOrEqual(400);
        expect(r.status, `${path} ${body}`).toBeLessThan(500);
      }
    }
    const bogus = await call(t, "POST", `/auth/credentials/${user.credential.id}/verify`, {
      type: "EMAIL_OTP",
      encryptedOtpBundle: JSON.stringify({
        encappedPublic: "04".padEnd(130, "0"),
        ciphertext: "00",
      }),
    });
    expect(bogus.status).toBe(401);
  });
});

describe("controls", () => {
  it("publishes the keys a client pins", async () => {
    const { emulator, t } = fresh();
    const keys = await call(t, "GET", "/_emulator/keys");
    expect(keys.body.attestationPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(keys.body.signerPublicKey).toMatch(/^04[0-9a-f]{128}$/);
    expect(keys.body.attestationPublicKey).toBe(emulator.keys.attestationPublicKey);
    expect(keys.body.organizationId).toBe(emulator.organizationId);
  });

  it("injects error, rate_limit, delay and drop faults for the next matching requests", async () => {
    const { emulator, t } = fresh();
    const armed = await call(t, "POST", "/_emulator/faults", {
      faults: [
        {
          match: { method: "GET", path: "/grid/2025-10-13/customers" },
          kind: "error",
          status: 503,
          code: "SERVICE_UNAVAILABLE",
          count: 2,
        },
        { match: { path: "/quotes" }, kind: "rate_limit", retryAfter: 7 },
      ],
    });
    expect(armed.status).toBe(201);
    expect((await call(t, "GET", "/_emulator/faults")).body.data).toHaveLength(2);
    expect((await call(t, "POST", "/customers", { customerType: "INDIVIDUAL" })).status).toBe(201);
    const e1 = await call(t, "GET", "/customers");
    expect(e1.status).toBe(503);
    expect(e1.body.code).toBe("SERVICE_UNAVAILABLE");
    expect((await call(t, "GET", "/customers")).status).toBe(503);
    expect((await call(t, "GET", "/customers")).status).toBe(200);
    const limited = await call(t, "GET", "/quotes/Quote:00000000-0000-4000-8000-000000000000");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    emulator.addFault({ kind: "drop", match: { path: "/customers" } });
    await expect(call(t, "GET", "/customers")).rejects.toBeInstanceOf(EmulatorDropError);
    emulator.addFault({ kind: "delay", ms: 150 });
    const start = Date.now();
    expect((await call(t, "GET", "/customers")).status).toBe(200);
    expect(Date.now() - start).toBeGreaterThanOrEqual(140);
    const invalid = await call(t, "POST", "/_emulator/faults", { kind: "explode" });
    expect(invalid.status).toBe(400);
    expect((await call(t, "POST", "/_emulator/faults", { kind: "delay" })).status).toBe(400);
    expect(() => emulator.addFault({ kind: "delay" })).toThrow();
    expect((await call(t, "DELETE", "/_emulator/faults")).status).toBe(204);
  });

  it("advances the clock", async () => {
    const { emulator, t } = fresh({ now: () => Date.parse("2030-01-01T00:00:00Z") });
    const r = await call(t, "POST", "/_emulator/clock", { advanceMs: 90_000 });
    expect(r.body).toEqual({ now: "2030-01-01T00:01:30.000Z", offsetMs: 90_000 });
    expect(emulator.clock.now()).toBe(Date.parse("2030-01-01T00:01:30Z"));
    expect((await call(t, "POST", "/_emulator/clock", { advanceMs: -1 })).status).toBe(400);
  });

  it("logs requests without header values, and resets", async () => {
    const { emulator, t } = fresh();
    const user = await signUp(t);
    await signedCall(t, "DELETE", `/auth/sessions/${user.session.id}`, undefined, user.sessionKey);
    const log = (await call(t, "GET", "/_emulator/requests")).body.data;
    const last = log.at(-1);
    expect(last).toMatchObject({
      method: "DELETE",
      status: 204,
      hasSignature: true,
      hasRequestId: true,
      hasIdempotencyKey: false,
    });
    expect(log.some((e: { status: number }) => e.status === 202)).toBe(true);
    const text = JSON.stringify(log);
    expect(text).not.toContain(user.sessionKey.publicKeyCompressed);
    expect(text).not.toMatch(/eyJ/); // no base64url JSON (stamps, tokens)
    expect(emulator.requests()).toHaveLength(log.length);
    expect((await call(t, "POST", "/_emulator/reset")).status).toBe(204);
    expect((await call(t, "GET", `/customers/${user.customer.id}`)).status).toBe(404);
    expect(emulator.requests()).toHaveLength(1);
    expect(log.every((e: Record<string, unknown>) => !(SIGNATURE in e))).toBe(true);
  });

  it("is deterministic with a seed: same keys, same ids", async () => {
    const run = async () => {
      const { emulator, t } = fresh({ seed: "s1" });
      const user = await signUp(t, "seed@example.com");
      return {
        keys: emulator.keys,
        ids: [user.customer.id, user.account.id, user.credential.id, user.session.id],
        emulator,
      };
    };
    const a = await run();
    const b = await run();
    expect(a.keys).toEqual(b.keys);
    expect(a.ids).toEqual(b.ids);
    const other = fresh({ seed: "s2" }).emulator;
    expect(other.keys.attestationPublicKey).not.toBe(a.keys.attestationPublicKey);
    a.emulator.reset();
    const again = await signUp(processTarget(a.emulator), "seed@example.com");
    expect(again.customer.id).toBe(a.ids[0]);
  });
});
