// The journeys of the service's demo wallet that need more than a wallet source (issue #26), over
// real HTTP: a send to a crypto wallet, adding money from a saved bank (an external-account
// quote funded by `POST /sandbox/send`) and a simulated deposit (the platform's USD account,
// funded in the sandbox, executes without a wallet stamp). Every answer of an operation in the
// OpenAPI subset is judged by `httpTarget`; the others are checked against the subset's
// component schemas here. After each journey the ledger is checked: no money made or lost.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiJudge } from "../../test/src/openapi.js";
import { type EmulatorServer, startEmulatorServer } from "../src/index.js";
import {
  call,
  httpTarget,
  type Reply,
  SIGNATURE,
  signUp,
  stamp,
  type Target,
} from "./testClient.js";

const judge = openApiJudge();
const SETTLE_MS = 5_000;

let server: EmulatorServer;
let t: Target;
beforeAll(async () => {
  server = await startEmulatorServer({ port: 0, settlementDelayMs: SETTLE_MS });
  t = httpTarget(server.url);
});
afterAll(async () => {
  await server.close();
});

/** The request as the OpenAPI defines it: no finding from the judge. */
function conforms(method: string, url: string, body: unknown) {
  const findings = judge.checkRequest({
    method,
    url,
    headers: new Headers({ "content-type": "application/json" }),
    body: JSON.stringify(body),
  });
  expect(findings.flatMap((f) => f.errors)).toEqual([]);
}

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  if (judge.operationOf("POST", path)) conforms("POST", path, body);
  return call(t, "POST", path, body, headers);
}

const advance = (ms: number) => call(t, "POST", "/_emulator/clock", { advanceMs: ms });

const SOLANA = "4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8Wg";
const EVM = "0xAbCDEF1234567890aBCdEf1234567890ABcDef12";
const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
const SPARK = "spark1pgssyuuuhnrrdjswal5c3s3rafw9w3y5dd4cjy3duxlf7hjzkp0rqx6dj6mrhu";

/**
 * The ledger: every internal account's balance is what settled into it less what left it, and
 * money only enters through sandbox funding or `/sandbox/send` and only leaves to external
 * accounts. Returns the totals so a test can compare them.
 */
async function checkLedger() {
  const transactions = (await call(t, "GET", "/transactions")).body.data as {
    type: string;
    status: string;
    source?: { accountId?: string };
    destination: { accountId: string };
    sentAmount: { amount: number };
    receivedAmount: { amount: number };
  }[];
  const wallets = (await call(t, "GET", "/customers/internal-accounts")).body.data;
  const platform = (await call(t, "GET", "/platform/internal-accounts")).body.data;
  const accounts = [...wallets, ...platform] as { id: string; balance: { amount: number } }[];
  for (const account of accounts) {
    const credited = transactions
      .filter((x) => x.destination.accountId === account.id && x.status === "COMPLETED")
      .reduce((sum, x) => sum + x.receivedAmount.amount, 0);
    const debited = transactions
      .filter((x) => x.type === "OUTGOING" && x.source?.accountId === account.id)
      .reduce((sum, x) => sum + x.sentAmount.amount, 0);
    expect({ id: account.id, balance: account.balance.amount }).toEqual({
      id: account.id,
      balance: credited - debited,
    });
    expect(account.balance.amount).toBeGreaterThanOrEqual(0);
  }
  return { transactions, accounts };
}

async function fundedUser(amount = 50_000_000) {
  const user = await signUp(t);
  const fund = await post(`/sandbox/internal-accounts/${user.account.id}/fund`, { amount });
  expect(fund.status).toBe(200);
  return user;
}

function expectNoInstructionsToSign(quote: Reply["body"]) {
  const types = (quote.paymentInstructions ?? []).map(
    (p: { accountOrWalletInfo: { accountType: string } }) => p.accountOrWalletInfo.accountType,
  );
  expect(types).not.toContain("EMBEDDED_WALLET");
}

