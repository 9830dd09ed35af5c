// Sandbox-style OIDC id tokens: JWT-shaped, signature unchecked (docs/protocol.md §6).
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

export function sandboxIdToken(claims: {
  sub: string;
  nonce?: string;
  iat?: number;
  aud?: string;
  iss?: string;
  email?: string;
}): string {
  const payload = {
    iss: claims.iss ?? "https://accounts.google.com",
    aud: claims.aud ?? "signet-demo.apps.googleusercontent.com",
    sub: claims.sub,
    email: claims.email ?? `${claims.sub}@gmail.com`,
    iat: claims.iat ?? Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...(claims.nonce ? { nonce: claims.nonce } : {}),
  };
  return `${b64url({ alg: "RS256", typ: "JWT" })}.${b64url(payload)}.c2lnbmF0dXJl`;
}
