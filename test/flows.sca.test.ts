// docs/protocol.md §9: Strong Customer Authentication on a wallet payment, over real HTTP
// core → relay → emulator, as the OpenAPI runs it: EU customers authorize each challenge (SMS
// code, or a passkey enrolled for SCA and asked for on execute) within an SCA login session,
// before the transfer starts; others pay without it; refusals are typed; nothing pays twice.
// Every suite runs twice: with the service asking for the SCA login at authorize (the emulator's
// default), and at execute as well (`requireScaSessionAtExecute`: execute answers 409
// `SCA_SESSION_REQUIRED` without one, and `executeQuote` logs in through its `onChallenge`).
import {
  addPasskey,
  authorizeQuote,
  deleteScaFactor,
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  enrollScaPasskey,
  executeQuote,
  type FetchFunction,
  getQuote,
  listInternalAccounts,
  listScaFactors,
  type PendingAuthorizationQuoteJson,
  resendQuoteAuthorization,
  type SignetClient,
  SignetError,
  scaLogin,
  waitForTransaction,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../packages/test/src/errorDetails.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

const SMS = { code: "123456" } as const;

describe.each([
  ["at authorize", false],
  ["at execute too", true],
])("the SCA login asked for %s", (_mode, atExecute) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ settlementDelayMs: 200, requireScaSessionAtExecute: atExecute });
  });
  afterAll(() => stack?.close());

  /**
   * Executes as an app does: with `onChallenge` answering the SCA login the service may ask for
   * at execute (SMS, or a passkey tap), noting whether it was asked.
   */
  const logins: string[] = [];
  const execute = (client: SignetClient, parameters: ExecuteQuoteParameters) =>
    executeQuote(client, {
      onChallenge: (challenge, { login }) => {
        logins.push(`${challenge.factor}${login ? " login" : ""}`);
        return challenge.factor === "PASSKEY" ? { passkey: true } : SMS;
      },
      ...parameters,
    });

  let phones = 0;
  /** A phone number no other customer has (the service refuses a taken one). */
  const freshPhone = () =>
    `+4915${String(Date.now() % 1e6).padStart(6, "0")}${String(++phones).padStart(3, "0")}`;

  /**
   * A signed-in customer of `region` (with the verified phone an SCA customer has) with a funded
   * wallet and a quote to pay.
   */
  async function payer(region: string, quoteFields: Record<string, unknown> = {}) {
    const user = await stack.signUp(undefined, { region, phoneNumber: freshPhone() });
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
      logins.length = 0;
      const executed = pending(
        await execute(client, { quote: await getQuote(client, { quoteId }) }),
      );
      // Asked at execute: the login ran there, through the execute's onChallenge.
      expect(logins).toEqual(atExecute ? ["SMS_OTP login"] : []);
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

      // Without an SCA session yet (asked at authorize), the service asks for the login after
      // the first answer; authorizeQuote runs it through the same onChallenge, then sends that
      // answer again. Every prompt shows the payment as the user confirmed it.
      const seen: [string | null | undefined, number, boolean][] = [];
      const released = await authorizeQuote(client, {
        quote: executed,
        onChallenge: (challenge, { step, login, quote }) => {
          seen.push([challenge.purpose, step, login === true]);
          expect(quote).toMatchObject({
            id: quoteId,
            totalSendingAmount: 1_000_000,
            sendingCurrency: { code: executed.sendingCurrency!.code },
            destination: { accountId: executed.destination!.accountId },
          });
          return SMS;
        },
      });
      expect(seen).toEqual([
        ["CURRENCY_CONVERSION", 1, false],
        ...(atExecute ? [] : [["SCA_LOGIN", 1, true]]),
        ["PAYOUT", 2, false],
      ]);
      expect(released.status).toBe("PROCESSING");
      expect(released.transactionId).toBe(executed.transactionId);
      expect(await countOf("POST", "/sca/login/start")).toBe(1);
      expect(await countOf("POST", "/sca/login/complete")).toBe(1);

      const transaction = await waitForTransaction(client, {
        transactionId: released.transactionId!,
        pollingInterval: 50,
      });
      expect(transaction.status).toBe("COMPLETED");
      const [wallet] = await listInternalAccounts(client, { customerId });
      expect(wallet?.balance?.amount).toBe(4_000_000);
      // Asked at execute: refused for want of the login, then taken (one payment, one key).
      expect(await countOf("POST", "/execute")).toBe(atExecute ? 2 : 1);
      // Asked at authorize: the first answer twice (refused for want of the login, then taken),
      // then the payout's.
      expect(await countOf("POST", "/authorize")).toBe(atExecute ? 2 : 3);

      // Executing again is refused by the service; the balance is debited once.
      const again = await execute(client, { quote: executed }).catch((e) => e);
      expect(again).toBeInstanceOf(SignetError);
      expect(again.status).toBe(409);
    });

    it("takes one authorization, without a purpose, for a send in one currency", async () => {
      const payee = await stack.signUp();
      const { client, quoteId } = await payer("FR", {
        destination: { destinationType: "ACCOUNT", accountId: payee.accountId },
      });
      // Logged in ahead: no login inside the authorization.
      const login = await scaLogin(client, { onChallenge: () => SMS });
      expect(login.status).toBe("SUCCESS");
      expect(Date.parse(login.sessionExpiresAt!)).toBeGreaterThan(Date.now());
      const executed = pending(
        await execute(client, { quote: await getQuote(client, { quoteId }) }),
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
      await scaLogin(client, { onChallenge: () => SMS });
      const executed = pending(
        await execute(client, { quote: await getQuote(client, { quoteId }) }),
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
    it("enrolls a passkey for SCA, asks for it on execute, and answers each challenge with an assertion sent with its origin", async () => {
      const user = await stack.signUp(undefined, { region: "NL", phoneNumber: freshPhone() });
      const { client, authenticator } = stack.client(user.customerId);
      await signInWithEmail(client, user.emailCredentialId);
      // A wallet sign-in passkey is not an SCA factor: asking for PASSKEY without one is refused.
      await addPasskey(client, {
        accountId: user.accountId,
        nickname: "Téléphone de Zoë",
        challenge: registrationChallenge(),
        rp: { id: "localhost", name: "Signet tests" },
        user: passkeyUser("zoe"),
      });
      expect((await listScaFactors(client)).map((f) => f.factor)).toEqual(["SMS_OTP"]);
      const { quoteId } = await stack.walletQuote(user, 1_000_000);
      const quote = await getQuote(client, { quoteId });
      const refused = await execute(client, { quote, scaFactor: "PASSKEY" }).catch((e) => e);
      expect(refused).toMatchObject({
        code: "INVALID_INPUT",
        details: { reason: "SCA_FACTOR_NOT_ENROLLED" },
      });

      const factor = await enrollScaPasskey(client);
      expect(factor).toMatchObject({ factor: "PASSKEY" });
      const scaCredential = authenticator.credentials.find((c) => c.id === factor.credentialId)!;
      expect(scaCredential).toBeDefined();
      expect((await listScaFactors(client)).map((f) => f.factor).sort()).toEqual([
        "PASSKEY",
        "SMS_OTP",
      ]);
      // One SCA passkey at a time.
      expect(await enrollScaPasskey(client).catch((e) => e)).toMatchObject({
        code: "PASSKEY_ALREADY_ENROLLED",
        status: 409,
      });

      const counter = scaCredential.signCount;
      logins.length = 0;
      const executed = pending(await execute(client, { quote, scaFactor: "PASSKEY" }));
      // Asked at execute, the login runs with the execute's factor: a tap on the SCA passkey.
      expect(logins).toEqual(atExecute ? ["PASSKEY login"] : []);
      expect(executed.scaChallenge.factor).toBe("PASSKEY");
      expect(executed.scaChallenge.availableFactors).toEqual(["SMS_OTP", "PASSKEY"]);
      expect(executed.scaChallenge.passkeyAssertionOptions).toMatchObject({
        rpId: "localhost",
        allowCredentials: [{ id: scaCredential.id, type: "public-key" }],
      });

      // A passkey challenge has no code to re-send.
      const resend = await resendQuoteAuthorization(client, { quoteId }).catch((e) => e);
      expect(resend).toMatchObject({ code: "CONFLICT", status: 409 });

      const steps: string[] = [];
      const released = await authorizeQuote(client, {
        quote: executed,
        onChallenge: (challenge, { login }) => {
          steps.push(`${challenge.factor} ${challenge.purpose}${login ? " (login)" : ""}`);
          return { passkey: true };
        },
      });
      // Asked at authorize, the login runs with the payment's factor; the first assertion is
      // spent by then (the login's tap moved the counter), so the conversion is asked for again,
      // then the payout.
      expect(steps).toEqual(
        atExecute
          ? ["PASSKEY CURRENCY_CONVERSION", "PASSKEY PAYOUT"]
          : [
              "PASSKEY CURRENCY_CONVERSION",
              "PASSKEY SCA_LOGIN (login)",
              "PASSKEY CURRENCY_CONVERSION",
              "PASSKEY PAYOUT",
            ],
      );
      expect(released.status).toBe("PROCESSING");
      // Four real ceremonies on the SCA passkey (three when the login came first), each
      // verified by the emulator; none on the wallet's sign-in passkey.
      const signCount = () =>
        authenticator.credentials.find((c) => c.id === factor.credentialId)!.signCount;
      expect(signCount()).toBe(counter + (atExecute ? 3 : 4));
      const transaction = await waitForTransaction(client, {
        transactionId: released.transactionId!,
        pollingInterval: 50,
      });
      expect(transaction.status).toBe("COMPLETED");

      await deleteScaFactor(client, { credentialId: scaCredential.id });
      expect((await listScaFactors(client)).map((f) => f.factor)).toEqual(["SMS_OTP"]);
    });

    it("reads passkey options wrapped as { publicKey } as well (the OpenAPI types them as any object)", async () => {
      const wrapped = await startStack({
        settlementDelayMs: 200,
        passkeyOptionsShape: "publicKey",
      });
      try {
        const user = await wrapped.signUp(undefined, { region: "BE", phoneNumber: freshPhone() });
        const { client } = wrapped.client(user.customerId);
        await signInWithEmail(client, user.emailCredentialId);
        await enrollScaPasskey(client);
        await scaLogin(client, { factor: "PASSKEY", onChallenge: () => ({ passkey: true }) });
        const { quoteId } = await wrapped.walletQuote(user, 1_000_000);
        const quote = await getQuote(client, { quoteId });
        const executed = pending(await execute(client, { quote, scaFactor: "PASSKEY" }));
        expect(executed.scaChallenge.passkeyAssertionOptions).toHaveProperty("publicKey");
        const released = await authorizeQuote(client, {
          quote: executed,
          onChallenge: () => ({ passkey: true }),
        });
        expect(released.status).toBe("PROCESSING");
      } finally {
        await wrapped.close();
      }
    });

    it("refuses a proof of the wrong kind before sending anything", async () => {
      const user = await stack.signUp(undefined, { region: "AT", phoneNumber: freshPhone() });
      const { client } = stack.client(user.customerId);
      await signInWithEmail(client, user.emailCredentialId);
      const { quoteId } = await stack.walletQuote(user);
      const executed = pending(
        await execute(client, { quote: await getQuote(client, { quoteId }) }),
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
      const executed = await execute(client, { quote: await getQuote(client, { quoteId }) });
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
      await scaLogin(client, { onChallenge: () => SMS });
      const executed = pending(
        await execute(client, { quote: await getQuote(client, { quoteId }) }),
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

    it.runIf(!atExecute)(
      "SCA_SESSION_REQUIRED with scaLogin: false ends the call; the default logs in and releases the same challenge",
      async () => {
        const { client, quoteId } = await payer("IT");
        const executed = pending(
          await execute(client, { quote: await getQuote(client, { quoteId }) }),
        );
        const error = await authorizeQuote(client, {
          quote: executed,
          onChallenge: () => SMS,
          scaLogin: false,
        }).catch((e) => e);
        expect(error).toMatchObject({ code: "SCA_SESSION_REQUIRED", status: 409 });
        const current = pending((await getQuote(client, { quoteId })) as ExecuteQuoteReturnType);
        expect(current.scaChallenge.id).toBe(executed.scaChallenge.id);
        const logins: boolean[] = [];
        const released = await authorizeQuote(client, {
          quote: current,
          onChallenge: (_challenge, { login }) => {
            logins.push(login === true);
            return SMS;
          },
        });
        expect(logins).toEqual([false, true, false]);
        expect(released.status).toBe("PROCESSING");
      },
    );

    it.runIf(atExecute)(
      "execute answered SCA_SESSION_REQUIRED: passed on without onChallenge or with scaLogin: false; with it, one login and the same execute again under the same Idempotency-Key, paid once",
      async () => {
        const user = await payer("IT");
        const keys: (string | null)[] = [];
        const { client } = stack.client(user.customerId, {
          keyStore: await user.client.keyStore(),
          fetch: async (input, init) => {
            if (String(input).endsWith("/execute")) {
              keys.push(new Headers(init.headers).get("idempotency-key"));
            }
            return fetch(input, init);
          },
        });
        const quote = await getQuote(client, { quoteId: user.quoteId });
        const asked: boolean[] = [];
        const onChallenge = (_challenge: unknown, context: { login?: boolean | undefined }) => {
          asked.push(context.login === true);
          return SMS;
        };
        for (const parameters of [{}, { onChallenge, scaLogin: false }]) {
          const refused = await executeQuote(client, { quote, ...parameters }).catch((e) => e);
          expect(refused).toMatchObject({ code: "SCA_SESSION_REQUIRED", status: 409 });
          expect((await getQuote(client, { quoteId: user.quoteId })).status).toBe("PENDING");
        }
        expect(asked).toEqual([]);
        keys.length = 0;
        const executed = pending(
          await executeQuote(client, { quote, onChallenge, idempotencyKey: undefined }),
        );
        expect(asked).toEqual([true]);
        expect(keys).toHaveLength(2);
        expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
        expect(keys[1]).toBe(keys[0]);
        const [wallet] = await listInternalAccounts(client, { customerId: user.customerId });
        expect(wallet?.balance?.amount).toBe(4_000_000);
        // The SCA session is open now: the authorization asks for no login.
        const released = await authorizeQuote(client, { quote: executed, onChallenge });
        expect(asked).toEqual([true, false, false]);
        expect(released.status).toBe("PROCESSING");
      },
    );

    it("a failed SCA login ends the call with its own error, not as a refused payment answer", async () => {
      // No phone on file: the service has no SMS factor to log in with.
      const user = await stack.signUp(undefined, { region: "PT" });
      const { client } = stack.client(user.customerId);
      await signInWithEmail(client, user.emailCredentialId);
      const { quoteId } = await stack.walletQuote(user, 1_000_000);
      const quote = await getQuote(client, { quoteId });
      if (atExecute) {
        // Asked at execute: the login fails there, before anyone is asked; nothing moved.
        logins.length = 0;
        const failed = await execute(client, { quote }).catch((e) => e);
        expect(failed).toMatchObject({
          code: "INVALID_INPUT",
          details: { reason: "SCA_FACTOR_NOT_ENROLLED" },
        });
        expect(logins).toEqual([]);
        expect((await getQuote(client, { quoteId })).status).toBe("PENDING");
        return;
      }
      const executed = pending(await execute(client, { quote }));
      const errors: unknown[] = [];
      const failed = await authorizeQuote(client, {
        quote: executed,
        onChallenge: (_challenge, { error }) => {
          errors.push(error?.code);
          return SMS;
        },
      }).catch((e) => e);
      expect(failed).toMatchObject({
        code: "INVALID_INPUT",
        details: { reason: "SCA_FACTOR_NOT_ENROLLED" },
      });
      // Asked once: the login's refusal was not taken for a wrong payment code.
      expect(errors).toEqual([undefined]);
    });

    it("a lapsed challenge is CHALLENGE_EXPIRED on the device, judged by the service's clock", async () => {
      const { client, quoteId } = await payer("SE");
      const executed = pending(
        await execute(client, { quote: await getQuote(client, { quoteId }) }),
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

  describe("SCA: an authorization whose outcome is unknown (a relay's 5xx, no answer)", () => {
    const upstream = (status: number, code: string) =>
      new Response(
        JSON.stringify({ status, code, message: "The service did not answer in time." }),
        {
          status,
          headers: { "content-type": "application/json" },
        },
      );

    /**
     * The payer's device again, through a fetch that answers the first authorize with `status`
     * (after the service took it when `taken`), and rewrites the quote reads with `readAs`.
     */
    async function through(
      user: Awaited<ReturnType<typeof payer>>,
      fault: { status: number; code: string; taken: boolean; readAs?: string; times?: number },
    ) {
      let cut = false;
      let cuts = 0;
      const fetchThrough: FetchFunction = async (input, init) => {
        const url = String(input);
        if (cuts < (fault.times ?? 1) && init.method === "POST" && url.endsWith("/authorize")) {
          cut = true;
          cuts++;
          if (fault.taken) await fetch(input, init);
          return upstream(fault.status, fault.code);
        }
        const response = await fetch(input, init);
        if (fault.readAs && cut && init.method === "GET" && url.includes("/quotes/")) {
          const quote = (await response.json()) as Record<string, unknown>;
          return new Response(JSON.stringify({ ...quote, status: fault.readAs }), {
            status: response.status,
            headers: { "content-type": "application/json" },
          });
        }
        return response;
      };
      const { client } = stack.client(user.customerId, {
        keyStore: await user.client.keyStore(),
        fetch: fetchThrough,
      });
      await scaLogin(client, { onChallenge: () => SMS });
      const executed = pending(
        await execute(client, { quote: await getQuote(client, { quoteId: user.quoteId }) }),
      );
      return { client, executed };
    }

    it("a 504 after the service took the answer: the quote is read, released, and the next challenge asked, never the same code again", async () => {
      const user = await payer("DE");
      const { client, executed } = await through(user, {
        status: 504,
        code: "UPSTREAM_TIMEOUT",
        taken: true,
      });
      await stack.clearRequests();
      const seen: [string | null | undefined, number, string | undefined][] = [];
      const released = await authorizeQuote(client, {
        quote: executed,
        onChallenge: (challenge, { step, error }) => {
          seen.push([challenge.purpose, step, error?.code]);
          return SMS;
        },
      });
      expect(seen).toEqual([
        ["CURRENCY_CONVERSION", 1, undefined],
        ["PAYOUT", 2, undefined],
      ]);
      expect(released.status).toBe("PROCESSING");
      expect(await countOf("POST", "/authorize")).toBe(2);
    });

    it("a 502 before the service saw the answer: the quote still waits, so the customer is asked again with the error", async () => {
      const payee = await stack.signUp();
      const user = await payer("FR", {
        destination: { destinationType: "ACCOUNT", accountId: payee.accountId },
      });
      const { client, executed } = await through(user, {
        status: 502,
        code: "UPSTREAM_UNAVAILABLE",
        taken: false,
      });
      await stack.clearRequests();
      const errors: (string | undefined)[] = [];
      const released = await authorizeQuote(client, {
        quote: executed,
        onChallenge: (_challenge, { error }) => {
          errors.push(error?.code);
          return SMS;
        },
      });
      expect(errors).toEqual([undefined, "UPSTREAM_UNAVAILABLE"]);
      expect(released.status).toBe("PROCESSING");
      expect(await countOf("POST", "/authorize")).toBe(1);
    });

    it("three 502s in a row before the service saw any: the quote is read after each, the customer asked again each time, then released", async () => {
      const payee = await stack.signUp();
      const user = await payer("FR", {
        destination: { destinationType: "ACCOUNT", accountId: payee.accountId },
      });
      const { client, executed } = await through(user, {
        status: 502,
        code: "UPSTREAM_UNAVAILABLE",
        taken: false,
        times: 3,
      });
      await stack.clearRequests();
      const errors: (string | undefined)[] = [];
      const released = await authorizeQuote(client, {
        quote: executed,
        onChallenge: (_challenge, { error }) => {
          errors.push(error?.code);
          return SMS;
        },
      });
      expect(errors).toEqual([
        undefined,
        "UPSTREAM_UNAVAILABLE",
        "UPSTREAM_UNAVAILABLE",
        "UPSTREAM_UNAVAILABLE",
      ]);
      expect(released.status).toBe("PROCESSING");
      // Only the fourth answer reached the service: the first three were cut before it.
      expect(await countOf("POST", "/authorize")).toBe(1);
    });

    it.each([
      ["EXPIRED", "QUOTE_EXPIRED"],
      ["FAILED", "QUOTE_FAILED"],
    ])(
      "a quote read as %s after the unknown answer is %s, never a released payment",
      async (readAs, code) => {
        const user = await payer("NL");
        const { client, executed } = await through(user, {
          status: 504,
          code: "UPSTREAM_TIMEOUT",
          taken: false,
          readAs,
        });
        const error = await authorizeQuote(client, {
          quote: executed,
          onChallenge: () => SMS,
        }).catch((e) => e);
        expect(error).toBeInstanceOf(SignetError);
        expect(error).toMatchObject({ code, details: { quoteId: user.quoteId } });
        // "QUOTE_EXPIRED" and "QUOTE_FAILED" carry what codes.ts lists, and no more.
        expectDocumentedDetails(error);
      },
    );
  });
});
