// The demo server's own endpoints (/api/demo/): the app's login, funding, quotes and passkey
// challenges, standing in for what an integrator's backend does. Its sign-in is a cookie, which
// React Native's networking keeps like a browser does.
import type { CurrencyJson, QuoteJson } from "@signet/core";
import { config } from "./config";

// The platform as Expo's Babel preset inlines it (`ios`, `android`): no React Native import, so
// this module still runs in Hermes on its own (packages/core/test/hermes-mobile.test.ts).
const PLATFORM = (typeof process === "undefined" ? undefined : process.env.EXPO_OS) ?? "unknown";

export type DemoConfig = {
  mode: "emulator" | "sandbox";
  /** A random id per start of the demo server: another one means it restarted. */
  instanceId?: string;
  rpId: string;
  otpHint: string;
  trustedKeys?: { otpTargetBundle: string[]; exportBundle: string[] };
  allowUnsignedBundles: boolean;
  regions: string[];
};

export type DemoCredential = { id: string; type: string; nickname?: string };

export type DemoProfile = {
  email: string;
  /** The customer's phone on file (SMS codes go to it), when there is one. */
  phoneNumber?: string;
  customerId: string;
  accountId: string;
  region: string;
  sca: boolean;
  credentials: DemoCredential[];
};

/** A demo endpoint's refusal, with the server's message (written for the user). */
export class DemoApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${config.server}/api/demo/${path}`, {
      method,
      credentials: "include",
      headers: {
        // The demo server names this device's sessions by it ("Signet Wallet on iOS").
        "user-agent": `SignetWallet/0.1 (${PLATFORM})`,
        ...(method === "POST" ? { "content-type": "application/json" } : {}),
      },
      ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {}),
    });
  } catch {
    throw new DemoApiError(
      0,
      "NETWORK",
      `The demo server at ${config.server} did not answer. Is it running with HOST=0.0.0.0, and is this the computer's address?`,
    );
  }
  const data = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  if (!response.ok)
    throw new DemoApiError(
      response.status,
      data.code ?? "ERROR",
      data.message ?? `The demo server answered ${response.status}.`,
    );
  return data as T;
}

/** What someone needs to pay into the wallet. */
export type DemoReceive = {
  accountId: string;
  customerId: string;
  holder: string;
  currency?: CurrencyJson;
  instructions?: Array<{ accountOrWalletInfo?: Record<string, unknown> }>;
};

export const demoApi = {
  config: () => call<DemoConfig>("GET", "config"),
  me: () =>
    call<DemoProfile | { signedIn: false }>("GET", "me").then((p) =>
      "signedIn" in p && p.signedIn === false ? null : (p as DemoProfile),
    ),
  signIn: (email: string, region: string) => call<DemoProfile>("POST", "signin", { email, region }),
  signOut: () => call<object>("POST", "signout"),
  /** Test funds; with `sessionId` the server first checks this device's session still stands. */
  fund: (amount: number, sessionId?: string) =>
    call<{ funded: number }>("POST", "fund", { amount, ...(sessionId ? { sessionId } : {}) }),
  quote: (amount: number, sessionId?: string) =>
    call<QuoteJson>("POST", "quote", { amount, ...(sessionId ? { sessionId } : {}) }),
  receive: () => call<DemoReceive>("GET", "receive"),
  registerDevice: (sessionId: string) => call<{ name: string }>("POST", "devices", { sessionId }),
  devices: () => call<{ devices: Record<string, string> }>("GET", "devices").then((r) => r.devices),
  contactStart: (contact: { email: string } | { phoneNumber: string }) =>
    call<{ sentTo: string }>("POST", "contact/start", contact),
  contactVerify: (code: string) =>
    call<{ kind: "email" | "phoneNumber"; value: string }>("POST", "contact/verify", { code }),
  oidcToken: (nonce?: string) =>
    call<{ idToken: string }>("POST", "oidc-token", nonce ? { nonce } : {}),
  passkeyChallenge: () =>
    call<{
      challenge: string;
      rp: { id: string; name: string };
      user: { id: string; name: string; displayName: string };
    }>("POST", "passkey-challenge"),
};
