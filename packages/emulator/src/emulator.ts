// createEmulator: the service's wallet endpoints as a web-standard fetch handler, plus controls.
import { createClock, type EmulatorClock } from "./clock.js";
import { assertControlCaller, CONTROL_PREFIX, handleControl } from "./controls.js";
import {
  type ArmedFaultJson,
  createFaultQueue,
  EmulatorDropError,
  type FaultSpec,
  faultError,
  faultSchema,
  faultSpecErrors,
} from "./faults.js";
import { readRawBody } from "./http/body.js";
import type { RequestContext } from "./http/context.js";
import { invalidInput, ServiceError } from "./http/errors.js";
import { errorResponse } from "./http/responses.js";
import { createRouter } from "./http/router.js";
import { createIdFactory } from "./ids.js";
import { createEmulatorKeys, type EmulatorPublicKeys, publicKeysOf } from "./keys.js";
import { type EmulatorOptions, resolveOptions } from "./options.js";
import { createRequestLog, type RequestLogEntry } from "./requestLog.js";
import { settleDueTransactions } from "./resources/transactions.js";
import { serviceRoutes } from "./routes.js";
import type { Runtime } from "./runtime.js";
import { collectSettled, REQUEST_ID_HEADER, SIGNATURE_HEADER } from "./signedRetry.js";
import { createState } from "./state.js";
import { validate } from "./validation.js";
import { createWebhookSender, type WebhookDelivery } from "./webhooks.js";

/** The version prefix of the real base URL; paths are served with and without it. */
export const VERSION_PREFIX = "/grid/2025-10-13";

/**
 * Set on an answer an injected fault shaped (`processing`, `error`, `rate_limit`…), with the
 * fault's kind: such an answer is the test's making, not the service's, and schema judges skip it.
 */
export const FAULT_HEADER = "X-Emulator-Fault";

/** An emulator instance: a fetch handler and its controls. */
export interface Emulator {
  /**
   * Handles one request. Rejects with {@link EmulatorDropError} when a `drop` fault applies
   * (what a cut connection looks like to `fetch`); otherwise always resolves.
   */
  fetch(request: Request): Promise<Response>;
  /** The public keys a client must trust (uncompressed hex). */
  readonly keys: EmulatorPublicKeys;
  /** The organization id written into export bundles. */
  readonly organizationId: string;
  /** The emulator clock. */
  readonly clock: EmulatorClock;
  /** Moves emulator time forward. */
  advanceClock(ms: number): void;
  /** Arms a fault for the next matching service requests. @throws ServiceError (400) for an invalid spec. */
  addFault(spec: FaultSpec): ArmedFaultJson;
  /** The faults still armed. */
  faults(): ArmedFaultJson[];
  /** Disarms every fault. */
  clearFaults(): void;
  /** The request log (never header values or bodies). */
  requests(): RequestLogEntry[];
  /** Forgets every customer, account, credential, session, quote and log entry; keys stay. */
  reset(): void;
  /** Where wallet-operation webhooks go from now on (`undefined`: nowhere). */
  setWebhookUrl(url: string | undefined): void;
  /** Every webhook delivery attempt so far, with the receiver's status (0: unreachable). */
  webhookDeliveries(): WebhookDelivery[];
  /** Cancels pending webhook retries and settlements (the server's `close` calls it). */
  stop(): void;
}

