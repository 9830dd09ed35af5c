// A whole wallet lifecycle straight against the emulator over HTTP (no relay): the emulator's
// checks meet a client it did not write (@signet/core's stamps, HPKE and WebAuthn handling).
import {
  addPasskey,
  executeQuote,
  exportWallet,
  getQuote,
  listInternalAccounts,
  refreshSession,
  signInWithPasskey,
  waitForTransaction,
} from "@signet/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 100, seed: "lifecycle" });
});
afterAll(() => stack?.close());

it("sign up → OTP sign-in → add passkey → passkey sign-in → refresh → export → execute a quote → settle", async () => {
  const user = await stack.signUp("life@example.com");
  const { accountId } = user;
  const { client } = stack.directClient();

  await signInWithEmail(client, user.emailCredentialId);
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

  const { quoteId } = await stack.walletQuote(user, 1_500_000);
  const executed = await executeQuote(client, { quote: await getQuote(client, { quoteId }) });
  const transaction = await waitForTransaction(client, {
    transactionId: executed.transactionId!,
    pollingInterval: 50,
  });
  expect(transaction.status).toBe("COMPLETED");
  const [wallet] = await listInternalAccounts(client, { customerId: user.customerId });
  expect(wallet?.balance?.amount).toBe(3_500_000);
});
