// docs/protocol.md §9: the SCA factors a customer sets up and recovers, over the real stack
// (core → relay → emulator on 127.0.0.1): an authenticator app (TOTP) enrolled from its QR code's
// URI and proven with a real RFC 6238 code, then used for an SCA login; a lost factor reset
// through the liveness-gated reset.
import {
  completeScaFactorReset,
  enrollScaTotp,
  getScaFactorReset,
  listScaFactors,
  SignetError,
  scaLogin,
  startScaFactorReset,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";
import { appCode, wrongCode } from "./support/totp.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 100, livenessDelayMs: 400 });
});
afterAll(() => stack?.close());

let phones = 0;
const freshPhone = () =>
  `+4916${String(Date.now() % 1e6).padStart(6, "0")}${String(++phones).padStart(3, "0")}`;

async function euCustomer(region = "DE") {
  const user = await stack.signUp(undefined, { region, phoneNumber: freshPhone() });
  const { client, events } = stack.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  return { ...user, client, events };
}

describe("TOTP: an authenticator app enrolled for SCA", () => {
  it("shows the QR code's URI, takes the app's code (a wrong one asked again), logs in with TOTP", async () => {
    const user = await euCustomer("DE");
    const asked: (string | undefined)[] = [];
    let uri = "";
    const { recoveryCodes } = await enrollScaTotp(user.client, {
      onSecret: (setup, { error }) => {
        asked.push(error?.code);
        uri = setup.totpUri;
        expect(setup.totpUri).toMatch(/^otpauth:\/\/totp\//);
        expect(new URL(setup.totpUri).searchParams.get("secret")).toBe(setup.secretBase32Encoded);
        // The raw secret threaded back to the confirm is not the app's to see.
        expect(Object.keys(setup).sort()).toEqual(["secretBase32Encoded", "totpUri"]);
        return { code: error ? appCode(setup.totpUri) : wrongCode(setup.totpUri) };
      },
    });
    expect(asked).toEqual([undefined, "INVALID_INPUT"]);
    expect(recoveryCodes.length).toBeGreaterThan(0);
    expect((await listScaFactors(user.client)).map((f) => f.factor).sort()).toEqual([
      "SMS_OTP",
      "TOTP",
    ]);
    // No event carries the secret or a code.
    const secret = new URL(uri).searchParams.get("secret")!;
    expect(JSON.stringify(user.events)).not.toContain(secret);

    // One TOTP factor at a time.
    const again = await enrollScaTotp(user.client, {
      onSecret: () => ({ code: "000000" }),
    }).catch((e) => e);
    expect(again).toBeInstanceOf(SignetError);
    expect(again).toMatchObject({ code: "CONFLICT", status: 409 });

    // The app's codes now open the SCA session; a wrong one is refused and asked again.
    const loginAsked: (string | undefined)[] = [];
    const login = await scaLogin(user.client, {
      factor: "TOTP",
      onChallenge: (_challenge, { error }) => {
        loginAsked.push(error?.code);
        return { code: error ? appCode(uri) : wrongCode(uri) };
      },
    });
    expect(login.status).toBe("SUCCESS");
    expect(loginAsked).toEqual([undefined, "INVALID_INPUT"]);
  });

  it("a customer outside an SCA region cannot enroll one (409), and nothing is asked", async () => {
    const user = await stack.signUp(undefined, { region: "US", phoneNumber: freshPhone() });
    const { client } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    let asked = 0;
    const refused = await enrollScaTotp(client, {
      onSecret: () => {
        asked++;
        return { code: "123456" };
      },
    }).catch((e) => e);
    expect(refused).toMatchObject({ code: "CONFLICT", status: 409 });
    expect(asked).toBe(0);
  });
});

describe("factor reset: a lost factor recovered after a liveness check", () => {
  /** Polls the reset as an app does, until it is ready to complete or over. */
  async function untilLivenessPassed(
    client: Parameters<typeof getScaFactorReset>[0],
    resetId: string,
  ) {
    const seen: string[] = [];
    for (let i = 0; i < 50; i++) {
      const { status } = await getScaFactorReset(client, { resetId });
      if (seen.at(-1) !== status) seen.push(status);
      if (status !== "INITIATED" && status !== "PENDING_REVIEW") return seen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the reset stayed ${seen.at(-1)}`);
  }

  it("a lost TOTP app: start, poll to LIVENESS_PASSED, complete, enrol a new one", async () => {
    const user = await euCustomer("AT");
    await enrollScaTotp(user.client, { onSecret: ({ totpUri }) => ({ code: appCode(totpUri) }) });
    const start = await startScaFactorReset(user.client, { factor: "TOTP" });
    expect(start.resetId).toEqual(expect.any(String));
    expect(start.livenessAccessToken).toEqual(expect.any(String));
    // Completing before liveness passed is the service's 400.
    const early = await completeScaFactorReset(user.client, {
      resetId: start.resetId,
      factor: "TOTP",
    }).catch((e) => e);
    expect(early).toMatchObject({ code: "INVALID_INPUT", status: 400 });
    expect(await untilLivenessPassed(user.client, start.resetId)).toEqual(
      expect.arrayContaining(["LIVENESS_PASSED"]),
    );
    // The device holds the reset to the factor the customer chose.
    const other = await completeScaFactorReset(user.client, {
      resetId: start.resetId,
      factor: "PASSKEY",
    }).catch((e) => e);
    expect(other).toMatchObject({ code: "PAYLOAD_MISMATCH", details: { field: "factor" } });
    await completeScaFactorReset(user.client, { resetId: start.resetId, factor: "TOTP" });
    const done = await getScaFactorReset(user.client, { resetId: start.resetId });
    expect(done).toMatchObject({
      status: "COMPLETED",
      factor: "TOTP",
      enrollmentStatus: "PENDING",
    });
    expect((await listScaFactors(user.client)).map((f) => f.factor)).toEqual(["SMS_OTP"]);
    await enrollScaTotp(user.client, { onSecret: ({ totpUri }) => ({ code: appCode(totpUri) }) });
    expect(await getScaFactorReset(user.client, { resetId: start.resetId })).toMatchObject({
      enrollmentStatus: "COMPLETED",
    });
  });

  it("a lost phone: the SMS_OTP reset takes the new mobile number", async () => {
    const user = await euCustomer("IE");
    const { resetId } = await startScaFactorReset(user.client, { factor: "SMS_OTP" });
    await untilLivenessPassed(user.client, resetId);
    const number = `8${String(Date.now() % 1e8).padStart(8, "0")}`;
    // SMS_OTP needs the number; others take none: refused before anything is sent.
    const none = await completeScaFactorReset(user.client, { resetId, factor: "SMS_OTP" }).catch(
      (e) => e,
    );
    expect(none).toMatchObject({ code: "INVALID_ARGUMENT" });
    await completeScaFactorReset(user.client, {
      resetId,
      factor: "SMS_OTP",
      mobile: { countryCode: "+353", number },
    });
    expect(await getScaFactorReset(user.client, { resetId })).toMatchObject({
      status: "COMPLETED",
      enrollmentStatus: null,
    });
    const customer = await stack.platform<{ phoneNumber?: string }>(
      "GET",
      `/customers/${user.customerId}`,
    );
    expect(customer.body.phoneNumber).toBe(`+353${number}`);
  });

  it("a factor not enrolled is refused (400); another customer's reset is not found", async () => {
    const user = await euCustomer("FR");
    expect(
      await startScaFactorReset(user.client, { factor: "PASSKEY" }).catch((e) => e),
    ).toMatchObject({ code: "INVALID_INPUT", status: 400 });
    const { resetId } = await startScaFactorReset(user.client, { factor: "SMS_OTP" });
    const other = await euCustomer("FR");
    expect(await getScaFactorReset(other.client, { resetId }).catch((e) => e)).toMatchObject({
      status: 404,
    });
  });
});
