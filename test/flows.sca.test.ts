// docs/protocol.md §9: Strong Customer Authentication on a wallet payment, over real HTTP
// core → relay → emulator. EU customers authorize each challenge (SMS code or passkey) before the
// transfer starts; others pay without it; refusals come back as typed errors; nothing pays twice.
import {
  addPasskey,
  authorizeQuote,
  type ExecuteQuoteReturnType,
  executeQuote,
  getQuote,
  listInternalAccounts,
  type PendingAuthorizationQuoteJson,
  resendQuoteAuthorization,
  type ScaChallengeJson,
  SignetError,
  waitForTransaction,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 200 });
});
afterAll(() => stack?.close());

const SMS = { code: "123456" } as const;

/** A signed-in customer of `region` with a funded wallet and a quote to pay. */
async function payer(region: string, quoteFields: Record<string, unknown> = {}) {
  const user = await stack.signUp(undefined, { region });
  const { client, authenticator } = stack.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  const { quoteId } = await stack.walletQuote(user, 1_000_000, quoteFields);
  return { ...user, client, authenticator, quoteId };
}

function pending(executed: ExecuteQuoteReturnType): PendingAuthorizationQuoteJson {
  if (executed.status !== "PENDING_AUTHORIZATION") {
    throw new Error(`expected PENDING_AUTHORIZATION, got ${executed.status}`);
  }
  return executed;
}

const countOf = async (method: string, suffix: string) =>
  (await stack.requests()).filter((r) => r.method === method && r.path.endsWith(suffix)).length;

describe("SCA: an EU customer pays with SMS codes", () => {
  it("executes once, authorizes the conversion and then the payout, and settles", async () => {
    const { client, customerId, quoteId } = await payer("DE");
    await stack.clearRequests();
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    // Nothing has moved: the transfer waits, and a poller does not take the wait as final.
    expect(executed.scaChallenge).toMatchObject({
      factor: "SMS_OTP",
      purpose: "CURRENCY_CONVERSION",
      availableFactors: ["SMS_OTP"],
    });
    const held = await waitForTransaction(client, {
      transactionId: executed.transactionId!,
      timeoutMs: 0,
    }).catch((e) => e);
    expect(held).toBeInstanceOf(SignetError);
    expect(held.code).toBe("PROCESSING_TIMEOUT");
    expect(held.details).toMatchObject({ status: "PENDING_AUTHORIZATION" });

    const seen: ScaChallengeJson[] = [];
    const released = await authorizeQuote(client, {
      quote: executed,
      onChallenge: (challenge, { step }) => {
        expect(step).toBe(seen.length + 1);
        seen.push(challenge);
        return SMS;
      },
    });
    expect(seen.map((c) => c.purpose)).toEqual(["CURRENCY_CONVERSION", "PAYOUT"]);
    expect(new Set(seen.map((c) => c.id)).size).toBe(2);
    expect(released.status).toBe("PROCESSING");
    expect(released.transactionId).toBe(executed.transactionId);

    const transaction = await waitForTransaction(client, {
      transactionId: released.transactionId!,
      pollingInterval: 50,
    });
    expect(transaction.status).toBe("COMPLETED");
    const [wallet] = await listInternalAccounts(client, { customerId });
    expect(wallet?.balance?.amount).toBe(4_000_000);
    expect(await countOf("POST", "/execute")).toBe(1);
    expect(await countOf("POST", "/authorize")).toBe(2);

    // Executing again is refused by the service; the balance is debited once.
    const again = await executeQuote(client, { quote: executed }).catch((e) => e);
    expect(again).toBeInstanceOf(SignetError);
    expect(again.status).toBe(409);
  });

  it("takes one authorization, without a purpose, for a send in one currency", async () => {
    const payee = await stack.signUp();
    const { client, quoteId } = await payer("FR", {
      destination: { destinationType: "ACCOUNT", accountId: payee.accountId },
    });
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    const purposes: unknown[] = [];
    const released = await authorizeQuote(client, {
      quote: executed,
      onChallenge: (challenge) => {
        purposes.push(challenge.purpose);
        return SMS;
      },
    });
    expect(purposes).toEqual([undefined]);
    expect(released.status).toBe("PROCESSING");
  });

  it("re-sends a code, asks again after a wrong one, and never sends a code twice by itself", async () => {
    const { client, quoteId } = await payer("IE");
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    await stack.clearRequests();
    const asked: (string | undefined)[] = [];
    await authorizeQuote(client, {
      quote: executed,
      onChallenge: async (_challenge, { error, resend }) => {
        asked.push(error?.code);
        if (asked.length === 1) {
          await resend();
          return { code: "654321" };
        }
        return SMS;
      },
    });
    expect(asked).toEqual([undefined, "INVALID_INPUT", undefined]);
    expect(await countOf("POST", "/authorize/resend")).toBe(1);
    expect(await countOf("POST", "/authorize")).toBe(3);
  });
});

