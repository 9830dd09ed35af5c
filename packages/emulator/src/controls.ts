// Emulator-only controls under `/_emulator/` (no Basic auth): keys to trust, faults, clock,
// request log and reset. The same operations are methods of the emulator object.
import { isoTime } from "./clock.js";
import { type FaultSpec, faultListSchema, faultSchema, faultSpecErrors } from "./faults.js";
import { parseJsonBody } from "./http/body.js";
import { invalidInput, ServiceError } from "./http/errors.js";
import { json, noContent } from "./http/responses.js";
import { publicKeysOf } from "./keys.js";
import type { Runtime } from "./runtime.js";
import { integer, object, validate } from "./validation.js";

/** The path prefix of the controls. */
export const CONTROL_PREFIX = "/_emulator";

/** Operations the controls need from the emulator. */
export type ControlActions = { reset(): void };

function body(raw: Uint8Array, contentType: string | null): unknown {
  return parseJsonBody(raw, contentType);
}

function parseFaults(value: unknown): FaultSpec[] {
  const isList = typeof value === "object" && value !== null && "faults" in value;
  const result = isList ? validate(faultListSchema, value) : validate(faultSchema, value);
  if (!result.ok) throw invalidInput(result.errors);
  const specs = (
    isList ? (result.value as { faults: FaultSpec[] }).faults : [result.value]
  ) as FaultSpec[];
  const errors = specs.flatMap((spec, i) => faultSpecErrors(spec, isList ? `faults[${i}]` : ""));
  if (errors.length > 0) throw invalidInput(errors);
  return specs;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The controls answer scripts and tools, never another site: a page on any other origin (another
 * port of `localhost` included) could otherwise reset the ledger, add faults or read the request
 * log with one simple request. A call is refused when the URL's host (the `Host` header, over
 * HTTP) is not a loopback name or one of `controlHosts` (a DNS-rebound page reaches the
 * emulator's port under its own name, and its same-origin GETs carry no `Origin`), when the
 * browser says it crosses sites (`Sec-Fetch-Site` other than `same-origin` or `none`), or names
 * an `Origin` that is not this emulator's own on such a name. Tools such as Node's `fetch` send
 * the `Host` they were given (`127.0.0.1:<port>`) and no `Origin`, and pass.
 *
 * @throws {ServiceError} 403 `CROSS_ORIGIN_FORBIDDEN`.
 */
export function assertControlCaller(
  url: URL,
  headers: Headers,
  controlHosts: readonly string[] = [],
): void {
  const site = headers.get("sec-fetch-site");
  const origin = headers.get("origin");
  const named = (host: string) => LOOPBACK_NAMES.has(host) || controlHosts.includes(host);
  let reason: string | undefined;
  if (!named(url.hostname.toLowerCase())) reason = "Host is not a loopback name";
  else if (site !== null && site !== "same-origin" && site !== "none")
    reason = `Sec-Fetch-Site: ${site}`;
  else if (origin !== null) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed.origin !== url.origin) reason = "another origin";
    else if (!named(parsed.hostname.toLowerCase())) reason = "not a loopback name";
  }
  if (reason !== undefined) {
    throw new ServiceError(
      403,
      "CROSS_ORIGIN_FORBIDDEN",
      "The emulator's controls take no calls from another site; call them from a script or tool.",
      { reason },
    );
  }
}

/** Handles one control request (`path` starts with `/_emulator`). */
export function handleControl(
  rt: Runtime,
  actions: ControlActions,
  method: string,
  path: string,
  raw: Uint8Array,
  contentType: string | null,
): Response {
  const route = `${method} ${path.replace(/\/+$/, "")}`;
  switch (route) {
    case "GET /_emulator/keys":
      return json(200, { ...publicKeysOf(rt.keys), organizationId: rt.keys.organizationId });
    case "GET /_emulator/faults":
      return json(200, { data: rt.faults.list() });
    case "POST /_emulator/faults": {
      const specs = parseFaults(body(raw, contentType));
      return json(201, { data: specs.map((spec) => rt.faults.add(spec)) });
    }
    case "DELETE /_emulator/faults":
      rt.faults.clear();
      return noContent();
    case "GET /_emulator/clock":
      return json(200, { now: isoTime(rt.clock.now()), offsetMs: rt.clock.offsetMs });
    case "POST /_emulator/clock": {
      const result = validate(
        object({ advanceMs: integer({ min: 0, max: 10 * 365 * 86_400_000 }) }),
        body(raw, contentType),
      );
      if (!result.ok) throw invalidInput(result.errors);
      rt.clock.advance(result.value.advanceMs);
      return json(200, { now: isoTime(rt.clock.now()), offsetMs: rt.clock.offsetMs });
    }
    case "GET /_emulator/requests":
      return json(200, { data: rt.log.list() });
    case "DELETE /_emulator/requests":
      rt.log.clear();
      return noContent();
    case "POST /_emulator/reset":
      actions.reset();
      return noContent();
    case "GET /_emulator/webhooks":
      return json(200, { data: rt.webhooks.deliveries() });
    case "POST /_emulator/webhooks": {
      // Where wallet-operation webhooks go: an http(s) URL, or null for nowhere.
      const value = body(raw, contentType) as { url?: unknown } | null;
      const url = value?.url;
      if (url !== null && !(typeof url === "string" && /^https?:\/\/[^\s]+$/.test(url)))
        throw invalidInput([{ field: "url", message: "must be an http(s) URL or null" }]);
      rt.webhooks.setUrl(url ?? undefined);
      return noContent();
    }
    default: {
      const known = [
        "/_emulator/keys",
        "/_emulator/faults",
        "/_emulator/clock",
        "/_emulator/requests",
        "/_emulator/reset",
        "/_emulator/webhooks",
      ];
      if (known.includes(path.replace(/\/+$/, ""))) {
        throw new ServiceError(405, "METHOD_NOT_ALLOWED", `${method} is not allowed on ${path}.`);
      }
      throw new ServiceError(404, "NOT_FOUND", `No emulator control at ${path}.`);
    }
  }
}
