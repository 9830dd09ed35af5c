// docs/protocol.md §9 (trusted beneficiaries), over the real stack (core → relay → emulator on
// 127.0.0.1): an EU customer trusts a payee with the SCA the start issues, and a payment to it then
// skips the per-payment SCA, as the OpenAPI says ("future sends to it can skip the
// per-transaction SCA ceremony"); untrusted, the next payment to it needs it again. The relay
// lets a customer change only their own beneficiaries.
import {
  authorizeQuote,
  enrollScaPasskey,
  executeQuote,
  getQuote,
  type ScaChallengeJson,
  type SignetClient,
  SignetError,
  scaLogin,
  trustBeneficiary,
  untrustBeneficiary,
  waitForTransaction,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

const SMS = { code: "123456" } as const;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 100 });
});
afterAll(() => stack?.close());

let phones = 0;
const freshPhone = () =>
  `+4917${String(Date.now() % 1e6).padStart(6, "0")}${String(++phones).padStart(3, "0")}`;

async function customer(region: string, on: Stack = stack) {
  const user = await on.signUp(undefined, { region, phoneNumber: freshPhone() });
  const { client, authenticator } = on.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  return { ...user, client, authenticator };
}

/** Executes a quote to `externalAccountId` of 0.50 and answers how it came back. */
async function pay(
  user: Awaited<ReturnType<typeof customer>>,
  externalAccountId: string | undefined,
  on: Stack = stack,
) {
  const { quoteId, externalAccountId: made } = await on.walletQuote(
    user,
    500_000,
    externalAccountId
      ? { destination: { destinationType: "ACCOUNT", accountId: externalAccountId } }
      : {},
  );
  const quote = await getQuote(user.client, { quoteId });
  const executed = await executeQuote(user.client, { quote, onChallenge: () => SMS });
  return { executed, externalAccountId: externalAccountId ?? made };
}