describe("external accounts: every type of the OpenAPI", () => {
  it("accepts each account type the OpenAPI lists, crypto wallets with a valid address", async () => {
    const user = await signUp(t);
    // Bank details are stored as sent (a listed gap): the bare bodies sent here for the bank
    // types would not make answers the OpenAPI allows, so this loop is not judged; the wallets'
    // answers are checked against ExternalAccount below.
    const unjudged: Target = { base: server.url, fetch: (r) => fetch(r) };
    const mapping = (
      judge.document as {
        components: {
          schemas: { ExternalAccountCreateInfoOneOf: { discriminator: { mapping: object } } };
        };
      }
    ).components.schemas.ExternalAccountCreateInfoOneOf.discriminator.mapping;
    const types = Object.keys(mapping);
    expect(types).toEqual(expect.arrayContaining(["SOLANA_WALLET", "TRON_WALLET", "BASE_WALLET"]));
    const addresses: Record<string, string> = {
      SOLANA_WALLET: SOLANA,
      BASE_WALLET: EVM,
      ETHEREUM_WALLET: EVM,
      POLYGON_WALLET: EVM,
      PLASMA_WALLET: EVM,
      TRON_WALLET: TRON,
      SPARK_WALLET: SPARK,
    };
    for (const accountType of types) {
      const accountInfo: Record<string, unknown> = { accountType };
      if (addresses[accountType]) accountInfo.address = addresses[accountType];
      if (accountType === "LIGHTNING") accountInfo.lightningAddress = "ada@wallet.example";
      const r = await call(unjudged, "POST", "/customers/external-accounts", {
        customerId: user.customer.id,
        currency: accountType.endsWith("_WALLET") ? "USDC" : "USD",
        accountInfo,
      });
      expect([accountType, r.status]).toEqual([accountType, 201]);
      expect(r.body.accountInfo.accountType).toBe(accountType);
      if (addresses[accountType] || accountType === "LIGHTNING") {
        expect([accountType, judge.checkComponent("ExternalAccount", r.body)]).toEqual([
          accountType,
          [],
        ]);
      }
    }
  });

  it("refuses a wallet address of the wrong form, naming accountInfo.address", async () => {
    const user = await signUp(t);
    const bad: [string, string][] = [
      ["SOLANA_WALLET", EVM],
      ["SOLANA_WALLET", "4Nd1m6Qkq7RfKuE5vQ9qP9Tn6H94Ueqb4xXHzsAbd8W0"],
      ["SOLANA_WALLET", "1111111111111111111111111111111"],
      ["ETHEREUM_WALLET", "0xAbCDEF1234567890aBCdEf1234567890ABcDef1"],
      ["BASE_WALLET", SOLANA],
      ["TRON_WALLET", "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM"],
      ["TRON_WALLET", EVM],
      ["SPARK_WALLET", "bc1qxyz"],
    ];
    for (const [accountType, address] of bad) {
      const r = await call(t, "POST", "/customers/external-accounts", {
        customerId: user.customer.id,
        currency: "USDC",
        accountInfo: { accountType, address },
      });
      expect([accountType, address, r.status, r.body.code]).toEqual([
        accountType,
        address,
        400,
        "INVALID_INPUT",
      ]);
      expect(r.body.details.errors.map((e: { field: string }) => e.field)).toEqual([
        "accountInfo.address",
      ]);
    }
    const missing = await call(t, "POST", "/customers/external-accounts", {
      customerId: user.customer.id,
      currency: "USDC",
      accountInfo: { accountType: "SOLANA_WALLET" },
    });
    expect(missing.status).toBe(400);
    const lightning = await call(t, "POST", "/customers/external-accounts", {
      customerId: user.customer.id,
      currency: "BTC",
      accountInfo: { accountType: "LIGHTNING", invoice: "lnbc1", lightningAddress: "a@b.c" },
    });
    expect(lightning.status).toBe(400);
  });

  it("takes the optional fields of the create request, and an account of the platform's own", async () => {
    const user = await signUp(t);
    const body = {
      customerId: user.customer.id,
      currency: "USDC",
      platformAccountId: "ext_sol_1",
      ownershipType: "FIRST_PARTY",
      defaultUmaDepositAccount: false,
      accountInfo: { accountType: "SOLANA_WALLET", address: SOLANA, vaspName: "Phantom" },
    };
    const r = await post("/customers/external-accounts", body);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      ownershipType: "FIRST_PARTY",
      defaultUmaDepositAccount: false,
      platformAccountId: "ext_sol_1",
    });
    const { customerId: _, ...platformBody } = body;
    const platform = await post("/customers/external-accounts", platformBody);
    expect(platform.status).toBe(201);
    expect(platform.body.customerId).toBeUndefined();
  });
});

