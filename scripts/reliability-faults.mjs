// RELIABILITY.md's "Fault soak" and "Single-fault matrix" sections, from the counts of
// test/reliability/soak.ts and test/reliability/matrix.ts (scripts/reliability.mjs collects them).

const n = (v) => Number(v).toLocaleString("en-US");
const zero = (v) => (v === 0 ? "0" : `**${n(v)}**`);
const pct = (part, whole) => `${((100 * part) / Math.max(1, whole)).toFixed(2)}%`;

/** What the time limits were, said once for both suites. */
function timingText(scale) {
  if (scale === 1)
    return "the libraries' defaults, untouched: each client is made with no `retry` and no `requestTimeoutMs` (30 s per attempt, 3 retries, backoff 500 ms doubling to 8 s with full jitter, `Retry-After` honoured up to 30 s, 120 s per unsigned call), the relay with no `timeoutMs` or `ownershipCacheTtlMs` (30 s per call to the service, ownership facts kept an hour), and the emulator's challenges live its default 5 minutes";
  return `every time limit scaled by ${scale}: 30 s per attempt → ${n(30_000 * scale)} ms, backoff ${n(500 * scale)} ms doubling to ${n(8_000 * scale)} ms, \`Retry-After\` up to ${n(30_000 * scale)} ms, the relay's calls ${n(30_000 * scale)} ms, ownership facts ${n(3_600_000 * scale)} ms, challenges ${n(300_000 * scale)} ms`;
}

const sortedTallies = (map) =>
  Object.entries(map).sort((a, b) => b[1].flows - a[1].flows || a[0].localeCompare(b[0]));

