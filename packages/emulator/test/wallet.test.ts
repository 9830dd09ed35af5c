// Quotes, execute, transactions, cards, delegated keys and export, in process.
import { beforeEach, describe, expect, it } from "vitest";
import { createEmulator, type Emulator } from "../src/index.js";
import {
  call,
  newKey,
  openExport,
  processTarget,
  SIGNATURE,
  signedCall,
  signUp,
  stamp,
  type Target,
} from "./testClient.js";

let emulator: Emulator;
let t: Target;
beforeEach(() => {
  emulator = createEmulator({ settlementDelayMs: 10_000 });
  t = processTarget(emulator);
});

async function walletWithFunds(amount = 5_000_000) {
  const user = await signUp(t);
  const fund = await call(t, "POST", `/sandbox/internal-accounts/${user.account.id}/fund`, {
    amount,
  });
  expect(fund.status).toBe(200);
  expect(fund.body.balance.amount).toBe(amount);
  const external = await call(t, "POST", "/customers/external-accounts", {
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
  expect(external.status).toBe(201);
  return { ...user, external: external.body };
}

async function quoteFor(w: Awaited<ReturnType<typeof walletWithFunds>>, amount = 1_000_000) {
  const quote = await call(t, "POST", "/quotes", {
    source: { sourceType: "ACCOUNT", accountId: w.account.id },
    destination: { destinationType: "ACCOUNT", accountId: w.external.id },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: amount,
  });
  expect(quote.status).toBe(201);
  return quote.body;
}

function payloadOf(quote: {
  paymentInstructions: { accountOrWalletInfo: Record<string, string> }[];
}) {
  const entry = quote.paymentInstructions.find(
    (p) => p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
  );
  return entry!.accountOrWalletInfo.payloadToSign!;
}

describe("external accounts", () => {
  it("masks account numbers and lists by customer", async () => {
    const w = await walletWithFunds();
    expect(w.external.accountInfo.accountNumber).toBe("****6789");
    expect(w.external.status).toBe("ACTIVE");
    const list = await call(t, "GET", `/customers/external-accounts?customerId=${w.customer.id}`);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.hasMore).toBe(false);
  });
  it("refuses an unknown accountType", async () => {
    const w = await signUp(t);
    const r = await call(t, "POST", "/customers/external-accounts", {
      customerId: w.customer.id,
      currency: "USD",
      accountInfo: { accountType: "MOON_ACCOUNT" },
    });
    expect(r.status).toBe(400);
    expect(r.body.details.errors[0].field).toBe("accountInfo.accountType");
  });
});

describe("quotes", () => {
  it("creates a quote whose EMBEDDED_WALLET instruction is not first and whose payload is not sorted", async () => {
    const w = await walletWithFunds();
    const quote = await quoteFor(w);
    expect(quote.status).toBe("PENDING");
    expect(quote.id).toMatch(/^Quote:/);
    expect(quote.paymentInstructions[0].accountOrWalletInfo.accountType).not.toBe(
      "EMBEDDED_WALLET",
    );
    const payload = payloadOf(quote);
    const keys = Object.keys(JSON.parse(payload));
    expect(keys).not.toEqual([...keys].sort());
    expect(quote.sendingCurrency).toMatchObject({ code: "USDB", decimals: 6 });
    expect(quote.totalSendingAmount).toBe(1_000_000);
    expect(quote.totalReceivingAmount).toBe(100); // 1 USDB = 1 USD = 100 cents
    const got = await call(t, "GET", `/quotes/${quote.id}`);
    expect(got.body).toEqual(quote);
  });

  it("refuses immediatelyExecute for a wallet source, a self payment and bad input", async () => {
    const w = await walletWithFunds();
    const base = {
      source: { sourceType: "ACCOUNT", accountId: w.account.id },
      destination: { destinationType: "ACCOUNT", accountId: w.external.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 10,
    };
    const immediate = await call(t, "POST", "/quotes", { ...base, immediatelyExecute: true });
    expect(immediate.status).toBe(400);
    expect(immediate.body.details.errors[0].field).toBe("immediatelyExecute");
    const self = await call(t, "POST", "/quotes", {
      ...base,
      destination: { destinationType: "ACCOUNT", accountId: w.account.id },
    });
    expect(self.body.code).toBe("SELF_PAYMENT");
    const small = await call(t, "POST", "/quotes", { ...base, lockedCurrencyAmount: 1 });
    expect(small.body.code).toBe("AMOUNT_OUT_OF_RANGE");
    const bad = await call(t, "POST", "/quotes", {
      ...base,
      lockedCurrencySide: "BOTH",
      lockedCurrencyAmount: -1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "lockedCurrencyAmount",
      "lockedCurrencySide",
    ]);
  });

  it("executes once with a session stamp, debits, and settles after the delay", async () => {
    const w = await walletWithFunds();
    const quote = await quoteFor(w);
    const headers = { [SIGNATURE]: stamp(payloadOf(quote), w.sessionKey), "Idempotency-Key": "k1" };
    const executed = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, headers);
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe("PROCESSING");
    expect(executed.body.transactionId).toMatch(/^Transaction:/);
    const again = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(executed.body);
    const other = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, {
      [SIGNATURE]: headers[SIGNATURE],
      "Idempotency-Key": "k2",
    });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      code: "CONFLICT",
      details: { reason: "QUOTE_ALREADY_EXECUTED" },
    });
    const none = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, {
      [SIGNATURE]: headers[SIGNATURE],
    });
    expect(none.status).toBe(409);
    const accounts = await call(t, "GET", `/internal-accounts?customerId=${w.customer.id}`);
    expect(accounts.body.data[0].balance.amount).toBe(4_000_000);
    const tx = await call(t, "GET", `/transactions/${executed.body.transactionId}`);
    expect(tx.body.status).toBe("PROCESSING");
    emulator.advanceClock(10_000);
    const settled = await call(t, "GET", `/transactions/${executed.body.transactionId}`);
    expect(settled.body.status).toBe("COMPLETED");
    expect(settled.body.sentAmount.amount).toBe(1_000_000);
    const list = await call(t, "GET", `/transactions?accountIdentifier=${w.account.id}`);
    expect(list.body.data.map((x: { type: string }) => x.type).sort()).toEqual([
      "INCOMING",
      "OUTGOING",
    ]);
  });

  it("checks the stamp: missing, malformed, wrong key, expired session", async () => {
    const w = await walletWithFunds();
    const quote = await quoteFor(w);
    const path = `/quotes/${quote.id}/execute`;
    expect((await call(t, "POST", path)).body.code).toBe("WALLET_SIGNATURE_MISSING");
    expect((await call(t, "POST", path, undefined, { [SIGNATURE]: "!!" })).body.code).toBe(
      "WALLET_SIGNATURE_MALFORMED",
    );
    const stranger = newKey();
    expect(
      (await call(t, "POST", path, undefined, { [SIGNATURE]: stamp(payloadOf(quote), stranger) }))
        .body.code,
    ).toBe("WALLET_SIGNATURE_INVALID");
    expect(
      (await call(t, "POST", path, undefined, { [SIGNATURE]: stamp("other", w.sessionKey) })).body
        .code,
    ).toBe("WALLET_SIGNATURE_INVALID");
    emulator.advanceClock(4 * 60_000);
    const fresh = await quoteFor(w);
    emulator.advanceClock(12 * 60_000); // session (15 min) is now expired, quote (5 min) too
    const r = await call(t, "POST", `/quotes/${fresh.id}/execute`, undefined, {
      [SIGNATURE]: stamp(payloadOf(fresh), w.sessionKey),
    });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: "CONFLICT", details: { reason: "QUOTE_EXPIRED" } });
  });

  it("refuses an expired session's stamp", async () => {
    const w = await walletWithFunds();
    emulator.advanceClock(14 * 60_000);
    const quote = await quoteFor(w);
    emulator.advanceClock(2 * 60_000);
    const r = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, {
      [SIGNATURE]: stamp(payloadOf(quote), w.sessionKey),
    });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("WALLET_SIGNATURE_INVALID");
  });

  it("answers INSUFFICIENT_FUNDS and replays it for the same key", async () => {
    const w = await walletWithFunds(100);
    const quote = await quoteFor(w, 1_000_000);
    const headers = { [SIGNATURE]: stamp(payloadOf(quote), w.sessionKey), "Idempotency-Key": "x" };
    const r = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, headers);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("INSUFFICIENT_FUNDS");
    await call(t, "POST", `/sandbox/internal-accounts/${w.account.id}/fund`, { amount: 2_000_000 });
    expect(
      (await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, headers)).body.code,
    ).toBe("INSUFFICIENT_FUNDS");
    const ok = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, {
      ...headers,
      "Idempotency-Key": "y",
    });
    expect(ok.status).toBe(200);
  });

  it("a processing fault answers PROCESSING without executing; the re-send executes", async () => {
    const w = await walletWithFunds();
    const quote = await quoteFor(w);
    emulator.addFault({ kind: "processing", match: { path: "/quotes" } });
    const headers = { [SIGNATURE]: stamp(payloadOf(quote), w.sessionKey), "Idempotency-Key": "p" };
    const first = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, headers);
    expect(first.body).toMatchObject({ status: "PROCESSING" });
    expect((await call(t, "GET", `/quotes/${quote.id}`)).body.status).toBe("PENDING");
    const second = await call(t, "POST", `/quotes/${quote.id}/execute`, undefined, headers);
    expect(second.body.transactionId).toMatch(/^Transaction:/);
  });

  it("settles a wallet-to-wallet transfer into the destination", async () => {
    const a = await walletWithFunds();
    const b = await signUp(t);
    const quote = await call(t, "POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: a.account.id },
      destination: { destinationType: "ACCOUNT", accountId: b.account.id },
      lockedCurrencySide: "RECEIVING",
      lockedCurrencyAmount: 250_000,
    });
    expect(quote.body.totalSendingAmount).toBe(250_000);
    await call(t, "POST", `/quotes/${quote.body.id}/execute`, undefined, {
      [SIGNATURE]: stamp(payloadOf(quote.body), a.sessionKey),
    });
    emulator.advanceClock(10_000);
    const accounts = await call(
      t,
      "GET",
      `/customers/internal-accounts?customerId=${b.customer.id}`,
    );
    expect(accounts.body.data[0].balance.amount).toBe(250_000);
    expect((await call(t, "GET", `/quotes/${quote.body.id}`)).body.status).toBe("COMPLETED");
  });
});

