// The demo login's cookie: the customer it stands for, signed with HMAC-SHA256 (Web Crypto, so
// the same code runs in the Node and the edge runtime, which share no memory: a server-side
// session table in one would be invisible to the other). A real app uses its own sign-in
// (NextAuth, Clerk, its own sessions…) and maps its user to the service's customer id.

export const COOKIE_NAME = "signet_next_demo";
export const MAX_AGE_SECONDS = 24 * 60 * 60;

export type DemoUser = {
  email: string;
  customerId: string;
  accountId: string;
  /** `US`, or an EU country, where payments need SCA. */
  region: string;
};

type Payload = DemoUser & { exp: number };

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function key(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

/** The cookie value for a signed-in user: `payload.signature`, both base64url. */
export async function sealSession(user: DemoUser, secret: string): Promise<string> {
  const payload: Payload = { ...user, exp: Math.floor(Date.now() / 1000) + MAX_AGE_SECONDS };
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const signature = await crypto.subtle.sign("HMAC", await key(secret), encoder.encode(body));
  return `${body}.${base64url(new Uint8Array(signature))}`;
}

/** The user of a cookie value, or `null` when it is missing, altered or expired. */
export async function openSession(
  value: string | undefined,
  secret: string,
): Promise<DemoUser | null> {
  if (!value) return null;
  const [body, signature, extra] = value.split(".");
  if (!body || !signature || extra !== undefined) return null;
  try {
    const ok = await crypto.subtle.verify(
      "HMAC",
      await key(secret),
      fromBase64url(signature),
      encoder.encode(body),
    );
    if (!ok) return null;
    const payload = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as Payload;
    if (typeof payload.exp !== "number" || payload.exp * 1000 <= Date.now()) return null;
    const { email, customerId, accountId, region } = payload;
    return { email, customerId, accountId, region };
  } catch {
    return null;
  }
}

/** The session cookie's value in a `Cookie` header. */
export function readCookie(header: string | null): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE_NAME) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(value: string | null, secure: boolean): string {
  const flags = `HttpOnly; SameSite=Strict; Path=/${secure ? "; Secure" : ""}`;
  return value === null
    ? `${COOKIE_NAME}=; Max-Age=0; ${flags}`
    : `${COOKIE_NAME}=${value}; Max-Age=${MAX_AGE_SECONDS}; ${flags}`;
}
