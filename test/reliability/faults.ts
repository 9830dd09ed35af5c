// The faults the fault suites inject (test/reliability/chain.ts carries them): what each one does
// on which hop, its name in RELIABILITY.md, and whether the device can see it. Every kind is
// transient: it delays, loses or refuses one request, and the same request may succeed again.
import type { ProxyFault, ProxyRecord } from "../support/faultProxy.js";
import type { Timing } from "./chain.js";
import type { Random } from "./random.js";

export type Hop = "device" | "service";

/** A fault kind: its name, where it applies, and the fault it makes. */
export type FaultKind = {
  name: string;
  hop: Hop;
  /** Only on a signed leg (it needs a challenge or a request id). */
  signedOnly?: boolean;
  /** Neither a failure nor a wait the device can tell from a slow answer (not counted as met). */
  silent?: boolean;
  /** PROCESSING: the protocol, not a fault (re-sent as the service asks; not counted as met). */
  protocol?: boolean;
  /** Whether it applies to a step (by its `stepLabel`); default: every step. */
  applies?: (label: string) => boolean;
  make(t: Timing, random: Random): ProxyFault;
};

/**
 * A 429 is injected everywhere but on an SCA answer (a quote's authorization, an SCA login's
 * start and completion): there the service's 429 counts refused answers, and the library hands it
 * to the app as `RATE_LIMITED` by design (docs/architecture.md "Retries": only what is safe to
 * repeat is repeated), so it is not a fault the library is meant to absorb.
 */
const notAnScaAnswer = (label: string) =>
  !/^POST \/(quotes\/\{Quote\}\/authorize|sca\/)/.test(label);

/** A challenge to hold past its expiry: every signed leg but quote execute's (no challenge). */
const hasChallenge = (label: string) => !label.startsWith("POST /quotes/{Quote}/execute");

const past = (limitMs: number, random: Random) => Math.round(limitMs * (1.1 + random.next() * 0.5));

export const DEVICE_FAULTS: readonly FaultKind[] = [
  {
    name: "connection cut before the relay read it",
    hop: "device",
    make: () => ({ kind: "drop-request" }),
  },
  {
    name: "connection cut after the relay answered",
    hop: "device",
    make: () => ({ kind: "drop-response" }),
  },
  {
    name: "request held past the client's timeout, then delivered",
    hop: "device",
    make: (t, random) => ({ kind: "delay-request", ms: past(t.clientTimeoutMs, random) }),
  },
  {
    name: "answer held past the client's timeout",
    hop: "device",
    make: (t, random) => ({ kind: "delay-response", ms: past(t.clientTimeoutMs, random) }),
  },
  {
    name: "short delay",
    hop: "device",
    silent: true,
    make: (t, random) => ({
      kind: "delay-request",
      ms: Math.round(t.clientTimeoutMs * (0.02 + random.next() * 0.2)),
    }),
  },
  {
    name: "502 from a gateway, nothing forwarded",
    hop: "device",
    make: () => ({ kind: "error-before", status: 502 }),
  },
  {
    name: "502 from a gateway after the relay answered",
    hop: "device",
    make: () => ({ kind: "error-after", status: 502 }),
  },
  {
    name: "429 with Retry-After",
    hop: "device",
    applies: notAnScaAnswer,
    make: (t, random) => ({ kind: "rate-limit", retryAfterSeconds: t.retryAfterSeconds(random) }),
  },
  {
    name: "signed leg held past its challenge's expiry",
    hop: "device",
    signedOnly: true,
    applies: hasChallenge,
    make: () => ({ kind: "hold-past-expiry" }),
  },
  {
    name: "relay restart mid-request",
    hop: "device",
    make: (_t, random) => ({
      kind: "interrupt",
      afterMs: random.int(0, 10),
      during: async () => {},
    }),
  },
];