describe("journey: send to a Solana wallet", () => {
  it("quotes, executes with the wallet's stamp and settles; the wallet pays exactly the quote", async () => {
    const user = await fundedUser(10_000_000);
    const external = await post("/customers/external-accounts", {
      customerId: user.customer.id,
      currency: "USDC",
      accountInfo: { accountType: "SOLANA_WALLET", address: SOLANA },
    });
    expect(external.status).toBe(201);
    const quote = await post("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: user.account.id, customerId: user.customer.id },
      destination: { destinationType: "ACCOUNT", accountId: external.body.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 2_500_000,
    });
    expect(quote.status).toBe(201);
    const payload = quote.body.paymentInstructions.find(
      (p: { accountOrWalletInfo: { accountType: string } }) =>
        p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    ).accountOrWalletInfo.payloadToSign;
    const executed = await call(t, "POST", `/quotes/${quote.body.id}/execute`, undefined, {
      [SIGNATURE]: stamp(payload, user.sessionKey),
    });
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe("PROCESSING");
    await advance(SETTLE_MS);
    expect((await call(t, "GET", `/quotes/${quote.body.id}`)).body.status).toBe("COMPLETED");
    const wallet = (
      await call(t, "GET", `/customers/internal-accounts?customerId=${user.customer.id}`)
    ).body.data[0];
    expect(wallet.balance.amount).toBe(10_000_000 - 2_500_000);
    await checkLedger();
  });

  it("refuses a source customerId that is not the wallet's owner", async () => {
    const user = await fundedUser();
    const other = await signUp(t);
    const r = await post("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: user.account.id, customerId: other.customer.id },
      destination: { destinationType: "ACCOUNT", accountId: other.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
    });
    expect(r.status).toBe(400);
    expect(r.body.details.errors[0].field).toBe("source.customerId");
  });
});

