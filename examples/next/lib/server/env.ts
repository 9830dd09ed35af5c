// The server's configuration, read from the environment when a request needs it, never at
// import: `next build` imports every route module, and the build has no credentials.
// Works in both runtimes (Node and edge): process.env is read at request time in each.

export type ServerEnv = {
  /** The service: the sandbox's base URL, or the emulator's that scripts/serve.mjs starts. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Signs the demo login cookie (HMAC-SHA256); 32 characters or more. */
  sessionSecret: string;
  /** The service is the emulator: its public keys are trusted for OTP and export bundles. */
  emulator: boolean;
  /**
   * How many trusted reverse proxies in front of Next append to `X-Forwarded-For` (default 1):
   * the end user is that many entries from the right. See endUserIp.ts.
   */
  trustedProxies: number;
};

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`Set ${name} in the server's environment (see examples/next/README.md).`);
  return value;
}

export function serverEnv(): ServerEnv {
  const sessionSecret = required("SESSION_SECRET");
  if (sessionSecret.length < 32) throw new Error("SESSION_SECRET must be 32 characters or more.");
  const trustedProxies = Number(process.env.TRUSTED_PROXIES ?? "1");
  if (!Number.isInteger(trustedProxies) || trustedProxies < 1)
    throw new Error("TRUSTED_PROXIES must be a whole number, 1 or more.");
  return {
    baseUrl: required("GRID_BASE_URL"),
    clientId: required("GRID_CLIENT_ID"),
    clientSecret: required("GRID_CLIENT_SECRET"),
    sessionSecret,
    emulator: process.env.GRID_EMULATOR === "1",
    trustedProxies,
  };
}