describe("cards and delegated keys", () => {
  async function card() {
    const w = await signUp(t);
    const created = await call(t, "POST", "/cards", {
      cardholderId: w.customer.id,
      form: "VIRTUAL",
      fundingSources: [w.account.id],
    });
    expect(created.status).toBe(201);
    return { ...w, card: created.body };
  }

  it("issues a card with CardFundingSource ids", async () => {
    const c = await card();
    expect(c.card.state).toBe("ACTIVE");
    expect(c.card.form).toBe("VIRTUAL");
    expect(c.card.fundingSources).toEqual([c.account.id]);
    expect((await call(t, "GET", `/cards/${c.card.id}`)).body).toEqual(c.card);
    const other = await signUp(t);
    const bad = await call(t, "POST", "/cards", {
      cardholderId: c.customer.id,
      form: "VIRTUAL",
      fundingSources: [other.account.id],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.errors[0].field).toBe("fundingSources[0]");
  });

  it("creates a delegated key in three legs, lists, gets, refuses a second, revokes", async () => {
    const c = await card();
    const body = JSON.stringify({
      cardId: c.card.id,
      internalAccountId: c.account.id,
      nickname: "card key",
    });
    const leg1 = await call(t, "POST", "/auth/delegated-keys", body);
    expect(leg1.status).toBe(202);
    const leg2 = await call(t, "POST", "/auth/delegated-keys", body, {
      [SIGNATURE]: stamp(leg1.body.payloadToSign, c.sessionKey),
      "Request-Id": leg1.body.requestId,
    });
    expect(leg2.status).toBe(202);
    expect(leg2.body.requestId).not.toBe(leg1.body.requestId);
    expect(leg2.body.payloadToSign).not.toBe(leg1.body.payloadToSign);
    // The card lists account ids; the delegated key names its CardFundingSource.
    const byAccount = await call(t, "GET", `/auth/delegated-keys?accountId=${c.account.id}`);
    const fundingSourceId = byAccount.body.data[0].fundingSourceId;
    expect(fundingSourceId).toMatch(/^CardFundingSource:/);
    const pending = await call(t, "GET", `/auth/delegated-keys?fundingSourceId=${fundingSourceId}`);
    expect(pending.body.data[0].status).toBe("PENDING");
    const leg3 = await call(t, "POST", "/auth/delegated-keys", body, {
      [SIGNATURE]: stamp(leg2.body.payloadToSign, c.sessionKey),
      "Request-Id": leg2.body.requestId,
    });
    expect(leg3.status).toBe(201);
    expect(leg3.body).toMatchObject({
      cardId: c.card.id,
      fundingSourceId,
      accountId: c.account.id,
      nickname: "card key",
      status: "ACTIVE",
    });
    expect(leg3.body.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect((await call(t, "GET", `/auth/delegated-keys/${leg3.body.id}`)).body).toEqual(leg3.body);
    const again = await call(t, "POST", "/auth/delegated-keys", body);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: "CONFLICT",
      details: { reason: "DELEGATED_KEY_ALREADY_EXISTS" },
    });
    expect((await call(t, "GET", "/auth/delegated-keys")).status).toBe(400);
    expect((await call(t, "DELETE", `/auth/delegated-keys/${leg3.body.id}`)).status).toBe(204);
    // docs/protocol.md §10: revoking a key that is not ACTIVE is a 400.
    const twice = await call(t, "DELETE", `/auth/delegated-keys/${leg3.body.id}`);
    expect(twice.status).toBe(400);
    expect(twice.body.details).toMatchObject({
      reason: "DELEGATED_KEY_NOT_ACTIVE",
      status: "REVOKED",
    });
    const list = await call(t, "GET", `/auth/delegated-keys?accountId=${c.account.id}`);
    expect(list.body.data[0].status).toBe("REVOKED");
    const { result } = await signedCall(t, "POST", "/auth/delegated-keys", body, c.sessionKey);
    expect(result.status).toBe(202); // a new key may start once the old one is revoked
  });

  it("answers 404 for an account that is not a funding source of the card", async () => {
    const c = await card();
    const other = await signUp(t);
    const r = await call(t, "POST", "/auth/delegated-keys", {
      cardId: c.card.id,
      internalAccountId: other.account.id,
      nickname: "x",
    });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("REFERENCE_NOT_FOUND");
  });
});