function basicAuthOk(header: string | null, clientId: string, clientSecret: string): boolean {
  if (!header?.startsWith("Basic ")) return false;
  let decoded: string;
  try {
    decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  } catch {
    return false;
  }
  const colon = decoded.indexOf(":");
  return (
    colon >= 0 && decoded.slice(0, colon) === clientId && decoded.slice(colon + 1) === clientSecret
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Parameters of {@link createEmulator} (the name every Signet function's options go by). */
export type CreateEmulatorParameters = EmulatorOptions;
/** What {@link createEmulator} returns. */
export type CreateEmulatorReturnType = Emulator;

/**
 * Creates an emulator of the service's Embedded Wallet endpoints.
 *
 * @param options - all optional; see {@link EmulatorOptions}.
 * @throws RangeError when a duration option is negative.
 * @example
 * const emulator = createEmulator({ seed: "test" });
 * const res = await emulator.fetch(new Request("http://emulator/customers", {
 *   method: "POST",
 *   headers: { authorization: `Basic ${btoa("emulator:emulator")}`, "content-type": "application/json" },
 *   body: JSON.stringify({ customerType: "INDIVIDUAL", email: "ada@example.com" }),
 * }));
 */
export function createEmulator(options: CreateEmulatorParameters = {}): CreateEmulatorReturnType {
  const resolved = resolveOptions(options);
  const clock = createClock(resolved.now);
  const keys = createEmulatorKeys(resolved.seed, resolved.organizationId);
  const rt: Runtime = {
    options: resolved,
    clock,
    keys,
    faults: createFaultQueue({ processingRate: resolved.processingRate, seed: resolved.seed }),
    log: createRequestLog(),
    ids: createIdFactory(resolved.seed),
    state: createState(),
    webhooks: createWebhookSender(resolved.webhooks, {
      key: keys.webhook,
      now: () => clock.now(),
      nextId: (kind) => rt.ids.next(kind),
    }),
  };
  const route = createRouter(serviceRoutes);
  const reset = () => {
    rt.state = createState();
    rt.ids = createIdFactory(resolved.seed);
    rt.faults.clear();
    rt.log.clear();
    clock.reset();
  };

  async function handleService(
    request: Request,
    method: string,
    path: string,
    url: URL,
    note: { fault?: string },
  ): Promise<Response> {
    if (
      !basicAuthOk(request.headers.get("authorization"), resolved.clientId, resolved.clientSecret)
    ) {
      throw new ServiceError(401, "UNAUTHORIZED", "Missing or wrong Basic credentials.", {
        reason: "PLATFORM_CREDENTIALS",
      });
    }
    const fault = rt.faults.takeImmediate(method, path);
    if (fault) {
      note.fault = fault.kind;
      switch (fault.kind) {
        case "drop":
          throw new EmulatorDropError();
        case "error":
          throw faultError(fault);
        case "rate_limit": {
          const seconds = fault.retryAfter ?? 1;
          throw new ServiceError(
            429,
            "RATE_LIMITED",
            fault.message ?? "Injected rate limit.",
            undefined,
            {
              "Retry-After": String(seconds),
            },
          );
        }
        case "delay":
          await sleep(fault.ms ?? 0);
          break;
      }
    }
    const rawBody = await readRawBody(request);
    // A byte-identical re-send of an operation that settled after PROCESSING collects its answer
    // before the handler's own checks, which the settled operation itself now fails.
    const settled = collectSettled(rt, method, path, request.headers, rawBody);
    if (settled !== undefined) return settled;
    settleDueTransactions(rt);
    const match = route(method, path);
    if (match.kind === "not_found")
      throw new ServiceError(404, "REFERENCE_NOT_FOUND", `No route for ${path}.`);
    if (match.kind === "method_not_allowed") {
      throw new ServiceError(
        405,
        "METHOD_NOT_ALLOWED",
        `${method} is not allowed on ${path}.`,
        undefined,
        {
          Allow: match.allow.join(", "),
        },
      );
    }
    const ctx: RequestContext = {
      rt,
      method,
      path,
      params: match.params,
      query: url.searchParams,
      headers: request.headers,
      rawBody,
      now: () => clock.now(),
      takeProcessingFault: () => {
        const taken = rt.faults.takeProcessing(method, path);
        if (taken) note.fault = "processing";
        return taken;
      },
      takeSignedFault: () => {
        const taken = rt.faults.takeSigned(method, path);
        if (taken) note.fault = taken.kind;
        return taken;
      },
    };
    return match.route.handler(ctx);
  }

  async function fetch(request: Request): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return errorResponse(new ServiceError(400, "INVALID_INPUT", "Unparseable request URL."));
    }
    const method = request.method.toUpperCase();
    const rawPath = url.pathname;
    if (rawPath === CONTROL_PREFIX || rawPath.startsWith(`${CONTROL_PREFIX}/`)) {
      try {
        assertControlCaller(url, request.headers, rt.options.controlHosts);
        const raw = await readRawBody(request);
        return handleControl(
          rt,
          { reset },
          method,
          rawPath,
          raw,
          request.headers.get("content-type"),
        );
      } catch (error) {
        return error instanceof ServiceError
          ? errorResponse(error)
          : errorResponse(new ServiceError(500, "INTERNAL_ERROR", "Unexpected emulator error."));
      }
    }
    const path = rawPath.startsWith(`${VERSION_PREFIX}/`)
      ? rawPath.slice(VERSION_PREFIX.length)
      : rawPath;
    const time = new Date(clock.now()).toISOString();
    const note: { fault?: string } = {};
    let response: Response;
    let code: string | undefined;
    try {
      response = await handleService(request, method, path, url, note);
    } catch (error) {
      if (error instanceof EmulatorDropError) {
        logRequest(0, undefined);
        throw error;
      }
      const serviceError =
        error instanceof ServiceError
          ? error
          : new ServiceError(500, "INTERNAL_ERROR", "Unexpected emulator error.");
      if (!(error instanceof ServiceError))
        console.error("[signet-emulator] unexpected error:", error);
      code = serviceError.code;
      response = errorResponse(serviceError);
    }
    // `drop_after`: the emulator acted (a terminal success, not a challenge or PROCESSING), and
    // the answer is lost on the way back. The log keeps the status that was never delivered.
    // A contact change's create (#853) makes the change even when it answers 202.
    const acted =
      (response.status === 200 ||
        response.status === 201 ||
        response.status === 204 ||
        (response.status === 202 && method === "POST" && /\/contact-changes$/.test(path))) &&
      note.fault !== "processing";
    if (acted && rt.faults.takeDropAfter(method, path)) {
      note.fault = "drop_after";
      logRequest(response.status, code);
      await response.body?.cancel().catch(() => undefined);
      throw new EmulatorDropError("drop_after");
    }
    logRequest(response.status, code);
    // The service's clock, as a real service states it: clients judge expiry by this header, so
    // an advanced emulator clock (POST /_emulator/clock) must show in it.
    response.headers.set("Date", new Date(clock.now()).toUTCString());
    // An answer shaped by an injected fault is not the service's own: say so, for test judges.
    if (note.fault) response.headers.set(FAULT_HEADER, note.fault);
    return response;

    function logRequest(status: number, errorCode: string | undefined) {
      rt.log.add({
        method,
        path: rawPath,
        status,
        ...(errorCode ? { code: errorCode } : {}),
        time,
        hasSignature: request.headers.has(SIGNATURE_HEADER),
        hasRequestId: request.headers.has(REQUEST_ID_HEADER),
        hasIdempotencyKey: request.headers.has("Idempotency-Key"),
        ...(note.fault ? { fault: note.fault } : {}),
      });
    }
  }

  return {
    fetch,
    keys: publicKeysOf(keys),
    organizationId: keys.organizationId,
    clock,
    advanceClock: (ms) => clock.advance(ms),
    addFault(spec) {
      const checked = validate(faultSchema, spec);
      if (!checked.ok) throw invalidInput(checked.errors);
      const errors = faultSpecErrors(spec);
      if (errors.length > 0) throw invalidInput(errors);
      return rt.faults.add(spec);
    },
    faults: () => rt.faults.list(),
    clearFaults: () => rt.faults.clear(),
    requests: () => rt.log.list(),
    reset,
    setWebhookUrl: (url) => rt.webhooks.setUrl(url),
    webhookDeliveries: () => rt.webhooks.deliveries(),
    stop: () => rt.webhooks.stop(),
  };
}
