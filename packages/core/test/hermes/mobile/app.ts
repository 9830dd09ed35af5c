// The mobile app's own journeys in Hermes: apps/mobile/src/journeys.ts (what its screens call)
// and apps/mobile/src/signet.ts (its Signet client: expo-secure-store keys, react-native-passkeys,
// react-native-get-random-values), bundled with the app's Metro configuration (./metro.ts) and
// run by the flow harness (../flows.ts) against the web demo's server over real HTTP. This file
// plays only the customer and the React parts: it types what the screens would take, and calls
// the core actions the app's query hooks call (getSession for useSession, listInternalAccounts for
// useInternalAccounts). Prints `SIGNET_HERMES_RESULT <json>`.
import { getSession, listInternalAccounts, type ScaChallengeJson } from "@signet/core";
import {
  fundWallet,
  loadWallet,
  logIn,
  paymentUnits,
  quotePayment,
  scaPrompt,
  sendEmailCode,
  sendPayment,
  settlePayment,
  verifyEmailCode,
  walletCalls,
} from "../../../../../apps/mobile/src/journeys";
import { createWalletClient } from "../../../../../apps/mobile/src/signet";
import { secureStore } from "../app/native/device.js";
import type { MobileInput } from "./input.js";

declare const print: (line: string) => void;
declare const HermesInternal: unknown;

const globals = globalThis as unknown as {
  __SIGNET_HERMES_INPUT__: MobileInput;
  __SIGNET_TOUCHED__: Record<string, number>;
  __SIGNET_CONSOLE__: unknown[];
  __signetHalted(): boolean;
};
const input = globals.__SIGNET_HERMES_INPUT__;
const touched = globals.__SIGNET_TOUCHED__;
// Metro's runtime and polyfills ran before this module: count only what the app does.
const baseline = { ...touched };

const brief = (
  session: { id: string; accountId?: string; expiresAt?: string } | null | undefined,
) => session && { id: session.id, accountId: session.accountId, expiresAt: session.expiresAt };

async function run(flow: MobileInput): Promise<unknown> {
  const { params } = flow;
  switch (flow.scenario) {
    case "signIn": {
      // A fresh install: the app starts signed out, the customer logs in to the demo by email,
      // then gets a wallet session on the phone by email code.
      const start = await loadWallet();
      const profile = await logIn({ email: params.email, region: params.region });
      const client = createWalletClient(start.demo);
      const calls = walletCalls(client, {
        onChallenge: () => {
          throw new Error("no SCA during sign-in");
        },
      });
      const challenge = await sendEmailCode(calls, profile);
      const session = await verifyEmailCode(calls, challenge, params.otpCode);
      const held = await getSession(client, { accountId: profile.accountId });
      return {
        signedInAtStart: start.profile !== null,
        mode: start.demo.mode,
        profile: {
          email: profile.email,
          customerId: profile.customerId,
          accountId: profile.accountId,
          region: profile.region,
          sca: profile.sca,
        },
        session: brief(session),
        held: brief(held),
        persistence: await client.persistence(),
      };
    }
    case "payment": {
      // The app restarted: the demo's cookie and the secure store kept the sign-in. The customer
      // types an amount, gets a quote, signs and sends it, answers each SCA challenge by SMS code,
      // and the screen follows the transfer until it settles.
      const start = await loadWallet();
      const profile = start.profile;
      if (!profile) throw new Error("the demo sign-in did not survive the restart");
      const client = createWalletClient(start.demo);
      const restored = await getSession(client, { accountId: profile.accountId });
      const accounts = await listInternalAccounts(client, { customerId: profile.customerId });
      const currency = accounts[0]?.balance?.currency;
      const units = paymentUnits(params.amount, currency?.decimals);
      // The customer adds test funds first: a quote funds nothing by itself.
      await fundWallet(units);
      const quote = await quotePayment(units);
      const prompts: { factor: string; purpose: string | null; step: number; prompt: string }[] =
        [];
      const calls = walletCalls(client, {
        onChallenge: (challenge: ScaChallengeJson, { step, login }) => {
          prompts.push({
            factor: challenge.factor,
            purpose: challenge.purpose ?? null,
            step,
            prompt: scaPrompt({ challenge, login: login === true }),
          });
          return { code: params.scaCode };
        },
      });
      const sent = await sendPayment(calls, { quote, sca: profile.sca });
      const settled = await settlePayment(client, sent);
      return {
        restored: brief(restored),
        sca: profile.sca,
        currency: currency ? { code: currency.code, decimals: currency.decimals } : null,
        units,
        quote: { id: quote.id, totalSendingAmount: quote.totalSendingAmount },
        prompts,
        sent: { id: sent.id, status: sent.status, transactionId: sent.transactionId },
        settled: { id: settled.id, status: settled.status },
      };
    }
  }
}

function describeError(error: unknown) {
  const e = error as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  return {
    name: String(e?.name),
    message: String(e?.message ?? error),
    code: e?.code === undefined ? null : String(e.code),
    stack: String(e?.stack ?? ""),
  };
}

run(input).then(
  (result) => {
    if (globals.__signetHalted()) return;
    const used: Record<string, number> = {};
    for (const name of Object.keys(touched))
      used[name] = (touched[name] ?? 0) - (baseline[name] ?? 0);
    print(
      `SIGNET_HERMES_RESULT ${JSON.stringify({
        scenario: input.scenario,
        result,
        engine: { hermes: typeof HermesInternal === "object" },
        globalsTouched: used,
        console: globals.__SIGNET_CONSOLE__,
        keychain: [],
        secureStore: [...secureStore.fake.items],
      })}`,
    );
  },
  (error: unknown) => {
    if (!globals.__signetHalted())
      print(`SIGNET_HERMES_ERROR ${JSON.stringify(describeError(error))}`);
  },
);
