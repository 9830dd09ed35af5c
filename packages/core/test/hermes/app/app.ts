// The app side of the Hermes flow suite, bundled by Metro the way a React Native app is: the
// first import installs the random source, then `@signet/core` (its `react-native` export) and
// its adapter entry points, each resolved through the package's `exports` like an installed
// package. Every client-side step (keys, OTP bundle, stamps, passkey results) runs here; the
// Node driver only carries I/O (see ../flow-prelude.js). Prints `SIGNET_HERMES_RESULT <json>`.
import "react-native-get-random-values";
import {
  addPasskey,
  authorizeQuote,
  createClient,
  createCryptoApi,
  createNobleBackend,
  enrollScaPasskey,
  executeQuote,
  getQuote,
  getSession,
  listSessions,
  type RefreshSessionErrorType,
  refreshSession,
  requestOtp,
  SignetError,
  signInWithPasskey,
  verifyOtp,
} from "@signet/core";
import { createSecureStoreKeyStore } from "@signet/core/expo-secure-store";
import { createKeychainKeyStore } from "@signet/core/react-native-keychain";
import { createPasskeysWebAuthn } from "@signet/core/react-native-passkeys";
import { getRandomBytes } from "expo-crypto";
import { type FlowInput, input } from "./input.js";
import { keychain, secureStore } from "./native/device.js";

declare const print: (line: string) => void;
declare const HermesInternal: unknown;

const touched = (globalThis as unknown as { __SIGNET_TOUCHED__: Record<string, number> })
  .__SIGNET_TOUCHED__;
// Metro's runtime and polyfills ran before this module: count only what the app does.
const baseline = { ...touched };

function client(
  params: FlowInput["params"],
  overrides: Parameters<typeof createClient>[0] | object = {},
) {
  return createClient({
    relayUrl: params.relayUrl,
    // The app's own authentication to its backend (the test relay reads the customer from it).
    headers: { "x-test-customer": params.customerId },
    keyStore: createKeychainKeyStore(),
    webauthn: createPasskeysWebAuthn({ rpId: params.rpId }),
    trustedKeys: params.trustedKeys,
    ...overrides,
  });
}

const brief = (session: { id: string; credentialId?: string; accountId?: string }) => ({
  id: session.id,
  credentialId: session.credentialId,
  accountId: session.accountId,
});

async function run(flow: FlowInput): Promise<unknown> {
  const { params } = flow;
  switch (flow.scenario) {
    case "noRandom": {
      // No react-native-get-random-values: createClient says what is missing, before any request.
      try {
        client(params);
        return { created: true };
      } catch (error) {
        const e = error as SignetError;
        return {
          created: false,
          code: e.code,
          message: e.message,
          isSignetError: e instanceof SignetError,
        };
      }
    }
    case "otp": {
      // A fresh install: sign in with the email OTP; the session key goes to the keychain.
      const app = client(params);
      const otp = await requestOtp(app, { credentialId: params.emailCredentialId });
      const session = await verifyOtp(app, { ...otp, otpCode: "000000" });
      const held = await getSession(app, { accountId: params.accountId });
      return {
        session: brief(session),
        held: held && brief(held),
        persistence: await app.persistence(),
      };
    }
    case "passkey": {
      // After a restart (the OTP session restored from the keychain): add a passkey, then sign
      // in with it on a new key kept in expo-secure-store.
      const app = client(params);
      const restored = await getSession(app, { accountId: params.accountId });
      const passkey = await addPasskey(app, {
        accountId: params.accountId,
        nickname: "Hermes phone",
        ...(params.passkey as NonNullable<FlowInput["params"]["passkey"]>),
      });
      const fresh = client(params, { keyStore: createSecureStoreKeyStore() });
      const session = await signInWithPasskey(fresh, { credentialId: passkey.id });
      return {
        restored: restored && brief(restored),
        passkeyId: passkey.id,
        session: brief(session),
      };
    }
    case "quote": {
      // The passkey session, restored from expo-secure-store, executes a quote; the random
      // source here is expo-crypto's, passed in.
      const app = client(params, {
        keyStore: createSecureStoreKeyStore(),
        crypto: createCryptoApi(createNobleBackend({ randomBytes: getRandomBytes })),
      });
      const quote = await getQuote(app, { quoteId: params.quoteId as string });
      // A passkey for SCA (apart from the wallet's sign-in passkey), asked for on execute.
      const factor = await enrollScaPasskey(app);
      const executed = await executeQuote(app, { quote, scaFactor: "PASSKEY" });
      if (executed.status !== "PENDING_AUTHORIZATION")
        return { quoteId: executed.id, executedStatus: executed.status, status: executed.status };
      // Strong Customer Authentication: each challenge answered as the service asks for it,
      // the SCA login included.
      const challenges: { factor: string; purpose: unknown; step: number; login: boolean }[] = [];
      const released = await authorizeQuote(app, {
        quote: executed,
        onChallenge: (challenge, { step, login }) => {
          challenges.push({
            factor: challenge.factor,
            purpose: challenge.purpose,
            step,
            login: login === true,
          });
          return challenge.factor === "PASSKEY" ? { passkey: true } : { code: "123456" };
        },
      });
      return {
        quoteId: released.id,
        scaFactor: factor.factor,
        executedStatus: executed.status,
        challenges,
        status: released.status,
      };
    }
    case "refreshSwapped": {
      // The backend swaps the new key of a refresh for its own: the device refuses to sign.
      const app = client(params, { keyStore: createSecureStoreKeyStore() });
      const before = await getSession(app, { accountId: params.accountId });
      try {
        await refreshSession(app, { accountId: params.accountId });
        return { refused: false };
      } catch (error) {
        const e = error as RefreshSessionErrorType;
        const after = await getSession(app, { accountId: params.accountId });
        return {
          refused: true,
          code: e.code,
          field: e.code === "PAYLOAD_MISMATCH" ? e.details.field : undefined,
          retryable: e.retryable,
          kept: after?.id === before?.id,
        };
      }
    }
    case "refresh": {
      // The session is refreshed under a new key, and the new session signs a request.
      const app = client(params, { keyStore: createSecureStoreKeyStore() });
      const before = await getSession(app, { accountId: params.accountId });
      const refreshed = await refreshSession(app, { accountId: params.accountId });
      const sessions = await listSessions(app, { accountId: params.accountId });
      return {
        before: before && brief(before),
        refreshed: brief(refreshed),
        listed: sessions.map((s: { id: string }) => s.id),
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

const globals = globalThis as unknown as {
  __SIGNET_CONSOLE__: unknown[];
  __signetHalted(): boolean;
};

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
        keychain: [...keychain.fake.items],
        secureStore: [...secureStore.fake.items],
      })}`,
    );
  },
  (error: unknown) => {
    if (!globals.__signetHalted())
      print(`SIGNET_HERMES_ERROR ${JSON.stringify(describeError(error))}`);
  },
);
