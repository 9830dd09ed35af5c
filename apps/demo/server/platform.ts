// The demo server's own calls to the service, with the platform's Basic credentials (kept on the
// server): what an integrator's backend does beside the relay.
import { DemoError } from "./http.js";

export type Platform = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Calls the service at `baseUrl`; a refusal becomes 502 `SERVICE_ERROR` in plain words. */
export function createPlatform(baseUrl: string, clientId: string, clientSecret: string): Platform {
  const authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) {
      // The service's own wording stays in the server's log; the page gets plain words.
      let detail = `${response.status}`;
      try {
        const parsed = JSON.parse(text) as { code?: string };
        if (parsed.code) detail = `${response.status} ${parsed.code}`;
      } catch {}
      console.warn(`demo server: ${method} ${path.split("?")[0]} answered ${detail}`);
      throw new DemoError(
        502,
        "SERVICE_ERROR",
        "The wallet service refused the demo server's request.",
      );
    }
    return (text ? JSON.parse(text) : undefined) as T;
  };
}
