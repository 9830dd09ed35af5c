// The backend's own calls to the service, with the platform's credentials (never from the browser).
import type { ServerEnv } from "./env";

export class DemoError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function platform<T>(
  env: ServerEnv,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const authorization = `Basic ${btoa(`${env.clientId}:${env.clientSecret}`)}`;
  const response = await fetch(`${env.baseUrl}${path}`, {
    method,
    headers: {
      authorization,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    cache: "no-store",
  });
  const text = await response.text();
  if (!response.ok) {
    let message = `The service answered ${response.status}.`;
    try {
      const parsed = JSON.parse(text) as { message?: string; code?: string };
      if (parsed.message) message = `${parsed.code ?? response.status}: ${parsed.message}`;
    } catch {}
    throw new DemoError(502, "SERVICE_ERROR", message);
  }
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The keys the client trusts for OTP and export bundles: the emulator's own, from the server. */
export async function trustedKeys(
  env: ServerEnv,
): Promise<{ otpTargetBundle: string[]; exportBundle: string[] } | undefined> {
  if (!env.emulator) return undefined;
  const keys = await platform<{ attestationPublicKey: string; signerPublicKey: string }>(
    env,
    "GET",
    "/_emulator/keys",
  );
  return { otpTargetBundle: [keys.attestationPublicKey], exportBundle: [keys.signerPublicKey] };
}
