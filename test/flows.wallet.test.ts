import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import {
  createDelegatedKey,
  executeQuote,
  exportWallet,
  getDelegatedKey,
  getQuote,
  listDelegatedKeys,
  listInternalAccounts,
  quotePayloadToSign,
  revokeDelegatedKey,
  SignetError,
  updateCustomerContact,
  waitForTransaction,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 200 });
});
afterAll(() => stack?.close());

async function fundedWalletWithQuote(amount = 1_000_000) {
  const user = await stack.signUp();
  return { ...user, ...(await stack.walletQuote(user, amount)) };
}

describe("send money: quote → sign → execute → settle", () => {
  it("executes a wallet quote once and waits for the transaction to settle", async () => {
    const { customerId, emailCredentialId, quoteId } = await fundedWalletWithQuote();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const quote = await getQuote(client, { quoteId });
    expect(quotePayloadToSign(quote)).toBeTypeOf("string");
    expect(quote.paymentInstructions?.[0]?.accountOrWalletInfo.accountType).not.toBe(
      "EMBEDDED_WALLET",
    );
    const executed = await executeQuote(client, { quote });
    expect(executed.status).toBe("PROCESSING");
    const transaction = await waitForTransaction(client, {
      transactionId: executed.transactionId!,
      pollingInterval: 50,
    });
    expect(transaction.status).toBe("COMPLETED");
    const [wallet] = await listInternalAccounts(client, { customerId });
    expect(wallet?.balance?.amount).toBe(4_000_000);
    const again = await executeQuote(client, { quote }).catch((e) => e);
    expect(again).toBeInstanceOf(SignetError);
    expect(again.status).toBe(409);
    expect(again.code).toBe("CONFLICT");
    expect(again.details.reason).toBe("QUOTE_ALREADY_EXECUTED");
  });

  it("retries an execute whose answer was lost with the same Idempotency-Key and pays once", async () => {
    const { customerId, emailCredentialId, quoteId } = await fundedWalletWithQuote();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const quote = await getQuote(client, { quoteId });
    // The service executes the first request, then the connection drops before the answer.
    await stack.fault({
      match: { method: "POST", path: `/quotes/${quoteId}/execute` },
      count: 1,
      kind: "drop_after",
    });
    const executed = await executeQuote(client, { quote });
    expect(executed.status).toBe("PROCESSING");
    const [wallet] = await listInternalAccounts(client, { customerId });
    expect(wallet?.balance?.amount).toBe(4_000_000);
    const executes = (await stack.requests()).filter((r) => r.path.endsWith(`${quoteId}/execute`));
    expect(executes.map((r) => r.fault ?? "answered")).toEqual(["drop_after", "answered"]);
    expect(executes.every((r) => r.hasIdempotencyKey && r.hasSignature)).toBe(true);
  });

  it("a connection dropped before the service acts is retried and executes once", async () => {
    const { customerId, emailCredentialId, quoteId } = await fundedWalletWithQuote();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const quote = await getQuote(client, { quoteId });
    await stack.fault({
      match: { method: "POST", path: `/quotes/${quoteId}/execute` },
      count: 1,
      kind: "drop",
    });
    expect((await executeQuote(client, { quote })).status).toBe("PROCESSING");
    const [wallet] = await listInternalAccounts(client, { customerId });
    expect(wallet?.balance?.amount).toBe(4_000_000);
  });

  it("refuses an execute with no session on this device", async () => {
    const { customerId, quoteId } = await fundedWalletWithQuote();
    const { client } = stack.client(customerId);
    const quote = await getQuote(client, { quoteId });
    const error = await executeQuote(client, { quote }).catch((e) => e);
    expect(error.code).toBe("NO_SESSION");
  });
});