describe("trusted beneficiaries", () => {
  it("trusted with an SMS code, a payment to the payee needs no per-payment SCA; untrusted, it does again", async () => {
    const user = await customer("DE");
    await scaLogin(user.client, { onChallenge: () => SMS });
    // A first payment to a new payee waits for its SCA.
    const first = await pay(user, undefined);
    expect(first.executed.status).toBe("PENDING_AUTHORIZATION");
    const payee = first.externalAccountId;

    const asked: (string | undefined)[] = [];
    const trusted = await trustBeneficiary(user.client, {
      externalAccountId: payee,
      onChallenge: (challenge, { error }) => {
        asked.push(error?.code);
        expect(challenge).toMatchObject({ factor: "SMS_OTP", id: expect.any(String) });
        return error ? SMS : { code: "654321" };
      },
    });
    expect(trusted).toEqual({ trusted: true });
    // A wrong code is the service's 400, asked again.
    expect(asked).toEqual([undefined, "INVALID_INPUT"]);

    // Paid again: released at execute, settled without any authorization.
    const second = await pay(user, payee);
    expect(second.executed.status).not.toBe("PENDING_AUTHORIZATION");
    expect(second.executed.scaChallenge).toBeUndefined();
    const settled = await waitForTransaction(user.client, {
      transactionId: second.executed.transactionId!,
      timeoutMs: 10_000,
    });
    expect(settled.status).toBe("COMPLETED");

    // The earlier payment's challenge still needs its own proof.
    expect(first.executed.status === "PENDING_AUTHORIZATION").toBe(true);
    if (first.executed.status === "PENDING_AUTHORIZATION") {
      const released = await authorizeQuote(user.client, {
        quote: first.executed,
        onChallenge: () => SMS,
      });
      expect(released.status).toBe("PROCESSING");
    }

    expect(
      await untrustBeneficiary(user.client, {
        externalAccountId: payee,
        onChallenge: () => SMS,
      }),
    ).toEqual({ trusted: false });
    const third = await pay(user, payee);
    expect(third.executed.status).toBe("PENDING_AUTHORIZATION");
  });

  it("a customer outside an SCA region cannot trust (409); another customer's payee is refused by the relay (403)", async () => {
    const us = await customer("US");
    const { externalAccountId } = await stack.walletQuote(us, 100_000);
    const conflict = await trustBeneficiary(us.client, {
      externalAccountId,
      onChallenge: () => SMS,
    }).catch((e) => e);
    expect(conflict).toMatchObject({ code: "CONFLICT", status: 409 });

    const owner = await customer("BE");
    const { externalAccountId: theirs } = await stack.walletQuote(owner, 100_000);
    const intruder = await customer("BE");
    let asked = 0;
    const forbidden = await trustBeneficiary(intruder.client, {
      externalAccountId: theirs,
      onChallenge: () => {
        asked++;
        return SMS;
      },
    }).catch((e) => e);
    expect(forbidden).toMatchObject({ code: "RELAY_FORBIDDEN", status: 403 });
    expect(asked).toBe(0);
  });

  it("refuses a malformed external account id before sending anything", async () => {
    const user = await customer("DE");
    const refused = await trustBeneficiary(user.client as SignetClient, {
      externalAccountId: "Quote:019542f5-b3e7-1d02-0000-000000000001",
      onChallenge: () => SMS,
    }).catch((e) => e);
    expect(refused).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("deleting a trusted beneficiary is refused with 409 BENEFICIARY_TRUSTED; untrusted, it deletes", async () => {
    const user = await customer("FR");
    const { externalAccountId } = await stack.walletQuote(user, 100_000);
    const path = `/customers/external-accounts/${externalAccountId}`;
    await trustBeneficiary(user.client, { externalAccountId, onChallenge: () => SMS });
    const refused = await stack.platform<{ code: string }>("DELETE", path);
    expect(refused).toMatchObject({ status: 409, body: { code: "BENEFICIARY_TRUSTED" } });
    // Nothing deleted: still there, still trusted (a payment to it skips the SCA).
    expect((await stack.platform("GET", path)).status).toBe(200);
    await scaLogin(user.client, { onChallenge: () => SMS });
    expect((await pay(user, externalAccountId)).executed.scaChallenge).toBeUndefined();

    await untrustBeneficiary(user.client, { externalAccountId, onChallenge: () => SMS });
    expect((await stack.platform("DELETE", path)).status).toBe(204);
    expect(await stack.platform("GET", path)).toMatchObject({
      status: 404,
      body: { code: "REFERENCE_NOT_FOUND" },
    });
  });
});

describe("trusted beneficiaries with a PASSKEY challenge (the emulator's trustChallengeFactor)", () => {
  let passkeys: Stack;
  beforeAll(async () => {
    passkeys = await startStack({ settlementDelayMs: 100, trustChallengeFactor: "PASSKEY" });
  });
  afterAll(() => passkeys?.close());

  it("trusts and untrusts with an assertion of the SCA passkey, each a real ceremony the emulator verifies", async () => {
    const user = await customer("IT", passkeys);
    const factor = await enrollScaPasskey(user.client);
    const sca = () => user.authenticator.credentials.find((c) => c.id === factor.credentialId)!;
    await scaLogin(user.client, { factor: "PASSKEY", onChallenge: () => ({ passkey: true }) });
    const first = await pay(user, undefined, passkeys);
    expect(first.executed.status).toBe("PENDING_AUTHORIZATION");
    const payee = first.externalAccountId;

    const before = sca().signCount;
    const seen: string[] = [];
    const onChallenge = (challenge: ScaChallengeJson) => {
      seen.push(challenge.factor);
      expect(challenge.availableFactors).toContain("PASSKEY");
      expect(challenge.passkeyAssertionOptions).toMatchObject({
        allowCredentials: [{ id: factor.credentialId, type: "public-key" }],
      });
      return { passkey: true } as const;
    };
    expect(await trustBeneficiary(user.client, { externalAccountId: payee, onChallenge })).toEqual({
      trusted: true,
    });
    expect(sca().signCount).toBe(before + 1);
    const confirm = (await passkeys.requests()).filter((r) => r.path.endsWith("/trust/confirm"));
    expect(confirm.map((r) => r.status)).toEqual([200]);
    // Trusted: paid again with no per-payment SCA.
    expect((await pay(user, payee, passkeys)).executed.scaChallenge).toBeUndefined();

    expect(
      await untrustBeneficiary(user.client, { externalAccountId: payee, onChallenge }),
    ).toEqual({ trusted: false });
    expect(sca().signCount).toBe(before + 2);
    expect(seen).toEqual(["PASSKEY", "PASSKEY"]);
    expect((await pay(user, payee, passkeys)).executed.status).toBe("PENDING_AUTHORIZATION");
  });

  it("a code for a PASSKEY challenge is refused before anything is sent; a customer with no SCA passkey gets SMS_OTP", async () => {
    const user = await customer("ES", passkeys);
    await enrollScaPasskey(user.client);
    const { externalAccountId } = await passkeys.walletQuote(user, 100_000);
    await passkeys.clearRequests();
    const refused = await trustBeneficiary(user.client, {
      externalAccountId,
      onChallenge: () => SMS,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SignetError);
    expect((await passkeys.requests()).some((r) => r.path.endsWith("/confirm"))).toBe(false);

    const plain = await customer("PT", passkeys);
    const { externalAccountId: theirs } = await passkeys.walletQuote(plain, 100_000);
    const factors: string[] = [];
    await trustBeneficiary(plain.client, {
      externalAccountId: theirs,
      onChallenge: (challenge) => {
        factors.push(challenge.factor);
        return SMS;
      },
    });
    expect(factors).toEqual(["SMS_OTP"]);
  });
});
