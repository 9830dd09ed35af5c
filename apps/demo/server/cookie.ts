// The demo's sign-in cookie: an opaque session id (see sessions.ts), nothing about the user in it.
// HttpOnly (no script reads it), SameSite=Strict (the app calls its own origin only), Path=/, and
// Secure when the browser reaches the server over https.

export const COOKIE_NAME = "signet_demo";

export type CookieFlags = {
  /** Adds `Secure`: set when the page is served over https (directly or behind a TLS proxy). */
  secure: boolean;
  /** `Max-Age` of a new session cookie, in seconds. */
  maxAgeSeconds: number;
};

const flagsOf = (secure: boolean) => `HttpOnly; SameSite=Strict; Path=/${secure ? "; Secure" : ""}`;

/** `signet_demo=<id>; Max-Age=…; HttpOnly; SameSite=Strict; Path=/[; Secure]`, or a clearing cookie for `null`. */
export function sessionCookie(sessionId: string | null, flags: CookieFlags): string {
  if (sessionId === null) return `${COOKIE_NAME}=; Max-Age=0; ${flagsOf(flags.secure)}`;
  return `${COOKIE_NAME}=${sessionId}; Max-Age=${flags.maxAgeSeconds}; ${flagsOf(flags.secure)}`;
}

/** The session id in a request's `Cookie` header, or `null` when there is none. */
export function readSessionId(cookieHeader: string | null | undefined): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== COOKIE_NAME) continue;
    const value = part.slice(eq + 1).trim();
    return value === "" ? null : value;
  }
  return null;
}
