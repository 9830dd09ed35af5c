// The demo's own endpoints (/api/demo/): the app's login, funding, quotes, passkey challenges and
// sandbox OIDC tokens. These stand in for what an integrator's backend does.
import type { CurrencyJson, QuoteJson } from "@signet/core";
import type { DemoErrorCode } from "./advice.js";
import { logLine } from "./log.js";
import { raise } from "./signals.js";

export type DemoConfig = {
  mode: "emulator" | "sandbox";
  /** A random id per start of the demo server: another one means it restarted. */
  instanceId: string;
  startedAt: string;
  rpId: string;
  otpHint: string;
  trustedKeys?: { otpTargetBundle: string[]; exportBundle: string[] };
  allowUnsignedBundles: boolean;
  regions: string[];
  /** How the client changes a contact (`createClient`'s `contactChanges`). */
  contactChanges: "patch" | "resource";
  /** Whether the relay pushes wallet-operation webhooks to the tab (`createClient`'s `push`). */
  push?: boolean;
  /**
   * The signer frame's page, when the demo runs with it (`DEMO_FRAME=1`): the client's keys live
   * in that origin (`frameSigner`), its confirmations and the recovery phrase show in it.
   */
  frameUrl?: string;
};

export type DemoCredential = { id: string; type: string; nickname?: string };

export type DemoProfile = {
  signedIn?: true;
  email: string;
  /** The customer's phone on file (SMS codes go to it), when there is one. */
  phoneNumber?: string;
  customerId: string;
  accountId: string;
  region: string;
  sca: boolean;
  credentials: DemoCredential[];
};

/** A payment or deposit of the customer's, as `GET /api/demo/activity` lists it. */
export type DemoActivity = {
  id: string;
  status: string;
  direction: "DEBIT" | "CREDIT" | (string & {});
  quoteId?: string;
  sentAmount?: { amount: number; currency: CurrencyJson };
  receivedAmount?: { amount: number; currency: CurrencyJson };
  createdAt: string;
  settledAt?: string;
};

/** What someone needs to pay into the wallet. */
export type DemoReceive = {
  accountId: string;
  customerId: string;
  holder: string;
  currency?: CurrencyJson;
  instructions?: Array<{
    instructionsNotes?: string;
    accountOrWalletInfo?: Record<string, unknown>;
  }>;
};

/** A demo endpoint's refusal, with the server's message (written for the user). */
export class DemoApiError extends Error {
  override readonly name = "DemoApiError";
  constructor(
    readonly status: number,
    readonly code: DemoErrorCode | (string & {}),
    message: string,
  ) {
    super(message);
  }
}

/**
 * Something the demo itself refuses before any request (an amount that is not one, a step-up not
 * done): a stable code with advice in ./advice.ts, and a message written for the user.
 */
export class DemoInputError extends Error {
  override readonly name = "DemoInputError";
  constructor(
    readonly code: DemoErrorCode,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(`/api/demo/${path}`, {
      method,
      credentials: "same-origin",
      headers: method === "POST" ? { "content-type": "application/json" } : {},
      ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {}),
    });
  } catch {
    logLine(`${method} /api/demo/${path} → no answer`, "error");
    throw new DemoApiError(
      0,
      "NETWORK",
      "The demo server did not answer. Is `npm run demo` still running?",
    );
  }
  const ms = Math.round(performance.now() - started);
  logLine(
    `${method} /api/demo/${path} → ${response.status} · ${ms} ms`,
    response.ok ? "ok" : "error",
  );
  const data = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  if (!response.ok) {
    // The shell answers these wherever they happen: back to the demo's sign-in, or to unlock.
    if (response.status === 401 && data.code === "SIGNED_OUT") raise("demoSignedOut");
    if (response.status === 401 && data.code === "WALLET_SESSION_ENDED")
      raise("walletSessionEnded");
    throw new DemoApiError(
      response.status,
      data.code ?? "ERROR",
      data.message ?? `The demo server answered ${response.status}.`,
    );
  }
  return data as T;
}

export const demoApi = {
  config: () => call<DemoConfig>("GET", "config"),
  /** The signed-in demo user, or `null` when nobody is (a 200, not an error). */
  me: () =>
    call<DemoProfile | { signedIn: false }>("GET", "me").then((p) =>
      p.signedIn === false ? null : (p as DemoProfile),
    ),
  signIn: (email: string, region: string) => call<DemoProfile>("POST", "signin", { email, region }),
  signOut: () => call<object>("POST", "signout"),
  /** Test funds; `sessionId` (this device's wallet session) is checked first by the server. */
  fund: (amount: number, sessionId?: string) =>
    call<{ funded: number }>("POST", "fund", { amount, ...(sessionId ? { sessionId } : {}) }),
  /** A quote to the demo payee; `scaFactor` is how an EU customer will confirm it. */
  quote: (
    amount: number,
    options: { scaFactor?: "SMS_OTP" | "PASSKEY"; sessionId?: string | undefined } = {},
  ) =>
    call<QuoteJson>("POST", "quote", {
      amount,
      ...(options.scaFactor ? { scaFactor: options.scaFactor } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    }),
  /** Names this device's new wallet session by the browser (the server reads the User-Agent). */
  registerDevice: (sessionId: string) => call<{ name: string }>("POST", "devices", { sessionId }),
  /** Wallet session id → the device it was opened on, for the sessions the server was told of. */
  devices: () => call<{ devices: Record<string, string> }>("GET", "devices").then((r) => r.devices),
  activity: () => call<{ data: DemoActivity[] }>("GET", "activity").then((r) => r.data),
  receive: () => call<DemoReceive>("GET", "receive"),
  /** Sends a code to prove a new contact (the demo sends none: its code is public). */
  contactStart: (contact: { email: string } | { phoneNumber: string }) =>
    call<{ sentTo: string }>("POST", "contact/start", contact),
  contactVerify: (code: string) =>
    call<{ kind: "email" | "phoneNumber"; value: string }>("POST", "contact/verify", { code }),
  passkeyChallenge: () =>
    call<{
      challenge: string;
      rp: { id: string; name: string };
      user: { id: string; name: string; displayName: string };
    }>("POST", "passkey-challenge"),
  oidcToken: (nonce?: string) =>
    call<{ idToken: string }>("POST", "oidc-token", nonce ? { nonce } : {}),
};
