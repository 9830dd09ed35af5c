// Signet from end to end on one machine: the emulator stands in for the service, a relay stands
// in for your backend, and @signet/core is the device. `npm test` runs this file as it is, so it
// cannot fall behind the packages. Run it yourself after `pnpm build`:
//
//   node --import tsx examples/quickstart.ts
//
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createClient,
  executeQuote,
  exportWallet,
  getQuote,
  listCredentials,
  listInternalAccounts,
  requestOtp,
  signOut,
  verifyOtp,
  waitForTransaction,
} from "@signet/core";
import { startEmulatorServer } from "@signet/emulator";
import { createRelay, toNodeHandler } from "@signet/relay";

const step = (text: string) => console.log(`• ${text}`);

// 1. The service: the emulator on 127.0.0.1, platform credentials emulator / emulator.
const emulator = await startEmulatorServer({ port: 0, settlementDelayMs: 500 });
const platformAuth = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;
async function platform<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { authorization: platformAuth, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

// 2. Your backend creates the customer (a sandbox individual gets an Embedded Wallet at once).
const customer = await platform<{ id: string }>("POST", "/customers", {
  customerType: "INDIVIDUAL",
  email: "ada@example.com",
  fullName: "Ada Lovelace",
});
step(`customer ${customer.id}`);

// 3. Your backend mounts the relay. `resolveUser` names the signed-in user from your own session
//    (a cookie, a bearer token); here a header stands in for it.
const relay = createRelay({
  baseUrl: emulator.url,
  tokenId: "emulator",
  clientSecret: "emulator",
  resolveUser: (request) =>
    request.headers.get("x-demo-user") === "ada" ? { customerId: customer.id } : null,
});
const server = createServer(toNodeHandler(relay));
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const relayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/grid`;

// 4. The device: a client that trusts the emulator's bundle-signing keys (GET /_emulator/keys;
//    against the real service the pinned production keys are the default).
const keys = (await (await fetch(`${emulator.url}/_emulator/keys`)).json()) as {
  attestationPublicKey: string;
  signerPublicKey: string;
};
const client = createClient({
  relayUrl, // in a browser, a path such as "/api/grid" is enough
  headers: { "x-demo-user": "ada" },
  trustedKeys: {
    otpTargetBundle: [keys.attestationPublicKey],
    exportBundle: [keys.signerPublicKey],
  },
});

// 5. The device learns its ids through the relay: the wallet, then its credentials (both work
//    before sign-in; the relay fills in the customer).
const [wallet] = await listInternalAccounts(client);
if (!wallet) throw new Error("no Embedded Wallet");
const credentials = await listCredentials(client, { accountId: wallet.id });
const email = credentials.find((c) => c.type === "EMAIL_OTP");
if (!email) throw new Error("no EMAIL_OTP credential");
step(`wallet ${wallet.id}, email credential ${email.id}`);

// 6. Email OTP sign-in: the code is sealed to the enclave; the one-time key becomes the session key.
const otp = await requestOtp(client, { credentialId: email.id });
const session = await verifyOtp(client, { ...otp, otpCode: "000000" }); // the sandbox code
step(`signed in: ${session.id}, until ${session.expiresAt}`);

// 7. Export the wallet's recovery phrase (show it only behind a confirmation; never log it).
const mnemonic = await exportWallet(client, { accountId: wallet.id });
step(`exported a ${mnemonic.split(" ").length}-word recovery phrase`);

// 8. Your backend funds the wallet (sandbox), adds a bank account and creates a quote from it.
await platform("POST", `/sandbox/internal-accounts/${wallet.id}/fund`, { amount: 5_000_000 }); // 5 USDB
const bank = await platform<{ id: string }>("POST", "/customers/external-accounts", {
  customerId: customer.id,
  currency: "USD",
  accountInfo: {
    accountType: "USD_ACCOUNT",
    accountNumber: "000123456789",
    routingNumber: "021000021",
    bankAccountType: "CHECKING",
    beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Ada Lovelace" },
  },
});
const created = await platform<{ id: string }>("POST", "/quotes", {
  source: { sourceType: "ACCOUNT", accountId: wallet.id },
  destination: { destinationType: "ACCOUNT", accountId: bank.id },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: 1_000_000, // 1 USDB (6 decimals)
});

// 9. The device reads the quote, signs its payload and executes it, then follows settlement.
const quote = await getQuote(client, { quoteId: created.id });
const executed = await executeQuote(client, { quote });
step(`executed ${quote.id}: ${executed.status}`);
const transaction = await waitForTransaction(client, { transactionId: executed.transactionId! });
step(`transaction ${transaction.id}: ${transaction.status}`);

// 10. Sign out: the session ends at the service and its key leaves the device.
await signOut(client, { accountId: wallet.id });
step("signed out");

server.close();
server.closeAllConnections();
await emulator.close();
