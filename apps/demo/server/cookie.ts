// The demo's sign-in cookie: the user as JSON, HMAC-SHA-256 signed, HttpOnly and SameSite=Strict.
import { createHmac, timingSafeEqual } from "node:crypto";

/** Who is signed in to the demo (not a wallet session: the app's own login). */
export type DemoUser = {
  email: string;
  customerId: string;
  accountId: string;
  region: string;
};

export const COOKIE_NAME = "signet_demo";

const mac = (secret: Uint8Array, body: string) =>
  createHmac("sha256", secret).update(body).digest("base64url");

/** `name=value; HttpOnly; SameSite=Strict; Path=/` for a user, or a clearing cookie for `null`. */
export function userCookie(secret: Uint8Array, user: DemoUser | null, secure: boolean): string {
  const flags = `HttpOnly; SameSite=Strict; Path=/${secure ? "; Secure" : ""}`;
  if (user === null) return `${COOKIE_NAME}=; Max-Age=0; ${flags}`;
  const body = Buffer.from(JSON.stringify(user)).toString("base64url");
  return `${COOKIE_NAME}=${body}.${mac(secret, body)}; Max-Age=86400; ${flags}`;
}

/** The user of a request's cookie, or `null` when absent, malformed or not signed by `secret`. */
export function readUserCookie(secret: Uint8Array, cookieHeader: string | null): DemoUser | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name !== COOKIE_NAME || !value) continue;
    const [body, tag] = value.split(".");
    if (!body || !tag) return null;
    const expected = Buffer.from(mac(secret, body));
    const given = Buffer.from(tag);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const user = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as DemoUser;
      return typeof user.customerId === "string" && typeof user.accountId === "string"
        ? user
        : null;
    } catch {
      return null;
    }
  }
  return null;
}
