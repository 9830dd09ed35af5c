// The relay's push channel (docs/protocol.md "Webhooks"): the service posts each wallet
// operation's end to the relay as a signed webhook (its #802), and the relay hands it to the
// device waiting on that request at `GET {relayUrl}/wallet-operations/{requestId}`. One long
// poll per wait, its answer framed as a server-sent event: read whole with `fetch`, so it works
// where `EventSource` does not exist (React Native's Hermes). Loaded only by a client created with
// `push: true`, as its own chunk. What it hears only ends a wait: never a result, never a check.
import type { Transport } from "./http.js";
import type { WalletOperationPush } from "./signedRequestParameters.js";

/** The signed requests whose end the service reports by webhook (#802's four operations). */
const PUSHED = [
  /^POST \/auth\/credentials$/,
  /^DELETE \/auth\/credentials\/[^/?]+$/,
  /^DELETE \/auth\/sessions\/[^/?]+$/,
  /^POST \/internal-accounts\/[^/?]+\/export$/,
];

const OPERATION_TYPES: ReadonlySet<string> = new Set([
  "auth_credential.create",
  "auth_credential.delete",
  "session.revoke",
  "wallet.export",
]);

/**
 * Long polls in a row, at most: the relay holds each about 25 s, so this outlasts any wait the
 * engine makes; a relay answering 204 at once cannot make a device spin.
 */
const MAX_POLLS = 40;

/** The pushed event in the relay's answer, when it is the end of `requestId`'s operation. */
export function readPush(text: string, requestId: string): WalletOperationPush | undefined {
  const line = text.split("\n").find((l) => l.startsWith("data:"));
  if (line === undefined) return undefined;
  let event: { data?: Record<string, unknown> };
  try {
    event = JSON.parse(line.slice(5)) as typeof event;
  } catch {
    return undefined;
  }
  const data = event?.data;
  const { operationType, status, resourceId } = data ?? {};
  const code = (data?.error as { code?: unknown } | undefined)?.code;
  // Only the request this device sent: a push for any other ends nothing.
  if (
    data?.requestId !== requestId ||
    typeof operationType !== "string" ||
    !OPERATION_TYPES.has(operationType) ||
    (status !== "completed" && status !== "failed") ||
    typeof resourceId !== "string"
  )
    return undefined;
  return {
    requestId,
    operationType: operationType as WalletOperationPush["operationType"],
    status,
    resourceId,
    ...(status === "failed" && typeof code === "string" ? { errorCode: code } : {}),
  };
}

/**
 * Waits for the pushed end of the signed request `requestId` through the relay: resolves with
 * it, or `undefined` when none will come here (not one of the four operations, the relay has no
 * receiver or refuses, no answer); stops when `signal` aborts.
 */
export async function waitForPush(
  transport: Transport,
  requestId: string,
  signal: AbortSignal,
  request: { method: string; path: string },
): Promise<WalletOperationPush | undefined> {
  const route = `${request.method} ${request.path.split("?")[0]}`;
  if (!PUSHED.some((pattern) => pattern.test(route))) return undefined;
  for (let poll = 0; poll < MAX_POLLS && !signal.aborted; poll++) {
    let answer: Awaited<ReturnType<Transport["request"]>>;
    try {
      answer = await transport.request({
        method: "GET",
        path: `/wallet-operations/${encodeURIComponent(requestId)}`,
        headers: { Accept: "text/event-stream" },
        signal,
        timeoutMs: 60_000,
      });
    } catch {
      return undefined;
    }
    // 204: the relay's wait lapsed with nothing yet; ask again.
    if (answer.status === 204) continue;
    return answer.status === 200 ? readPush(answer.text, requestId) : undefined;
  }
  return undefined;
}
