// What the wallet's own flows need from the integrator's backend: a passkey registration
// challenge, a sandbox OIDC token, and the names of the devices its sessions are on.
import { randomBytes } from "node:crypto";
import { contactOf, type DemoRoute, ok } from "../context.js";
import { deviceName } from "../device.js";
import { DemoError, readJson } from "../http.js";

/** At most this many session names are kept; the oldest goes first. */
const MAX_DEVICES = 10_000;

// Sandbox-style OIDC id token (docs/protocol.md §6): JWT-shaped, bound to the nonce, signature
// not checked by the sandbox. A real app gets this from its identity provider instead.
function sandboxIdToken(sub: string, email: string, nonce: string | undefined): string {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: "https://accounts.google.com",
    aud: "signet-demo.apps.googleusercontent.com",
    sub,
    email,
    iat: now,
    exp: now + 600,
    ...(nonce ? { nonce } : {}),
  };
  return `${b64({ alg: "RS256", typ: "JWT" })}.${b64(payload)}.c2FuZGJveA`;
}

export const walletRoutes: Record<string, DemoRoute> = {
  "POST /api/demo/passkey-challenge": {
    signedIn: true,
    handle: async ({ ctx, user }) => {
      const challenge = randomBytes(32).toString("base64url");
      ctx.challenges.set(user.accountId, challenge);
      const { email = "" } = await contactOf(ctx, user.customerId);
      return ok({
        challenge,
        rp: { id: "localhost", name: "Signet demo" },
        user: {
          id: Buffer.from(user.customerId).toString("base64url"),
          name: email,
          displayName: email,
        },
      });
    },
  },
  "POST /api/demo/oidc-token": {
    signedIn: true,
    handle: async ({ request, ctx, user }) => {
      const { nonce } = await readJson(request);
      if (
        nonce !== undefined &&
        (typeof nonce !== "string" || !/^[A-Za-z0-9_-]{16,128}$/.test(nonce))
      )
        throw new DemoError(
          400,
          "INVALID_NONCE",
          "The nonce must be 16 to 128 URL-safe characters.",
        );
      const { email = "" } = await contactOf(ctx, user.customerId);
      return ok({
        idToken: sandboxIdToken(`demo-${user.customerId.slice(-12)}`, email, nonce),
      });
    },
  },
  "POST /api/demo/devices": {
    signedIn: true,
    handle: async ({ request, ctx, user }) => {
      // The device that just opened a wallet session names it: by its User-Agent, read here.
      const { sessionId } = await readJson(request);
      if (typeof sessionId !== "string" || !/^Session:[A-Za-z0-9_-]{1,100}$/.test(sessionId))
        throw new DemoError(400, "INVALID_SESSION", "That is not a wallet session id.");
      const { data } = await ctx.platform<{ data: Array<{ id: string }> }>(
        "GET",
        `/auth/sessions?accountId=${encodeURIComponent(user.accountId)}`,
      );
      if (!data.some((s) => s.id === sessionId))
        throw new DemoError(404, "NO_SUCH_SESSION", "The wallet has no such session.");
      while (ctx.devices.size >= MAX_DEVICES) {
        const oldest = ctx.devices.keys().next().value;
        if (oldest === undefined) break;
        ctx.devices.delete(oldest);
      }
      const device = {
        accountId: user.accountId,
        name: deviceName(request.headers["user-agent"]),
        at: new Date().toISOString(),
      };
      ctx.devices.set(sessionId, device);
      return ok({ name: device.name });
    },
  },
  "GET /api/demo/devices": {
    signedIn: true,
    handle: async ({ ctx, user }) => {
      const names: Record<string, string> = {};
      for (const [id, device] of ctx.devices)
        if (device.accountId === user.accountId) names[id] = device.name;
      return ok({ devices: names });
    },
  },
};
