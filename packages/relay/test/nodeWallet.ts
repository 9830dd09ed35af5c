// Test-only helpers shared by the relay's emulator-backed suites: P-256 keys and stamps made with
// node:crypto alone (independent of @signet/core), the app-session cookie the tests' resolveUser
// reads, the relay's options in front of the emulator, and a customer signed in through a relay.
import { createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { sealOtpBundle } from "@signet/core";
import { expect } from "vitest";
import type { CreateRelayOptions } from "../src/createRelay.js";

export type Json = Record<string, unknown>;

/** A P-256 key made and used with node:crypto only. */
export interface TestKey {
  privateKey: KeyObject;
  compressed: string;
  uncompressed: string;
}

export function newKey(): TestKey {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  const prefix = (y[31]! & 1) === 1 ? "03" : "02";
  return {
    privateKey,
    compressed: prefix + x.toString("hex"),
    uncompressed: `04${x.toString("hex")}${y.toString("hex")}`,
  };
}

/** The Grid-Wallet-Signature value: ECDSA P-256 SHA-256, DER, over the payload's UTF-8 bytes. */
export function stamp(payload: string, key: TestKey): string {
  const signature = sign("sha256", Buffer.from(payload, "utf8"), {
    key: key.privateKey,
    dsaEncoding: "der",
  }).toString("hex");
  const json = `{"publicKey":"${key.compressed}","scheme":"SIGNATURE_SCHEME_TK_API_P256","signature":"${signature}"}`;
  return Buffer.from(json, "utf8").toString("base64url");
}

export interface Wallet {
  customerId: string;
  wallet: string;
  credential: string;
  session: string;
  sessionKey: TestKey;
}

export const as = (w: { customerId: string }, headers: Record<string, string> = {}) => ({
  Cookie: `user=${encodeURIComponent(w.customerId)}`,
  ...headers,
});

/** {@link as} for a call that changes state: the relay wants the JSON type on every one. */
export const json = (w: { customerId: string }, headers: Record<string, string> = {}) =>
  as(w, { "Content-Type": "application/json", ...headers });

/** The app's `resolveUser` in these suites: the customer named by the `user` cookie ({@link as}). */
export const userFromCookie = (request: Request) => {
  const user = /(?:^|; )user=([^;]+)/.exec(request.headers.get("Cookie") ?? "")?.[1];
  return user ? { customerId: decodeURIComponent(user) } : null;
};

/** A relay's options in front of the emulator at `emulatorUrl`, `options` over them. */
export function emulatorRelayOptions(
  emulatorUrl: string,
  options: Partial<CreateRelayOptions> = {},
): CreateRelayOptions {
  return {
    baseUrl: emulatorUrl,
    tokenId: "emulator",
    clientSecret: "emulator",
    resolveUser: userFromCookie,
    ...options,
  };
}

/** The emulator's platform credentials (`emulator:emulator`), as Basic auth. */
export const BASIC = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;

/** A direct platform call to the emulator (what the app's backend does outside the relay). */
export async function platform(
  emulatorUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Json> {
  const response = await fetch(`${emulatorUrl}${path}`, {
    method,
    headers: { Authorization: BASIC, "Content-Type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === "" ? {} : (JSON.parse(text) as Json);
}

/** Relays leg 1 of a signed request, then the same body bytes stamped; returns both answers. */
export async function signedRetry(
  api: string,
  user: { customerId: string },
  method: string,
  path: string,
  body: string | undefined,
  key: TestKey,
): Promise<{ challenge: Json; final: Response; resend: () => Promise<Response> }> {
  const headers = body === undefined ? as(user) : json(user);
  const first = await fetch(`${api}${path}`, { method, headers, ...(body ? { body } : {}) });
  if (first.status !== 202) throw new Error(`leg 1: ${first.status} ${await first.text()}`);
  const challenge = (await first.json()) as Json;
  const resend = () =>
    fetch(`${api}${path}`, {
      method,
      headers: {
        ...headers,
        "Content-Type": "application/json",
        "Grid-Wallet-Signature": stamp(challenge.payloadToSign as string, key),
        "Request-Id": challenge.requestId as string,
      },
      ...(body !== undefined ? { body } : {}),
    });
  return { challenge, final: await resend(), resend };
}

/** Creates a customer and signs them in by email OTP, every wallet call through the relay. */
export async function signUp(
  api: string,
  emulatorUrl: string,
  attestationKey: string,
  email: string,
): Promise<Wallet> {
  const customer = await platform(emulatorUrl, "POST", "/customers", {
    customerType: "INDIVIDUAL",
    email,
  });
  const user = { customerId: customer.id as string };
  const accounts = (await (
    await fetch(`${api}/customers/internal-accounts?type=EMBEDDED_WALLET`, { headers: as(user) })
  ).json()) as { data: Json[] };
  const wallet = accounts.data[0]!.id as string;
  const credentials = (await (
    await fetch(`${api}/auth/credentials?accountId=${wallet}`, { headers: as(user) })
  ).json()) as { data: Json[] };
  const credential = credentials.data.find((c) => c.type === "EMAIL_OTP")!.id as string;
  const challenged = await fetch(`${api}/auth/credentials/${credential}/challenge`, {
    method: "POST",
    headers: json(user),
  });
  expect(challenged.status).toBe(200);
  const { otpEncryptionTargetBundle } = (await challenged.json()) as Json;
  const tek = newKey();
  const encryptedOtpBundle = await sealOtpBundle({
    targetBundle: otpEncryptionTargetBundle as string,
    otpCode: "000000",
    publicKey: tek.uncompressed,
    trustedKeys: [attestationKey],
  });
  const body = JSON.stringify({ type: "EMAIL_OTP", encryptedOtpBundle });
  const { final } = await signedRetry(
    api,
    user,
    "POST",
    `/auth/credentials/${credential}/verify`,
    body,
    tek,
  );
  expect(final.status).toBe(200);
  const session = (await final.json()) as Json;
  return {
    customerId: user.customerId,
    wallet,
    credential,
    session: session.id as string,
    sessionKey: tek,
  };
}