export function faultSections(soak, matrix) {
  const failed = soak.faultedFlows - soak.faultedCompleted;
  const lines = [
    "## Fault soak",
    "",
    `${n(soak.flows)} whole flows (seed ${soak.seed}, ${n(soak.concurrency)} at a time, ${n(soak.requests)} device requests, ${Math.round(soak.durationMs / 1000)} s; a flow took ${n(Math.round(soak.flowMs.p50 / 100) / 10)} s at the median, ${n(Math.round(soak.flowMs.p99 / 100) / 10)} s at the 99th centile, ${n(Math.round(soak.flowMs.max / 100) / 10)} s at most) through \`@signet/core\` → fault proxy → \`@signet/relay\` → fault proxy → \`@signet/emulator\`, real sockets on 127.0.0.1 (\`test/reliability/chain.ts\`). Each flow is a fresh customer and a fresh client; faults the sign-in before a flow's own part meets count too. Each request between the device and the relay meets a fault with probability ${soak.deviceRate}, each between the relay and the service (the relay's ownership lookups included) with ${soak.serviceRate}, so a flow can meet several. A relay restart is one of the faults: each flow reaches a relay instance of its own (one process per user in all but name), and a restart cuts that flow's requests in it and empties its ownership cache. Time limits: ${timingText(soak.scale)}. Injected delays past a limit hold a request or its answer 1.1 to 1.6 times that limit; a request held past the client's timeout is still delivered afterwards (a late delivery). After each flow, once its last late request has landed, it signs out on a clean path, and the service's list of the account's sessions must be empty. The emulator's ledger is the judge of payments: each wallet's balance must equal its funding less its quote's total if, and only if, the quote was executed.`,
    "",
    `The measure is the flows that met at least one fault their device saw: a fault on the device's own hop (a short delay aside), a relay restart that cut one of its requests, or a fault between the relay and the service after which the device's request got no answer, a 5xx or a 429 (the relay's own retry of a lookup absorbs some). PROCESSING answers are the protocol, not a fault. Of ${n(soak.injected.device)} faults injected between the devices and the relay and ${n(soak.injected.service)} between the relay and the service, the devices saw ${n(soak.seen)}.`,
    "",
    "| must never happen | count |",
    "|---|---|",
    `| double executions (the ledger) | ${zero(soak.doubleExecutions)} |`,
    `| ledger mismatches of any kind | ${zero(soak.ledgerMismatches)} |`,
    `| request ids reused after a terminal answer | ${zero(soak.requestIdReusedAfterTerminal)} |`,
    `| retries that sent a different body under one request id or idempotency key | ${zero(soak.retriesWithDifferentBody)} |`,
    `| flows that hung past their deadline | ${zero(soak.hungPastDeadline)} |`,
    `| failures without a typed \`SignetError\` code | ${zero(soak.untypedFailures)} |`,
    `| session keys left in the key store after sign-out | ${zero(soak.keysLeftAfterSignOut)} |`,
    `| sessions still live at the service after sign-out (orphans) | ${zero(soak.orphanSessions)} |`,
    `| faulted flows that did not complete | ${zero(failed)} of ${n(soak.faultedFlows)} (${pct(soak.faultedCompleted, soak.faultedFlows)} completed; target ≥ 99%) |`,
    "",
    `${n(soak.faultedFlows)} of ${n(soak.flows)} flows met a fault their device saw, ${n(soak.multiFaultFlows)} of them more than one (at most ${n(soak.maxFaultsInAFlow)} in one flow); ${n(soak.recovered)} of those that completed got there through a recovery (a retry, a wait on \`Retry-After\`, a fresh challenge, or an outcome read back from the service). Two answers the library hands to the app, which the soak's app handles as an app would (once or twice per flow, counted here): a code request delivered late (after the device had asked again and been answered) issues a newer code, which supersedes the one the device sealed to, and the service refuses the older bundle, so the app asks the user for the newest code (${n(soak.codesAskedAgain)} sign-ins); and an SCA login start delivered late supersedes the login the device is completing, whose completion the service refuses, so the app authorizes the payment again (${n(soak.scaAskedAgain)} payments; the SCA flow's own recovery does not start a login over on that answer).`,
    "",
    "| flow | flows | met a fault | completed | failed |",
    "|---|---|---|---|---|",
    ...Object.entries(soak.outcomes).map(
      ([kind, v]) =>
        `| ${kind} | ${n(v.completed + v.failed)} | ${n(v.faulted)} | ${n(v.completed)} | ${v.failed ? `**${n(v.failed)}**` : "0"} |`,
    ),
    "",
    "Per fault kind: the flows that met it (their device saw it), and how many of them completed.",
    "",
    "| fault | flows that met it | completed |",
    "|---|---|---|",
    ...sortedTallies(soak.byKind).map(
      ([kind, v]) =>
        `| ${kind} | ${n(v.flows)} | ${n(v.completed)} (${pct(v.completed, v.flows)}) |`,
    ),
    "",
    "Per step: the device request a fault met (a fault between the relay and the service counts at the device request it served), the flows that met one there, and how many completed.",
    "",
    "| step | flows that met a fault there | completed |",
    "|---|---|---|",
    ...sortedTallies(soak.byStep).map(
      ([step, v]) =>
        `| \`${step}\` | ${n(v.flows)} | ${n(v.completed)} (${pct(v.completed, v.flows)}) |`,
    ),
    "",
  ];
  if (Object.keys(soak.failureCodes).length > 0)
    lines.push(
      "Faulted flows that did not complete, by flow and the code the app saw:",
      "",
      "| flow: code | count |",
      "|---|---|",
      ...Object.entries(soak.failureCodes)
        .sort((a, b) => b[1] - a[1])
        .map(([key, count]) => `| ${key} | ${n(count)} |`),
      "",
    );
  lines.push(...traceLines(soak.failures ?? []));
  lines.push(...matrixSection(matrix));
  return lines;
}

/** A service id in a path or a label, as the steps name it: `{Kind}`. */
const templated = (text) => text.replace(/\b([A-Z][A-Za-z]+):[0-9a-f-]{36}\b/g, "{$1}");

/**
 * Every flow that did not complete, from its trace (test/reliability/chain.ts `FlowTrace`): the
 * code and message the app saw, the faults its requests met (hop, kind, the device step), and its
 * device's requests and retries in time order, so that a run says why its failures failed.
 */
