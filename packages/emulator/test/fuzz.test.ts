// Property: no request body, id or header combination makes the emulator answer 5xx or throw.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEmulator } from "../src/index.js";
import { call, newKey, processTarget, SIGNATURE, signUp, stamp } from "./testClient.js";

describe("hostile input", () => {
  it("never answers 5xx", async () => {
    const emulator = createEmulator();
    const t = processTarget(emulator);
    const user = await signUp(t);
    const ids = {
      customer: user.customer.id,
      account: user.account.id,
      credential: user.credential.id,
      session: user.session.id,
    };
    const routes: [string, string][] = [
      ["POST", "/customers"],
      ["PATCH", `/customers/${ids.customer}`],
      ["POST", `/sandbox/internal-accounts/${ids.account}/fund`],
      ["POST", "/customers/external-accounts"],
      ["POST", "/quotes"],
      ["POST", "/cards"],
      ["POST", "/auth/credentials"],
      ["POST", `/auth/credentials/${ids.credential}/challenge`],
      ["POST", `/auth/credentials/${ids.credential}/verify`],
      ["DELETE", `/auth/credentials/${ids.credential}`],
      ["POST", `/auth/sessions/${ids.session}/refresh`],
      ["DELETE", `/auth/sessions/${ids.session}`],
      ["POST", "/auth/delegated-keys"],
      ["POST", `/internal-accounts/${ids.account}/export`],
      ["POST", "/_emulator/clock"],
    ];
    const key = newKey();
    const header = fc.oneof(
      fc.constant(undefined),
      fc.string(),
      fc.constant(stamp("x", key)),
      fc.constant("Request:00000000-0000-4000-8000-000000000000"),
    );
    const body = fc.oneof(
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record(
          {
            type: fc.constantFrom("EMAIL_OTP", "SMS_OTP", "OAUTH", "PASSKEY", "X"),
            accountId: fc.constantFrom(ids.account, "x"),
          },
          { requiredKeys: [] },
        )
        .map((v) => JSON.stringify(v)),
      fc.string(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        body,
        header,
        header,
        async ([method, path], text, sig, rid) => {
          const headers: Record<string, string> = {};
          if (sig !== undefined) headers[SIGNATURE] = sig.replace(/[\r\n\0]/g, "");
          if (rid !== undefined) headers["Request-Id"] = rid.replace(/[\r\n\0]/g, "");
          let r: Awaited<ReturnType<typeof call>>;
          try {
            r = await call(t, method, path, text, headers);
          } catch (error) {
            // Headers that the Fetch API itself refuses never reach the emulator.
            if (error instanceof TypeError && /header/i.test(error.message)) return;
            throw error;
          }
          expect(r.status, `${method} ${path} ${text}`).toBeLessThan(500);
          expect(typeof r.body?.code === "string" || r.status < 300).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
