// Injected faults: the next `count` matching service requests fail the way a real deployment
// can (PROCESSING answers, 5xx, delays, dropped connections, answers lost after acting, 429).
import { ServiceError } from "./http/errors.js";
import {
  array,
  enumOf,
  type FieldError,
  type Infer,
  integer,
  object,
  optional,
  string,
} from "./validation.js";

/** Which requests a fault applies to. */
export type FaultMatch = {
  /** HTTP method (case-insensitive); any when omitted. */
  method?: string;
  /** Path prefix, with or without the `/grid/2025-10-13` prefix; any when omitted. */
  path?: string;
};

/**
 * A fault to inject.
 * - `processing`: signed retries (and quote execute) that pass their signature check answer
 *   200 `{status:"PROCESSING"}` without executing; the request id stays usable. A GET of a
 *   PROCESSING contact change reads it still PROCESSING (not reconciled yet).
 * - `error`: answer `status` (default 500) with `code` (default `INTERNAL_ERROR`). With
 *   `at: "request"` (the default) before anything else; with `at: "signed"` where `processing`
 *   applies (a signed retry, or quote execute, whose stamp passed), as a terminal answer that
 *   uses up the request id and changes nothing (e.g. 424 `EMAIL_OTP_CREDENTIAL_SYNC_FAILED`).
 * - `delay`: wait `ms` (real time) and then handle normally.
 * - `drop`: destroy the connection without answering (in-process `fetch` rejects with {@link EmulatorDropError}).
 * - `drop_after`: handle the request normally (the emulator acts), then lose the answer as `drop`
 *   does. Used up only by a request the emulator completed: 200, 201 or 204, not a 202 challenge,
 *   not a `PROCESSING` answer, not an error.
 * - `rate_limit`: 429 `RATE_LIMITED` with `Retry-After: retryAfter` (seconds, default 1).
 */
export type FaultSpec = {
  match?: FaultMatch;
  /** How many matching requests it applies to. Default 1. */
  count?: number;
  kind: "processing" | "error" | "delay" | "drop" | "drop_after" | "rate_limit";
  status?: number;
  code?: string;
  message?: string;
  /** Where an `error` fault applies: on arrival (default) or once a stamp has passed. */
  at?: "request" | "signed";
  ms?: number;
  retryAfter?: number;
};

/** The JSON body of `POST /_emulator/faults`: one fault or `{ faults: [...] }`. */
export const faultSchema = object({
  match: optional(object({ method: optional(string({ minLength: 1 })), path: optional(string()) })),
  count: optional(integer({ min: 1, max: 1000 })),
  kind: enumOf(["processing", "error", "delay", "drop", "drop_after", "rate_limit"]),
  status: optional(integer({ min: 400, max: 599 })),
  code: optional(string({ minLength: 1, maxLength: 100 })),
  message: optional(string({ maxLength: 500 })),
  at: optional(enumOf(["request", "signed"])),
  ms: optional(integer({ min: 0, max: 600_000 })),
  retryAfter: optional(integer({ min: 0, max: 86_400 })),
});

/** Several faults at once. */
export const faultListSchema = object({ faults: array(faultSchema, { minItems: 1 }) });

type ArmedFault = Infer<typeof faultSchema> & { id: number; remaining: number };

/** A fault still waiting for matching requests, as listed by `GET /_emulator/faults`. */
export type ArmedFaultJson = FaultSpec & { id: number; remaining: number };

/** The queue of armed faults. */
export interface FaultQueue {
  add(spec: FaultSpec): ArmedFaultJson;
  list(): ArmedFaultJson[];
  /** Takes one use of the first matching fault that applies on arrival. */
  takeImmediate(method: string, path: string): ArmedFaultJson | undefined;
  /** Takes one use of the first matching `processing` fault, else draws one (`processingRate`). */
  takeProcessing(method: string, path: string): boolean;
  /**
   * Takes one use of the first matching `processing` or `error` `at: "signed"` fault, else draws
   * a `processing` one (`processingRate`).
   */
  takeSigned(method: string, path: string): ArmedFaultJson | undefined;
  /** Takes one use of the first matching `drop_after` fault. */
  takeDropAfter(method: string, path: string): boolean;
  clear(): void;
}

const VERSION_PREFIX = "/grid/2025-10-13";

function normalizePrefix(path: string): string {
  return path.startsWith(VERSION_PREFIX) ? path.slice(VERSION_PREFIX.length) || "/" : path;
}

/** Validation errors of a fault spec that the schema cannot express. */
export function faultSpecErrors(spec: FaultSpec, field = ""): FieldError[] {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  const errors: FieldError[] = [];
  if (spec.kind !== "error" && (spec.status !== undefined || spec.code !== undefined)) {
    errors.push({ field: at("status"), message: "status and code apply to kind error only" });
  }
  if (spec.kind !== "error" && spec.at !== undefined) {
    errors.push({ field: at("at"), message: "at applies to kind error only" });
  }
  if (spec.kind !== "delay" && spec.ms !== undefined) {
    errors.push({ field: at("ms"), message: "ms applies to kind delay only" });
  }
  if (spec.kind === "delay" && spec.ms === undefined) {
    errors.push({ field: at("ms"), message: "is required for kind delay" });
  }
  if (spec.kind !== "rate_limit" && spec.retryAfter !== undefined) {
    errors.push({ field: at("retryAfter"), message: "retryAfter applies to kind rate_limit only" });
  }
  return errors;
}

