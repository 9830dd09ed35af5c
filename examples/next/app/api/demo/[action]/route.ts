// The demo's own backend (Node runtime): a sandbox-only login by email that creates the
// service's customer on first use, and the calls only a backend may make (funding a sandbox
// wallet, creating a quote, issuing a passkey registration challenge).
import { randomBytes } from "node:crypto";
import { serverEnv } from "../../../../lib/server/env";
import { DemoError, platform } from "../../../../lib/server/platform";
import {
  type DemoUser,
  openSession,
  readCookie,
  sealSession,
  sessionCookie,
} from "../../../../lib/server/session";

/** The regions a demo customer can pick: the US, or an EU country (payments need SCA there). */
const REGIONS = ["US", "DE", "FR"];
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[a-z]{2,24}$/i;

// email → customer, to find a returning user (a real app keeps this in its database). On
// globalThis so that `next dev`'s module reloads keep it.
const store = globalThis as { signetDemoCustomers?: Map<string, DemoUser> };
store.signetDemoCustomers ??= new Map();
const customers = store.signetDemoCustomers;

async function readJson(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.length > 16_384) throw new DemoError(413, "TOO_LARGE", "The request body is too large.");
  if (text === "") return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {}
  throw new DemoError(400, "INVALID_JSON", "Send a JSON object.");
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "cache-control": "no-store", ...headers } });

async function signIn(env: ReturnType<typeof serverEnv>, request: Request): Promise<DemoUser> {
  const body = await readJson(request);
  const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
  if (email.length > 254 || !EMAIL.test(email))
    throw new DemoError(400, "INVALID_EMAIL", "Enter an email address like ada@example.com.");
  const known = customers.get(email);
  if (known) return known;
  const region = typeof body.region === "string" ? body.region : "US";
  if (!REGIONS.includes(region))
    throw new DemoError(400, "INVALID_REGION", `Pick one of ${REGIONS.join(", ")}.`);
  // An EU customer confirms payments (SCA) by SMS code: the service needs their mobile number.
  const phoneNumber =
    typeof body.phoneNumber === "string" ? body.phoneNumber.replace(/[\s().-]/g, "") : "";
  if (region !== "US" && !/^\+[1-9][0-9]{6,14}$/.test(phoneNumber))
    throw new DemoError(
      400,
      "INVALID_PHONE",
      "An EU customer needs a mobile number with its country code, like +4915112345678.",
    );
  // The customer. `region` decides whether payments need SCA: an EU/EEA country (DE, FR…) does,
  // and then `phoneNumber` gives the customer the SMS_OTP factor the SCA login and steps use.
  const customer = await platform<{ id: string }>(env, "POST", "/customers", {
    customerType: "INDIVIDUAL",
    email,
    fullName: email.split("@")[0],
    region,
    ...(region !== "US" ? { phoneNumber } : {}),
  });
  // The service makes the customer's Embedded Wallet with it.
  const accounts = await platform<{ data: Array<{ id: string }> }>(
    env,
    "GET",
    `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=EMBEDDED_WALLET`,
  );
  const accountId = accounts.data[0]?.id;
  if (!accountId) throw new DemoError(502, "NO_WALLET", "The service made no wallet.");
  const user: DemoUser = { email, customerId: customer.id, accountId, region };
  customers.set(email, user);
  return user;
}

async function handle(request: Request, action: string): Promise<Response> {
  // State-changing calls must come from the page itself (no cross-site form posts).
  if (request.headers.get("content-type") !== "application/json")
    throw new DemoError(415, "JSON_ONLY", "Send the request as application/json.");
  const env = serverEnv();
  const secure = new URL(request.url).protocol === "https:";
  if (action === "signin") {
    const user = await signIn(env, request);
    const cookie = sessionCookie(await sealSession(user, env.sessionSecret), secure);
    return json(200, { signedIn: true }, { "set-cookie": cookie });
  }
  if (action === "signout") return json(200, {}, { "set-cookie": sessionCookie(null, secure) });
  const user = await openSession(readCookie(request.headers.get("cookie")), env.sessionSecret);
  if (!user) throw new DemoError(401, "SIGNED_OUT", "Sign in to the demo first.");
  switch (action) {
    case "fund": {
      const { amount } = await readJson(request);
      if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || (amount as number) > 1e12)
        throw new DemoError(400, "INVALID_AMOUNT", "Fund a positive whole amount.");
      await platform(env, "POST", `/sandbox/internal-accounts/${user.accountId}/fund`, { amount });
      return json(200, { funded: amount });
    }
    case "quote": {
      const { amount } = await readJson(request);
      if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || (amount as number) > 1e12)
        throw new DemoError(400, "INVALID_AMOUNT", "Enter an amount above zero.");
      const external = await platform<{ id: string }>(env, "POST", "/customers/external-accounts", {
        customerId: user.customerId,
        currency: "USD",
        accountInfo: {
          accountType: "USD_ACCOUNT",
          accountNumber: "000123456789",
          routingNumber: "021000021",
          bankAccountType: "CHECKING",
          beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Demo Payee" },
        },
      });
      const quote = await platform<unknown>(env, "POST", "/quotes", {
        source: { sourceType: "ACCOUNT", accountId: user.accountId },
        destination: { destinationType: "ACCOUNT", accountId: external.id },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: amount,
      });
      return json(200, quote);
    }
    case "passkey-challenge": {
      // A passkey registration: the backend picks the challenge (random, single use), the
      // relying party (`rp.id` is the site's domain: `localhost` here, never an IP address) and
      // the WebAuthn user (a stable opaque id of this customer, and the names the authenticator
      // shows).
      return json(200, {
        challenge: randomBytes(32).toString("base64url"),
        rp: { id: new URL(request.url).hostname, name: "Signet Next.js example" },
        user: {
          id: Buffer.from(user.customerId).toString("base64url"),
          name: user.email,
          displayName: user.email,
        },
      });
    }
  }
  throw new DemoError(404, "NOT_FOUND", "No such demo endpoint.");
}

export async function POST(
  request: Request,
  { params }: { params: Promise<{ action: string }> },
): Promise<Response> {
  try {
    return await handle(request, (await params).action);
  } catch (error) {
    if (error instanceof DemoError)
      return json(error.status, { code: error.code, message: error.message });
    // No detail: the message of an unexpected error could carry what the user typed.
    console.error("demo endpoint failed:", error instanceof Error ? error.name : "unknown");
    return json(500, { code: "INTERNAL", message: "The demo backend failed." });
  }
}