describe("journey: add money from a saved bank", () => {
  async function bankQuote() {
    const user = await signUp(t);
    const bank = await post("/customers/external-accounts", {
      customerId: user.customer.id,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "123456789",
        routingNumber: "021000021",
        bankAccountType: "CHECKING",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace" },
      },
    });
    expect(bank.status).toBe(201);
    const quote = await post("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: bank.body.id, customerId: user.customer.id },
      destination: { destinationType: "ACCOUNT", accountId: user.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 12_345,
    });
    expect(quote.status).toBe(201);
    return { user, bank: bank.body, quote: quote.body };
  }

  it("quotes PENDING with bank instructions; /sandbox/send funds it; the wallet is credited at settlement", async () => {
    const { user, bank, quote } = await bankQuote();
    expect(quote.status).toBe("PENDING");
    expect(quote.source).toEqual({
      sourceType: "ACCOUNT",
      accountId: bank.id,
      customerId: user.customer.id,
    });
    expect(quote.totalSendingAmount).toBe(12_345);
    expect(quote.totalReceivingAmount).toBe(123_450_000);
    expectNoInstructionsToSign(quote);
    expect(quote.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
      accountType: "USD_ACCOUNT",
      reference: expect.stringMatching(/^EMU-/),
    });

    const executed = await call(t, "POST", `/quotes/${quote.id}/execute`);
    expect(executed.status).toBe(409);
    expect(executed.body.details.reason).toBe("QUOTE_FUNDED_BY_INSTRUCTIONS");

    const wrongCurrency = await post("/sandbox/send", { quoteId: quote.id, currencyCode: "EUR" });
    expect(wrongCurrency.status).toBe(400);
    const wrongAmount = await post("/sandbox/send", {
      quoteId: quote.id,
      currencyCode: "USD",
      currencyAmount: 12_000,
    });
    expect(wrongAmount.status).toBe(400);
    expect(wrongAmount.body.details.errors[0].field).toBe("currencyAmount");

    const sent = await post("/sandbox/send", {
      quoteId: quote.id,
      currencyCode: "USD",
      currencyAmount: 12_345,
    });
    expect(sent.status).toBe(200);
    expect(judge.checkComponent("TransactionOneOf", sent.body)).toEqual([]);
    expect(sent.body).toMatchObject({
      id: quote.transactionId,
      type: "INCOMING",
      status: "PROCESSING",
      quoteId: quote.id,
      source: { sourceType: "ACCOUNT", accountId: bank.id },
      destination: { destinationType: "ACCOUNT", accountId: user.account.id },
      receivedAmount: { amount: 123_450_000 },
    });
    expect((await call(t, "GET", `/quotes/${quote.id}`)).body.status).toBe("PROCESSING");

    const again = await post("/sandbox/send", { quoteId: quote.id, currencyCode: "USD" });
    expect(again.status).toBe(400);
    expect(again.body.details.reason).toBe("QUOTE_ALREADY_EXECUTED");

    await advance(SETTLE_MS);
    expect((await call(t, "GET", `/quotes/${quote.id}`)).body.status).toBe("COMPLETED");
    const tx = await call(t, "GET", `/transactions/${quote.transactionId}`);
    expect(tx.body.status).toBe("COMPLETED");
    const wallet = (
      await call(t, "GET", `/customers/internal-accounts?customerId=${user.customer.id}`)
    ).body.data[0];
    expect(wallet.balance.amount).toBe(123_450_000);
    await checkLedger();
  });

  it("answers 404 for an unknown quote, 400 for a wallet's quote, and lets an expired one lapse", async () => {
    const missing = await post("/sandbox/send", {
      quoteId: "Quote:019542f5-b3e7-1d02-0000-000000000006",
      currencyCode: "USD",
    });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("QUOTE_NOT_FOUND");

    const user = await fundedUser();
    const other = await signUp(t);
    const walletQuote = await post("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: user.account.id },
      destination: { destinationType: "ACCOUNT", accountId: other.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
    });
    const refused = await post("/sandbox/send", {
      quoteId: walletQuote.body.id,
      currencyCode: "USDB",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details.reason).toBe("QUOTE_NOT_INSTRUCTION_FUNDED");

    const { quote } = await bankQuote();
    await advance(10 * 60_000);
    const late = await post("/sandbox/send", { quoteId: quote.id, currencyCode: "USD" });
    expect(late.status).toBe(400);
    expect(late.body.details.reason).toBe("QUOTE_EXPIRED");
    await checkLedger();
  });

  it("funds a real-time funding quote the same way", async () => {
    const user = await signUp(t);
    const quote = await post("/quotes", {
      source: {
        sourceType: "REALTIME_FUNDING",
        currency: "USDC",
        customerId: user.customer.id,
        cryptoNetwork: "SPARK",
      },
      destination: { destinationType: "ACCOUNT", accountId: user.account.id },
      lockedCurrencySide: "RECEIVING",
      lockedCurrencyAmount: 2_000_000,
    });
    expect(quote.status).toBe(201);
    expect(quote.body.source).toMatchObject({ sourceType: "REALTIME_FUNDING", currency: "USDC" });
    expect(quote.body.paymentInstructions[0].accountOrWalletInfo.accountType).toBe("SPARK_WALLET");
    const sent = await post("/sandbox/send", { quoteId: quote.body.id, currencyCode: "USDC" });
    expect(sent.status).toBe(200);
    expect(judge.checkComponent("TransactionOneOf", sent.body)).toEqual([]);
    await advance(SETTLE_MS);
    const wallet = (
      await call(t, "GET", `/customers/internal-accounts?customerId=${user.customer.id}`)
    ).body.data[0];
    expect(wallet.balance.amount).toBe(2_000_000);
    await checkLedger();
  });
});