describe("wallet export", () => {
  it("opens the export bundle to a valid mnemonic on the device", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client, events } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const mnemonic = await exportWallet(client, { accountId });
    expect(validateMnemonic(mnemonic, wordlist)).toBe(true);
    expect(await exportWallet(client, { accountId })).toBe(mnemonic); // stable per wallet
    const serialized = JSON.stringify(events);
    for (const word of mnemonic.split(" ")) expect(serialized).not.toContain(` ${word} `);
    expect(serialized).not.toContain(mnemonic);
  });

  it("refuses bundles signed by a key outside trustedKeys (the production pins by default)", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client: strict } = stack.client(customerId, { trustedKeys: {} });
    const refused = await signInWithEmail(strict, emailCredentialId).catch((e) => e);
    expect(refused).toBeInstanceOf(SignetError);
    expect(refused.code).toBe("BUNDLE_SIGNER_UNTRUSTED");

    const { client: sandbox, events } = stack.client(customerId, {
      trustedKeys: {},
      allowUnsignedBundles: true,
    });
    await signInWithEmail(sandbox, emailCredentialId);
    expect(await exportWallet(sandbox, { accountId })).toMatch(/^[a-z]+( [a-z]+){11}$/);
    const warnings = events
      .filter((e) => e.type === "bundleWarning")
      .map((e) => e.type === "bundleWarning" && e.bundle);
    expect(warnings).toEqual(["otpEncryptionTargetBundle", "encryptedWalletCredentials"]);
  });
});

describe("customer contact update", () => {
  it("changes the email with a signed retry and the OTP credential follows", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const email = `moved-${Date.now()}@example.com`;
    const customer = await updateCustomerContact(client, { customerId, accountId, email });
    expect(customer.email).toBe(email);
    const credentials = await stack.platform<{ data: Array<{ id: string; nickname: string }> }>(
      "GET",
      `/auth/credentials?accountId=${accountId}`,
    );
    expect(credentials.body.data.find((c) => c.id === emailCredentialId)?.nickname).toBe(email);
  });

  it("refuses an email that another customer holds, changing nothing", async () => {
    const taken = `taken-${Date.now()}@example.com`;
    await stack.signUp(taken);
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const { client } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const error = await updateCustomerContact(client, {
      customerId,
      accountId,
      email: taken,
    }).catch((e) => e);
    expect(error.status).toBe(409);
    expect(error.code).toBe("EMAIL_OTP_EMAIL_ALREADY_EXISTS");
  });

  it("refuses both fields at once before any request", async () => {
    const { customerId, accountId } = await stack.signUp();
    const { client } = stack.client(customerId);
    const error = await updateCustomerContact(client, {
      customerId,
      accountId,
      email: "a@b.c",
      phoneNumber: "+15555550100",
    } as never).catch((e) => e);
    expect(error.code).toBe("INVALID_ARGUMENT");
  });
});

describe("delegated keys", () => {
  it("creates (three legs), lists, gets and revokes a delegated key", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const card = await stack.platform<{ id: string; fundingSources: Array<{ id: string }> }>(
      "POST",
      "/cards",
      {
        cardholderId: customerId,
        fundingSources: [accountId],
        form: "VIRTUAL",
      },
    );
    expect(card.status).toBe(201);
    const { client, events } = stack.client(customerId);
    await signInWithEmail(client, emailCredentialId);
    const key = await createDelegatedKey(client, {
      accountId,
      cardId: card.body.id,
      nickname: "Card key",
    });
    expect(key.status).toBe("ACTIVE");
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    const legs = events.filter(
      (e) =>
        e.type === "signedRequest" && e.operation === "createDelegatedKey" && e.stage === "signing",
    );
    expect(legs).toHaveLength(2);
    const conflict = await createDelegatedKey(client, {
      accountId,
      cardId: card.body.id,
      nickname: "Second",
    }).catch((e) => e);
    expect(conflict.status).toBe(409);
    expect((await listDelegatedKeys(client, { accountId })).map((k) => k.id)).toContain(key.id);
    expect((await getDelegatedKey(client, { delegatedKeyId: key.id })).status).toBe("ACTIVE");
    await revokeDelegatedKey(client, { delegatedKeyId: key.id });
    expect((await getDelegatedKey(client, { delegatedKeyId: key.id })).status).toBe("REVOKED");
  });
});