describe("SCA: an EU customer pays with a passkey", () => {
  it("answers each challenge with an assertion from passkeyAssertionOptions, sent with its origin", async () => {
    const user = await stack.signUp(undefined, { region: "NL" });
    const { client, authenticator } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    await addPasskey(client, {
      accountId: user.accountId,
      nickname: "Téléphone de Zoë",
      challenge: registrationChallenge(),
      rp: { id: "localhost", name: "Signet tests" },
      user: passkeyUser("zoe"),
    });
    const { quoteId } = await stack.walletQuote(user, 1_000_000, { scaFactor: "PASSKEY" });
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    expect(executed.scaChallenge.factor).toBe("PASSKEY");
    expect(executed.scaChallenge.availableFactors).toEqual(["SMS_OTP", "PASSKEY"]);
    expect(executed.scaChallenge.passkeyAssertionOptions).toMatchObject({
      rpId: "localhost",
      allowCredentials: [{ id: authenticator.credentials[0]!.id, type: "public-key" }],
    });

    // A passkey challenge has no code to re-send.
    const resend = await resendQuoteAuthorization(client, { quoteId }).catch((e) => e);
    expect(resend).toMatchObject({ code: "CONFLICT", status: 409 });

    const counter = authenticator.credentials[0]!.signCount;
    const steps: string[] = [];
    const released = await authorizeQuote(client, {
      quote: executed,
      onChallenge: (challenge) => {
        steps.push(`${challenge.factor} ${challenge.purpose}`);
        return { passkey: true };
      },
    });
    expect(steps).toEqual(["PASSKEY CURRENCY_CONVERSION", "PASSKEY PAYOUT"]);
    expect(released.status).toBe("PROCESSING");
    // Two real ceremonies on the software authenticator, each verified by the emulator.
    expect(authenticator.credentials[0]!.signCount).toBe(counter + 2);
    const transaction = await waitForTransaction(client, {
      transactionId: released.transactionId!,
      pollingInterval: 50,
    });
    expect(transaction.status).toBe("COMPLETED");
  });

  it("refuses a proof of the wrong kind before sending anything", async () => {
    const user = await stack.signUp(undefined, { region: "AT" });
    const { client } = stack.client(user.customerId);
    await signInWithEmail(client, user.emailCredentialId);
    const { quoteId } = await stack.walletQuote(user);
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    await stack.clearRequests();
    const error = await authorizeQuote(client, {
      quote: executed,
      onChallenge: () => ({ passkey: true }),
    }).catch((e) => e);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(await countOf("POST", "/authorize")).toBe(0);
  });
});

describe("SCA: customers outside the EU", () => {
  it("pay without SCA, and authorize is refused with 409", async () => {
    const { client, quoteId } = await payer("US");
    const executed = await executeQuote(client, { quote: await getQuote(client, { quoteId }) });
    expect(executed.status).toBe("PROCESSING");
    expect(executed.scaChallenge).toBeUndefined();
    const resend = await resendQuoteAuthorization(client, { quoteId }).catch((e) => e);
    expect(resend).toMatchObject({ code: "CONFLICT", status: 409 });
    const direct = await stack.platform("POST", `/quotes/${quoteId}/authorize`, SMS);
    expect(direct).toMatchObject({ status: 409, body: { code: "CONFLICT" } });
    // Handing an executed quote to authorizeQuote sends nothing and returns it.
    await stack.clearRequests();
    expect(
      (await authorizeQuote(client, { quote: executed as never, onChallenge: () => SMS })).id,
    ).toBe(quoteId);
    expect(await countOf("POST", "/authorize")).toBe(0);
  });
});

describe("SCA: refusals are typed errors", () => {
  it("429 after repeated bad codes, then 423 ACCOUNT_LOCKED with its details", async () => {
    const { client, quoteId } = await payer("ES");
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    const wrong = { code: "000001" };
    const limited = await authorizeQuote(client, {
      quote: executed,
      onChallenge: () => wrong,
    }).catch((e) => e);
    expect(limited).toBeInstanceOf(SignetError);
    expect(limited).toMatchObject({ code: "RATE_LIMITED", status: 429, retryable: true });
    expect(limited.details.retryAfterMs).toBe(30_000);
    expect(JSON.stringify(limited)).not.toContain("000001");

    await authorizeQuote(client, { quote: executed, onChallenge: () => wrong }).catch(() => {});
    const locked = await authorizeQuote(client, {
      quote: executed,
      onChallenge: () => wrong,
    }).catch((e) => e);
    expect(locked).toMatchObject({ code: "ACCOUNT_LOCKED", status: 423, retryable: false });
    expect(locked.details).toMatchObject({ failedAttempts: 5, suspended: false });
    expect(Date.parse(locked.details.lockedUntil)).toBeGreaterThan(Date.now());
    // While locked even the right code is refused, and the transfer has not started.
    const still = await authorizeQuote(client, { quote: executed, onChallenge: () => SMS }).catch(
      (e) => e,
    );
    expect(still).toMatchObject({ code: "ACCOUNT_LOCKED" });
    expect((await getQuote(client, { quoteId })).status).toBe("PENDING_AUTHORIZATION");
  });

  it("SCA_SESSION_REQUIRED (409) ends the call; authorizing again afterwards succeeds", async () => {
    const { client, quoteId } = await payer("IT");
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    await stack.fault({
      kind: "error",
      status: 409,
      code: "SCA_SESSION_REQUIRED",
      match: { method: "POST", path: `/quotes/${quoteId}/authorize` },
    });
    const error = await authorizeQuote(client, { quote: executed, onChallenge: () => SMS }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: "SCA_SESSION_REQUIRED", status: 409 });
    const current = pending((await getQuote(client, { quoteId })) as ExecuteQuoteReturnType);
    const released = await authorizeQuote(client, { quote: current, onChallenge: () => SMS });
    expect(released.status).toBe("PROCESSING");
  });

  it("a lapsed challenge is CHALLENGE_EXPIRED on the device, judged by the service's clock", async () => {
    const { client, quoteId } = await payer("SE");
    const executed = pending(
      await executeQuote(client, { quote: await getQuote(client, { quoteId }) }),
    );
    await fetch(`${stack.emulator.url}/_emulator/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advanceMs: 6 * 60_000 }),
    });
    // The client learns the service's clock from the next answer's Date header.
    await getQuote(client, { quoteId });
    const error = await authorizeQuote(client, { quote: executed, onChallenge: () => SMS }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: "CHALLENGE_EXPIRED" });
  });
});