describe("export", () => {
  it("exports the stable mnemonic, signed by the signer key", async () => {
    const w = await signUp(t);
    const exportKey = newKey();
    const path = `/internal-accounts/${w.account.id}/export`;
    const body = { clientPublicKey: exportKey.publicKeyUncompressed };
    const { challenge, result } = await signedCall(t, "POST", path, body, w.sessionKey);
    expect(challenge.status).toBe(202);
    expect(result.status).toBe(200);
    expect(result.body.id).toBe(w.account.id);
    const opened = openExport(
      result.body.encryptedWalletCredentials,
      exportKey,
      emulator.keys.signerPublicKey,
    );
    expect(opened.mnemonic.split(" ")).toHaveLength(12);
    expect(opened.organizationId).toBe(emulator.organizationId);
    const second = newKey();
    const again = await signedCall(
      t,
      "POST",
      path,
      { clientPublicKey: second.publicKeyUncompressed },
      w.sessionKey,
    );
    expect(openExport(again.result.body.encryptedWalletCredentials, second).mnemonic).toBe(
      opened.mnemonic,
    );
  });

  it("refuses a compressed key and a stamp from another wallet", async () => {
    const w = await signUp(t);
    const other = await signUp(t);
    const path = `/internal-accounts/${w.account.id}/export`;
    const compressed = await call(t, "POST", path, {
      clientPublicKey: newKey().publicKeyCompressed,
    });
    expect(compressed.status).toBe(400);
    expect(compressed.body.details.errors[0].field).toBe("clientPublicKey");
    const { result } = await signedCall(
      t,
      "POST",
      path,
      { clientPublicKey: newKey().publicKeyUncompressed },
      other.sessionKey,
    );
    expect(result.status).toBe(401);
    expect(result.body.code).toBe("WALLET_SIGNATURE_INVALID");
  });

  it("writes sandbox-style empty signatures with signExports: false", async () => {
    const e = createEmulator({ signExports: false });
    const target = processTarget(e);
    const w = await signUp(target);
    const key = newKey();
    const { result } = await signedCall(
      target,
      "POST",
      `/internal-accounts/${w.account.id}/export`,
      { clientPublicKey: key.publicKeyUncompressed },
      w.sessionKey,
    );
    const opened = openExport(result.body.encryptedWalletCredentials, key);
    expect(opened.signed).toBe(false);
    expect(JSON.parse(result.body.encryptedWalletCredentials).enclaveQuorumPublic).toBe("");
  });
});