export function traceLines(failures) {
  if (failures.length === 0) return [];
  const seconds = (line) =>
    line.replace(/^\+(\d+)ms /, (_, ms) => `+${(Number(ms) / 1000).toFixed(1)} s `);
  return [
    "Flows that did not complete, or left a session or a key behind after the sign-out, each with its trace: the code and message the app saw (`completed` for a flow that did), the faults injected into its requests (PROCESSING and silent ones included) at the device step they met, then its device's requests and retries in time order from the flow's start (a request at the moment its answer came, or the failure that ended it, with how long it took; a retry with its reason and wait). A flow that met no fault its device saw is outside the measure above, and said so.",
    "",
    ...failures.map((f) => {
      const faults =
        f.faults.length === 0
          ? "none injected"
          : f.faults
              .map(
                (x) =>
                  `${x.fault} at #${x.step ?? "?"} \`${templated(x.label)}\` (${x.answered === "none" ? "no answer" : x.answered})`,
              )
              .join("; ");
      const details =
        f.details && Object.keys(f.details).length > 0 ? ` ${JSON.stringify(f.details)}` : "";
      const steps = f.events
        .filter((line) => / (request|retry) /.test(line))
        .map((line) => seconds(templated(line)));
      const left = [
        f.orphans
          ? `${f.orphans} session${f.orphans > 1 ? "s" : ""} still live after the sign-out`
          : "",
        f.keysLeft ? "keys left in the key store" : "",
      ].filter(Boolean);
      return `- flow ${f.flow}, ${f.kind}${f.faulted ? "" : " (met no fault its device saw)"}${left.length ? ` (${left.join(", ")})` : ""}: \`${f.code}\` "${f.message}"${details} after ${(f.durationMs / 1000).toFixed(1)} s. Faults: ${faults}. Device: ${steps.join("; ") || "no request"}.`;
    }),
    "",
  ];
}

function matrixSection(matrix) {
  const steps = Object.entries(matrix.steps).flatMap(([flow, list]) =>
    list.map(
      (step) => `${flow}: \`${step.label}\`${step.occurrence > 1 ? ` (#${step.occurrence})` : ""}`,
    ),
  );
  const lines = [
    "## Single-fault matrix",
    "",
    `\`test/reliability.matrix.test.ts\` (seed ${matrix.seed}, ${Math.round(matrix.durationMs / 1000)} s): ${matrix.full ? "every" : "a sample of the"} cell${matrix.full ? "" : "s"} of fault kind × hop × step, on the same chain with the same time limits (${timingText(matrix.scale)}), one fault per run. A step is a request the device makes in a clean run of a flow's own part (the sign-in's steps are the sign-in flow's; a transaction's repeated poll is one step); a fault between the relay and the service hits the relay's call that forwards that step. Two kinds apply where they can: a hold past the challenge's expiry and PROCESSING on signed legs (no hold on quote execute, which has no challenge), and no 429 on an SCA answer (a quote's authorization, an SCA login), where the service's 429 counts refused answers and the library hands it to the app by design.`,
    "",
    `${n(steps.length)} steps: ${steps.join("; ")}.`,
    "",
    "| must never happen | count |",
    "|---|---|",
    `| a cell that did not complete | ${zero(matrix.cells - matrix.completed)} of ${n(matrix.cells)} (${pct(matrix.completed, matrix.cells)} completed; target 100%) |`,
    `| a cell whose step was not reached as in the clean run | ${zero(matrix.notReached)} |`,
    `| sessions still live at the service after sign-out (orphans) | ${zero(matrix.orphanSessions)} |`,
    `| session keys left after sign-out | ${zero(matrix.keysLeftAfterSignOut)} |`,
    `| double executions | ${zero(matrix.doubleExecutions)} |`,
    `| request ids reused after a terminal answer | ${zero(matrix.requestIdReusedAfterTerminal)} |`,
    `| retries that sent a different body under one request id or idempotency key | ${zero(matrix.retriesWithDifferentBody)} |`,
    `| hung, or failed without a typed code | ${zero(matrix.hungPastDeadline + matrix.untypedFailures)} |`,
    "",
    "| fault | cells | completed |",
    "|---|---|---|",
    ...Object.entries(matrix.byKind).map(
      ([kind, v]) => `| ${kind} | ${n(v.cells)} | ${n(v.completed)} |`,
    ),
    "",
    "| flow: step | cells | completed |",
    "|---|---|---|",
    ...Object.entries(matrix.byStep).map(
      ([step, v]) => `| ${step.replace(/: (.*)$/, ": `$1`")} | ${n(v.cells)} | ${n(v.completed)} |`,
    ),
    "",
  ];
  if (matrix.failures.length > 0)
    lines.push(
      "| failed cell: flow, step, fault | code |",
      "|---|---|",
      ...matrix.failures.map((f) => `| ${f.flow}, \`${f.step}\`, ${f.fault} | ${f.code} |`),
      "",
    );
  if (matrix.askedAgain.length > 0)
    lines.push(
      `Cells where the app asked again, for a newer code or a payment's authorization (a late code request or SCA login start superseded the one held, as above): ${matrix.askedAgain
        .map((c) => `${c.flow}, \`${c.step}\`, ${c.fault}`)
        .join("; ")}.`,
      "",
    );
  return lines;
}
