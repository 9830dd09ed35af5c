// No OTP code, mnemonic, stamp, private key or platform credential appears in any event (core or
// relay), any error, or the emulator's request log, across the flows that handle them.
import {
  executeQuote,
  exportWallet,
  getQuote,
  requestOtp,
  SignetError,
  verifyOtp,
} from "@signet/core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Stack, startStack } from "./support/stack.js";

const OTP = "731946";
let stack: Stack;
const relayEvents: unknown[] = [];
beforeAll(async () => {
  stack = await startStack({ otpCode: OTP, onRelayEvent: (event) => relayEvents.push(event) });
});
afterAll(() => stack?.close());

it("keeps every secret out of events, errors and logs", async () => {
  const user = await stack.signUp();
  const { quoteId } = await stack.walletQuote(user);
  const stamps: string[] = [];
  const { client, events } = stack.client(user.customerId, {
    fetch: async (input, init) => {
      const signature = new Headers(init.headers).get("Grid-Wallet-Signature");
      if (signature) stamps.push(signature);
      return fetch(input, init);
    },
  });
  const errors: unknown[] = [];

  // A wrong code first (an error path), then the right one.
  const otp = await requestOtp(client, { credentialId: user.emailCredentialId });
  errors.push(await verifyOtp(client, { ...otp, otpCode: "111111" }).catch((e) => e));
  const again = await requestOtp(client, { credentialId: user.emailCredentialId });
  await verifyOtp(client, { ...again, otpCode: OTP });
  const mnemonic = await exportWallet(client, { accountId: user.accountId });
  const quote = await getQuote(client, { quoteId });
  await executeQuote(client, { quote });
  errors.push(await executeQuote(client, { quote }).catch((e) => e)); // 409, already executed
  errors.push(
    await exportWallet(client, { accountId: "InternalAccount:not-a-uuid" }).catch((e) => e),
  );

  expect(stamps.length).toBeGreaterThanOrEqual(3);
  expect(events.length).toBeGreaterThan(10);
  expect(relayEvents.length).toBeGreaterThan(5);
  expect((errors[0] as SignetError).status).toBe(401);
  expect((errors[1] as SignetError).status).toBe(409);
  expect(errors.every((e) => e instanceof SignetError)).toBe(true);
  const log = await stack.requests();
  const text = JSON.stringify({
    events,
    relayEvents,
    log,
    errors: errors.map((e) => {
      const error = e as SignetError;
      return {
        json: error.toJSON(),
        message: error.message,
        stack: error.stack,
        cause: String(error.cause),
      };
    }),
  });
  const secrets = [
    OTP,
    "111111",
    mnemonic,
    // Any two words in a row, space- or array-joined: a lone word can be an ordinary JSON key
    // ("action", "session" are BIP-39 words), so single words would flag events by chance.
    ...mnemonic
      .split(" ")
      .slice(1)
      .flatMap((word, i) => {
        const previous = mnemonic.split(" ")[i]!;
        return [`${previous} ${word}`, `"${previous}","${word}"`];
      }),
    ...stamps,
    ...stamps.map((stamp) => Buffer.from(stamp, "base64url").toString("utf8").slice(60, 120)),
    Buffer.from("emulator:emulator").toString("base64"),
    "clientSecret",
  ];
  for (const secret of secrets)
    expect(text, `leaked: ${secret.slice(0, 12)}…`).not.toContain(secret);
});
