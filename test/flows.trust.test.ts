// docs/protocol.md §9 (trusted beneficiaries), over the real stack (core → relay → emulator on
// 127.0.0.1): an EU customer trusts a payee with the SCA the start issues, and a payment to it then
// skips the per-payment SCA, as the OpenAPI says ("future sends to it can skip the
// per-transaction SCA ceremony"); untrusted, the next payment to it needs it again. The relay
// lets a customer change only their own beneficiaries.
import {
  authorizeQuote,
  executeQuote,
  getQuote,
  type SignetClient,
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

async function customer(region: string) {
  const user = await stack.signUp(undefined, { region, phoneNumber: freshPhone() });
  const { client } = stack.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  return { ...user, client };
}

/** Executes a quote to `externalAccountId` of 0.50 and answers how it came back. */
async function pay(
  user: Awaited<ReturnType<typeof customer>>,
  externalAccountId: string | undefined,
) {
  const { quoteId, externalAccountId: made } = await stack.walletQuote(
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
});
