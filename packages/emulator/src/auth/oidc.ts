// docs/protocol.md §6 (OAuth): sandbox-style OIDC tokens. Signatures are not checked (as in the
// sandbox); issuer, audience, subject, freshness and nonce are.
import { decodeJwt, sha256Hex } from "../crypto/index.js";
import { invalidInput, ServiceError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";

/** The identity an OAUTH credential is registered with. */
export type OidcIdentity = { iss: string; aud: string; sub: string };

/** Tokens older than this (by `iat`) are refused on verify. */
export const OIDC_MAX_AGE_MS = 60_000;

function claims(token: string): Record<string, unknown> {
  const decoded = decodeJwt(token);
  if (!decoded) {
    throw invalidInput([
      { field: "oidcToken", message: "is not a JWT (three base64url parts of JSON)" },
    ]);
  }
  return decoded.payload;
}

function audiences(aud: unknown): string[] {
  if (typeof aud === "string") return [aud];
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === "string");
  return [];
}

/**
 * The identity of a token offered at registration, with the `email` claim (the nickname).
 * 400 `INVALID_INPUT` when it is not a JWT, the issuer is not accepted, `aud`/`sub` are unusable or
 * `iat`/`exp` not numbers; 401 `UNAUTHORIZED` (`OIDC_TOKEN_STALE`) when `iat` is not within 60 s.
 */
export function registrationIdentity(
  rt: Runtime,
  token: string,
): OidcIdentity & { email: string | undefined } {
  const c = claims(token);
  const errors: { field: string; message: string }[] = [];
  const iss = typeof c.iss === "string" ? c.iss : "";
  if (!rt.options.oidcIssuers.includes(iss)) {
    errors.push({
      field: "oidcToken",
      message: `issuer must be one of ${rt.options.oidcIssuers.join(", ")}`,
    });
  }
  const accepted = rt.options.oidcAudiences;
  const aud = audiences(c.aud).find((a) => !accepted || accepted.includes(a));
  if (!aud) errors.push({ field: "oidcToken", message: "audience is missing or not accepted" });
  const sub = typeof c.sub === "string" && c.sub !== "" ? c.sub : "";
  if (!sub) errors.push({ field: "oidcToken", message: "subject (sub) is missing" });
  // docs/protocol.md §10: numeric iat and exp (the token's shape: 400) ...
  if (typeof c.exp !== "number" || !Number.isFinite(c.exp)) {
    errors.push({ field: "oidcToken", message: "exp must be a number" });
  }
  if (typeof c.iat !== "number" || !Number.isFinite(c.iat)) {
    errors.push({ field: "oidcToken", message: "iat must be a number" });
  }
  if (errors.length > 0 || !aud) throw invalidInput(errors);
  // ... and iat less than 60 s old: a well-formed token that fails authentication is 401, as the
  // registration's 401 says ("OAuth token authentication fails during credential registration").
  const age = rt.clock.now() - (c.iat as number) * 1000;
  if (age >= OIDC_MAX_AGE_MS || age < -OIDC_MAX_AGE_MS) {
    refuse("OIDC_TOKEN_STALE", "The token was not issued within the last 60 seconds.");
  }
  return { iss, aud, sub, email: typeof c.email === "string" ? c.email : undefined };
}

function refuse(reason: string, message: string): never {
  throw new ServiceError(401, "UNAUTHORIZED", message, { reason });
}

/**
 * Checks a sign-in token: `iss`, `aud`, `sub` equal to the registered identity, `iat` less than
 * 60 s old (and not more than 60 s ahead) by emulator time, `nonce` equal to the lowercase hex
 * SHA-256 of the exact `clientPublicKey` string. 401 `UNAUTHORIZED` with `details.reason`
 * (`OIDC_IDENTITY_MISMATCH`, `OIDC_TOKEN_STALE`, `OIDC_NONCE_MISMATCH`) otherwise.
 */
export function checkSignInToken(
  rt: Runtime,
  token: string,
  identity: OidcIdentity,
  clientPublicKey: string,
): void {
  const c = claims(token);
  if (
    c.iss !== identity.iss ||
    c.sub !== identity.sub ||
    !audiences(c.aud).includes(identity.aud)
  ) {
    refuse(
      "OIDC_IDENTITY_MISMATCH",
      "The token's issuer, audience or subject is not this credential's.",
    );
  }
  if (typeof c.iat !== "number" || !Number.isFinite(c.iat)) {
    refuse("OIDC_TOKEN_STALE", "The token has no numeric iat.");
  }
  // The sandbox's tokens carry numeric `iat` and `exp` (the credential's oidcToken rules).
  if (typeof c.exp !== "number" || !Number.isFinite(c.exp)) {
    refuse("OIDC_TOKEN_STALE", "The token has no numeric exp.");
  }
  const age = rt.clock.now() - c.iat * 1000;
  if (age >= OIDC_MAX_AGE_MS || age < -OIDC_MAX_AGE_MS) {
    refuse("OIDC_TOKEN_STALE", "The token was not issued within the last 60 seconds.");
  }
  if (c.nonce !== sha256Hex(clientPublicKey)) {
    refuse("OIDC_NONCE_MISMATCH", "The token's nonce is not the SHA-256 of clientPublicKey.");
  }
}
