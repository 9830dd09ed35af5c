// A whole wallet lifecycle straight against the emulator over HTTP (no relay): the emulator's
// checks meet a client it did not write (@signet/core's stamps, HPKE and WebAuthn handling).

import {
  addPasskey,
  createClient,
  createMemoryKeyStore,
  executeQuote,
  exportWallet,
  getQuote,
  refreshSession,
  signInWithPasskey,
  waitForTransaction,
} from "@signet/core";
import { type EmulatorServer, startEmulatorServer } from "@signet/emulator";
import { createSoftAuthenticator } from "@signet/emulator/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";

let emulator: EmulatorServer;
beforeAll(async () => {
  emulator = await startEmulatorServer({ port: 0, settlementDelayMs: 100, seed: "lifecycle" });
});
afterAll(() => emulator?.close());

const basic = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;
async function platform<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: basic, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as T;
}

it("sign up → OTP sign-in → add passkey → passkey sign-in → refresh → export → execute a quote → settle", async () => {
  const customer = await platform<{ id: string }>("POST", "/customers", {
    customerType: "INDIVIDUAL",
    email: "life@example.com",
    fullName: "Life Cycle",
  });
  const { data: accounts } = await platform<{ data: Array<{ id: string }> }>(
    "GET",
    `/customers/internal-accounts?customerId=${customer.id}`,
  );
  const accountId = accounts[0]!.id;
  const { data: credentials } = await platform<{ data: Array<{ id: string; type: string }> }>(
    "GET",
    `/auth/credentials?accountId=${accountId}`,
  );
  const keys = await (await fetch(`${emulator.url}/_emulator/keys`)).json();
  const authenticator = createSoftAuthenticator({
    rpId: "localhost",
    origin: "http://localhost:5173",
  });
  const client = createClient({
    relayUrl: emulator.url, // the service's paths, with platform credentials standing in for a relay
    headers: { authorization: basic },
    keyStore: createMemoryKeyStore(),
    webauthn: authenticator.provider,
    trustedKeys: {
      otpTargetBundle: [keys.attestationPublicKey],
      exportBundle: [keys.signerPublicKey],
    },
  });

  await signInWithEmail(client, credentials.find((c) => c.type === "EMAIL_OTP")!.id);
  const passkey = await addPasskey(client, {
    accountId,
    nickname: "Life phone",
    challenge: registrationChallenge(),
    rp: { id: "localhost", name: "Life" },
    user: passkeyUser("life"),
  });
  const passkeySession = await signInWithPasskey(client, { credentialId: passkey.id });
  const refreshed = await refreshSession(client, { accountId, sessionId: passkeySession.id });
  expect(refreshed.credentialId).toBe(passkey.id);
  const mnemonic = await exportWallet(client, { accountId });
  expect(mnemonic.split(" ")).toHaveLength(12);

  await platform("POST", `/sandbox/internal-accounts/${accountId}/fund`, { amount: 2_000_000 });
  const external = await platform<{ id: string }>("POST", "/customers/external-accounts", {
    customerId: customer.id,
    currency: "USD",
    accountInfo: {
      accountType: "USD_ACCOUNT",
      accountNumber: "000123456789",
      routingNumber: "021000021",
      bankAccountType: "CHECKING",
      beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Life Cycle" },
    },
  });
  const created = await platform<{ id: string }>("POST", "/quotes", {
    source: { sourceType: "ACCOUNT", accountId },
    destination: { destinationType: "ACCOUNT", accountId: external.id },
    lockedCurrencySide: "SENDING",
    lockedCurrencyAmount: 1_500_000,
  });
  const executed = await executeQuote(client, {
    quote: await getQuote(client, { quoteId: created.id }),
  });
  const transaction = await waitForTransaction(client, {
    transactionId: executed.transactionId!,
    backoff: { baseMs: 50, maxMs: 100 },
  });
  expect(transaction.status).toBe("COMPLETED");
  const { data: after } = await platform<{ data: Array<{ balance: { amount: number } }> }>(
    "GET",
    `/customers/internal-accounts?customerId=${customer.id}`,
  );
  expect(after[0]!.balance.amount).toBe(500_000);
});