describe("journey: a simulated deposit from the platform's USD account", () => {
  async function platformUsd() {
    const list = await call(t, "GET", "/platform/internal-accounts?currency=USD");
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const account = list.body.data[0];
    expect(judge.checkComponent("InternalAccount", account)).toEqual([]);
    expect(account).toMatchObject({
      type: "INTERNAL_FIAT",
      balance: { currency: { code: "USD" } },
    });
    expect(account.customerId).toBeUndefined();
    return account as { id: string; balance: { amount: number } };
  }

  it("lists the platform's accounts by currency and type, and never among a customer's", async () => {
    const all = await call(t, "GET", "/platform/internal-accounts");
    expect(all.body.data.length).toBeGreaterThanOrEqual(2);
    for (const account of all.body.data) {
      expect(judge.checkComponent("InternalAccount", account)).toEqual([]);
    }
    const crypto = await call(t, "GET", "/platform/internal-accounts?type=INTERNAL_CRYPTO");
    expect(crypto.body.data.map((a: { type: string }) => a.type)).not.toContain("INTERNAL_FIAT");
    const wallets = await call(t, "GET", "/platform/internal-accounts?type=EMBEDDED_WALLET");
    expect(wallets.body.data).toEqual([]);
    const ids = new Set(all.body.data.map((a: { id: string }) => a.id));
    const customers = await call(t, "GET", "/customers/internal-accounts");
    expect(customers.body.data.some((a: { id: string }) => ids.has(a.id))).toBe(false);
    const bad = await call(t, "GET", "/platform/internal-accounts?type=CHECKING");
    expect(bad.status).toBe(400);
  });

  it("funds the platform's account, quotes to a wallet, executes without a stamp, once", async () => {
    const user = await signUp(t);
    const usd = await platformUsd();
    const before = usd.balance.amount;
    const funded = await post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 100_000 });
    expect(funded.status).toBe(200);
    expect(funded.body.balance.amount).toBe(before + 100_000);

    const quote = await post("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: usd.id, customerId: user.customer.id },
      destination: { destinationType: "ACCOUNT", accountId: user.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 2_500,
      description: "Deposit",
    });
    expect(quote.status).toBe(201);
    expect(quote.body.paymentInstructions).toBeUndefined();
    expect(quote.body.totalReceivingAmount).toBe(25_000_000);

    const headers = { "Idempotency-Key": "deposit-1" };
    const executed = await call(t, "POST", `/quotes/${quote.body.id}/execute`, undefined, headers);
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe("PROCESSING");
    const replay = await call(t, "POST", `/quotes/${quote.body.id}/execute`, undefined, headers);
    expect(replay.text).toBe(executed.text);
    const twice = await call(t, "POST", `/quotes/${quote.body.id}/execute`);
    expect(twice.status).toBe(409);
    expect(twice.body.details.reason).toBe("QUOTE_ALREADY_EXECUTED");

    const tx = await call(t, "GET", `/transactions/${executed.body.transactionId}`);
    expect(tx.body).toMatchObject({ type: "OUTGOING", customerId: user.customer.id });
    await advance(SETTLE_MS);
    const wallet = (
      await call(t, "GET", `/customers/internal-accounts?customerId=${user.customer.id}`)
    ).body.data[0];
    expect(wallet.balance.amount).toBe(25_000_000);
    expect((await platformUsd()).balance.amount).toBe(before + 100_000 - 2_500);
    await checkLedger();
  });

  it("executes at creation with immediatelyExecute, and refuses what the balance does not cover", async () => {
    const user = await signUp(t);
    const usd = await platformUsd();
    await post(`/sandbox/internal-accounts/${usd.id}/fund`, { amount: 1_000 });
    const now = await post("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: usd.id },
      destination: { destinationType: "ACCOUNT", accountId: user.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
      immediatelyExecute: true,
    });
    expect(now.status).toBe(201);
    expect(now.body.status).toBe("PROCESSING");
    const balance = (await platformUsd()).balance.amount;
    const tooMuch = await post("/quotes", {
      source: { sourceType: "ACCOUNT", accountId: usd.id },
      destination: { destinationType: "ACCOUNT", accountId: user.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: balance + 1,
    });
    expect(tooMuch.status).toBe(201);
    const refused = await call(t, "POST", `/quotes/${tooMuch.body.id}/execute`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("INSUFFICIENT_FUNDS");
    await advance(SETTLE_MS);
    await checkLedger();
  });
});