/** Faults that apply later than on arrival (after a stamp passed, or after acting). */
function isLate(fault: { kind: FaultSpec["kind"]; at?: FaultSpec["at"] | undefined }): boolean {
  return (
    fault.kind === "processing" ||
    fault.kind === "drop_after" ||
    (fault.kind === "error" && fault.at === "signed")
  );
}

/** The service error an `error` fault answers with. */
export function faultError(fault: FaultSpec): ServiceError {
  return new ServiceError(
    fault.status ?? 500,
    fault.code ?? "INTERNAL_ERROR",
    fault.message ?? "Injected fault.",
  );
}

/**
 * The signed retries the service's pull requests say may answer PROCESSING: #850's six
 * (credential add, challenge, verify, refresh, credential and session revoke) and #854's export.
 */
const PROCESSING_ENDPOINTS: readonly [method: string, path: RegExp][] = [
  ["POST", /^\/auth\/credentials$/],
  ["POST", /^\/auth\/credentials\/[^/]+\/challenge$/],
  ["POST", /^\/auth\/credentials\/[^/]+\/verify$/],
  ["POST", /^\/auth\/sessions\/[^/]+\/refresh$/],
  ["DELETE", /^\/auth\/credentials\/[^/]+$/],
  ["DELETE", /^\/auth\/sessions\/[^/]+$/],
  ["POST", /^\/internal-accounts\/[^/]+\/export$/],
];

/** Whether #850 or #854 names this endpoint as one that may answer PROCESSING. */
export function mayAnswerProcessing(method: string, path: string): boolean {
  const relative = normalizePrefix(path);
  return PROCESSING_ENDPOINTS.some(
    ([m, pattern]) => m === method.toUpperCase() && pattern.test(relative),
  );
}

/**
 * A uniform source in [0, 1) for the random PROCESSING answers: mulberry32 over the seed's
 * hash, so a seeded emulator answers PROCESSING at the same requests every run.
 */
function processingRandom(seed: string | undefined): () => number {
  if (seed === undefined) return Math.random;
  let state = 0;
  for (const char of `processing:${seed}`) state = (Math.imul(state, 31) + char.charCodeAt(0)) | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What the fault queue answers on its own, beside the armed faults. */
export type FaultQueueOptions = {
  /** The share of #850/#854's signed retries answered PROCESSING unprompted. Default 0. */
  processingRate?: number;
  /** Makes those draws repeat run after run. */
  seed?: string | undefined;
};

/** Creates an empty fault queue. */
export function createFaultQueue(options: FaultQueueOptions = {}): FaultQueue {
  let armed: ArmedFault[] = [];
  let nextId = 1;
  const rate = options.processingRate ?? 0;
  const random = processingRandom(options.seed);
  // Drawn only where the service may answer PROCESSING, after any armed fault had its turn.
  const drawProcessing = (method: string, path: string) =>
    rate > 0 && mayAnswerProcessing(method, path) && random() < rate;
  const drawn = (): ArmedFaultJson => ({ id: 0, remaining: 0, kind: "processing" });
  const matches = (fault: ArmedFault, method: string, path: string) =>
    (!fault.match?.method || fault.match.method.toUpperCase() === method.toUpperCase()) &&
    (!fault.match?.path || path.startsWith(normalizePrefix(fault.match.path)));
  const take = (fault: ArmedFault) => {
    fault.remaining--;
    if (fault.remaining <= 0) armed = armed.filter((f) => f !== fault);
  };
  const toJson = (f: ArmedFault): ArmedFaultJson => ({ ...f }) as ArmedFaultJson;
  return {
    add(spec) {
      const fault = { ...spec, id: nextId++, remaining: spec.count ?? 1 } as ArmedFault;
      armed.push(fault);
      return toJson(fault);
    },
    list: () => armed.map(toJson),
    takeImmediate(method, path) {
      const fault = armed.find((f) => !isLate(f) && matches(f, method, path));
      if (!fault) return undefined;
      take(fault);
      return toJson(fault);
    },
    takeProcessing(method, path) {
      const fault = armed.find((f) => f.kind === "processing" && matches(f, method, path));
      if (!fault) return drawProcessing(method, path);
      take(fault);
      return true;
    },
    takeSigned(method, path) {
      const fault = armed.find(
        (f) =>
          (f.kind === "processing" || (f.kind === "error" && f.at === "signed")) &&
          matches(f, method, path),
      );
      if (!fault) return drawProcessing(method, path) ? drawn() : undefined;
      take(fault);
      return toJson(fault);
    },
    takeDropAfter(method, path) {
      const fault = armed.find((f) => f.kind === "drop_after" && matches(f, method, path));
      if (!fault) return false;
      take(fault);
      return true;
    },
    clear() {
      armed = [];
    },
  };
}

/** Thrown by the in-process `fetch` when a `drop` fault applies: the connection is cut. */
export class EmulatorDropError extends TypeError {
  override readonly name = "EmulatorDropError";
  constructor(kind: "drop" | "drop_after" = "drop") {
    super(`fetch failed: the emulator dropped the connection (${kind} fault)`);
  }
}
