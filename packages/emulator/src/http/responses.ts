// JSON responses in the service's conventions.
import type { ServiceError } from "./errors.js";

/** A JSON response with the given status. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** An empty response (204). */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** The flat error body of a `ServiceError`. */
export function errorResponse(error: ServiceError): Response {
  const body: Record<string, unknown> = {
    status: error.status,
    code: error.code,
    message: error.message,
  };
  if (error.details !== undefined) body.details = error.details;
  return json(error.status, body, { ...error.headers });
}

/** The spec's WalletOperationProcessing body: the caller re-sends the identical request. */
export function processing(): Response {
  return json(200, {
    status: "PROCESSING",
    message: "The wallet operation is still settling; re-send the identical request.",
  });
}