export const SERVICE_FAULTS: readonly FaultKind[] = [
  {
    name: "connection to the service cut before it read the request",
    hop: "service",
    make: () => ({ kind: "drop-request" }),
  },
  {
    name: "connection cut after the service acted",
    hop: "service",
    make: () => ({ kind: "drop-response" }),
  },
  {
    name: "request reaches the service after the relay's timeout",
    hop: "service",
    make: (t, random) => ({ kind: "delay-request", ms: past(t.relayTimeoutMs, random) }),
  },
  {
    name: "service answers after the relay's timeout",
    hop: "service",
    make: (t, random) => ({ kind: "delay-response", ms: past(t.relayTimeoutMs, random) }),
  },
  {
    name: "short delay",
    hop: "service",
    silent: true,
    make: (t, random) => ({
      kind: "delay-response",
      ms: Math.round(t.relayTimeoutMs * (0.02 + random.next() * 0.2)),
    }),
  },
  {
    name: "service 500 or 503 on arrival",
    hop: "service",
    make: (_t, random) => ({ kind: "error-before", status: random.pick([500, 503]) }),
  },
  {
    name: "service 500 after it acted",
    hop: "service",
    make: () => ({ kind: "error-after", status: 500 }),
  },
  {
    name: "service 429 with Retry-After",
    hop: "service",
    applies: notAnScaAnswer,
    make: (t, random) => ({ kind: "rate-limit", retryAfterSeconds: t.retryAfterSeconds(random) }),
  },
  {
    name: "PROCESSING",
    hop: "service",
    signedOnly: true,
    protocol: true,
    make: () => ({ kind: "processing" }),
  },
  {
    name: "signed leg held past its challenge's expiry",
    hop: "service",
    signedOnly: true,
    applies: hasChallenge,
    make: () => ({ kind: "hold-past-expiry" }),
  },
];

/** The kinds that apply to a step on `hop`, by its label (`stepLabel`). */
export function applicable(hop: Hop, label: string): FaultKind[] {
  const signed = label.endsWith("(signed)");
  return (hop === "device" ? DEVICE_FAULTS : SERVICE_FAULTS).filter(
    (kind) => (signed || !kind.signedOnly) && (kind.applies?.(label) ?? true),
  );
}

/** The fault of `kind`, named for counting (the proxies record the fault with its name). */
export const inject = (kind: FaultKind, t: Timing, random: Random): ProxyFault => ({
  ...kind.make(t, random),
  label: `${kind.hop}: ${kind.name}`,
});

const byLabel = new Map(
  [...DEVICE_FAULTS, ...SERVICE_FAULTS].map((kind) => [`${kind.hop}: ${kind.name}`, kind]),
);

/** The name under which a relay restart that cut a request is counted. */
export const RESTART_CUT = "device: connection cut by a relay restart";

/**
 * The faults a flow's device saw, each with the device step it hit: a device-hop fault that is
 * not silent (a restart counts where it cut a request, which may be another flow's), and a
 * service-hop fault after which the device's request got no answer, a 5xx or a 429 (the relay's
 * own retry of a lookup can absorb one). PROCESSING is the protocol and is not counted.
 */
export function seenFaults(
  device: readonly ProxyRecord[],
  service: readonly ProxyRecord[],
  step: (record: ProxyRecord) => number | undefined,
): { name: string; step: number }[] {
  const seen: { name: string; step: number }[] = [];
  const byIndex = new Map(device.map((record) => [record.index, record]));
  for (const record of device) {
    if (record.unreachable) seen.push({ name: RESTART_CUT, step: record.index });
    const kind = record.fault?.label === undefined ? undefined : byLabel.get(record.fault.label);
    if (kind === undefined || kind.silent || kind.protocol || record.fault?.kind === "interrupt")
      continue;
    seen.push({ name: record.fault?.label ?? "", step: record.index });
  }
  for (const record of service) {
    const kind = record.fault?.label === undefined ? undefined : byLabel.get(record.fault.label);
    if (kind === undefined || kind.silent || kind.protocol) continue;
    const index = step(record);
    const answered = index === undefined ? undefined : byIndex.get(index);
    if (answered !== undefined && abnormal(answered))
      seen.push({ name: record.fault?.label ?? "", step: index ?? 0 });
  }
  return seen;
}

/** An answer the device could tell from a normal one: none, a 5xx, or a 429. */
export const abnormal = (record: Pick<ProxyRecord, "status">) =>
  record.status === undefined || record.status >= 500 || record.status === 429;
