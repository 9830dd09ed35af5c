// The demo's own login: the configuration a page needs, sign-in by email (finds or creates the
// customer and wallet), who is signed in, and sign-out.
import { randomBytes } from "node:crypto";
import {
  clientAddress,
  contactOf,
  cookieFlags,
  type DemoContext,
  type DemoRoute,
  EMAIL,
  ok,
  REGIONS,
  type RouteInput,
  tooMany,
} from "../context.js";
import { sessionCookie } from "../cookie.js";
import { DemoError, readJson } from "../http.js";
import type { DemoUser } from "../sessions.js";

let phones = 0;
/** A sandbox mobile number no other demo customer has (the service refuses a taken one). */
function sandboxPhone(): string {
  phones = (phones + 1) % 100_000;
  return `+4915${String(Date.now() % 1_000_000).padStart(6, "0")}${String(phones).padStart(5, "0")}`;
}

/** The signed-in user as the page shows them: the email and phone as the service has them now. */
export async function profileOf(ctx: DemoContext, user: DemoUser) {
  const [contact, credentials] = await Promise.all([
    contactOf(ctx, user.customerId),
    ctx.platform<{ data: Array<{ id: string; type: string; nickname?: string }> }>(
      "GET",
      `/auth/credentials?accountId=${encodeURIComponent(user.accountId)}`,
    ),
  ]);
  // A verified email change at the service moves the sign-in to the new address.
  ctx.directory.follow(user.customerId, contact.email);
  return {
    signedIn: true as const,
    email: contact.email ?? "",
    ...(contact.phoneNumber ? { phoneNumber: contact.phoneNumber } : {}),
    customerId: user.customerId,
    accountId: user.accountId,
    region: user.region,
    sca: user.region !== "US",
    credentials: credentials.data.map(({ id, type, nickname }) => ({
      id,
      type,
      ...(nickname ? { nickname } : {}),
    })),
  };
}

/** The customer an email signs in to: known, proved by a contact change, or new. */
async function findOrCreate(ctx: DemoContext, email: string, region: unknown): Promise<DemoUser> {
  const known = ctx.directory.find(email);
  if (known) return known;
  // A new address this customer proved by a code and then signed at the service is theirs now.
  const provedBy = ctx.directory.expected(email);
  if (provedBy !== undefined) {
    const user = ctx.directory.get(provedBy);
    const current = user ? (await contactOf(ctx, user.customerId)).email : undefined;
    if (user && current?.toLowerCase() === email) {
      ctx.directory.follow(user.customerId, current);
      return user;
    }
  }
  const picked = typeof region === "string" ? region : "US";
  if (!(REGIONS as readonly string[]).includes(picked))
    throw new DemoError(400, "INVALID_REGION", `Pick one of ${REGIONS.join(", ")}.`);
  const customer = await ctx.platform<{ id: string }>("POST", "/customers", {
    customerType: "INDIVIDUAL",
    email,
    fullName: email.split("@")[0],
    // The customer's region decides whether payments need SCA (EU/EEA), and an SCA customer
    // has a verified phone: the SCA login's SMS goes to it (a sandbox number, code 123456).
    region: picked,
    ...(picked !== "US" ? { phoneNumber: sandboxPhone() } : {}),
  });
  const accounts = await ctx.platform<{ data: Array<{ id: string }> }>(
    "GET",
    `/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}&type=EMBEDDED_WALLET`,
  );
  const accountId = accounts.data[0]?.id;
  if (!accountId)
    throw new DemoError(502, "NO_WALLET", "The service made no wallet for this customer.");
  const user: DemoUser = { customerId: customer.id, accountId, region: picked };
  ctx.directory.add(email, user);
  return user;
}

async function signIn({ request, ctx, sessionId }: RouteInput) {
  // Every attempt counts against the client's address, before anything else is read.
  const ipWait = ctx.limits.perIp?.hit(clientAddress(ctx, request)) ?? 0;
  if (ipWait > 0) throw tooMany(ipWait);
  const body = await readJson(request);
  const email = typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
  if (email.length > 254)
    throw new DemoError(
      400,
      "INVALID_EMAIL",
      `That email is ${email.length} characters long; an email address has at most 254. Check it and try again.`,
    );
  if (!EMAIL.test(email))
    throw new DemoError(400, "INVALID_EMAIL", "Enter an email address like ada@example.com.");
  const emailWait = ctx.limits.perEmail?.hit(email) ?? 0;
  if (emailWait > 0) throw tooMany(emailWait);
  const user = await findOrCreate(ctx, email, body.region);
  const profile = await profileOf(ctx, user);
  // Always a new id (the one the browser brought, if any, ends): no session fixation.
  ctx.sessions.delete(sessionId);
  return ok(profile, {
    "set-cookie": sessionCookie(ctx.sessions.create(user), cookieFlags(ctx, request)),
  });
}

export const accountRoutes: Record<string, DemoRoute> = {
  "GET /api/demo/config": {
    signedIn: false,
    handle: async ({ ctx }) =>
      ok({
        mode: ctx.mode,
        instanceId: ctx.instanceId,
        startedAt: ctx.startedAt,
        rpId: "localhost",
        otpHint: "000000",
        trustedKeys: ctx.trustedKeys
          ? {
              otpTargetBundle: [ctx.trustedKeys.attestationPublicKey],
              exportBundle: [ctx.trustedKeys.signerPublicKey],
            }
          : undefined,
        allowUnsignedBundles: ctx.mode === "sandbox",
        regions: REGIONS,
        contactChanges: ctx.contactChanges,
        push: ctx.push,
        ...(ctx.frameUrl ? { frameUrl: ctx.frameUrl } : {}),
      }),
  },
  "POST /api/demo/signin": { signedIn: false, handle: signIn },
  "POST /api/demo/signout": {
    signedIn: false,
    handle: async ({ request, ctx, sessionId }) => {
      // The record goes: a copy of the cookie taken before is refused from now on.
      ctx.sessions.delete(sessionId);
      return ok({}, { "set-cookie": sessionCookie(null, cookieFlags(ctx, request)) });
    },
  },
  "GET /api/demo/me": {
    signedIn: false,
    handle: async ({ ctx, sessionId }) => {
      const user = ctx.sessions.get(sessionId);
      // A first visit is not an error: the page asks who is signed in, and the answer is nobody.
      return ok(user ? await profileOf(ctx, user) : { signedIn: false });
    },
  },
};

/** A random id for a server start. */
export const newInstanceId = () => randomBytes(12).toString("base64url");
