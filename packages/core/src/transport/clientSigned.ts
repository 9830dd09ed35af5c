// The signed-request engine bound to a client's seams: its transport (with the call's own event
// sink on each HTTP leg), clocks, timers, idempotency keys from the client's crypto, and the push
// listener when the client was created with `push: true`. In the engine's chunk, which a client
// prefetches when it is made: the page holds only the call to it (client.ts `signed`).

import type { StampRequest } from "../crypto/api.js";
import { loadChunk } from "../crypto/chunk.js";
import type { RandomBytes } from "../crypto/random.js";
import type { Clock, RequestEvent, Transport } from "./http.js";
import { generateIdempotencyKey } from "./idempotencyKey.js";
import {
  type RunSignedRequestParameters,
  type RunSignedRequestReturnType,
  runSignedRequest,
} from "./signedRequest.js";
import type { SignContext } from "./signedRequestParameters.js";

/** The relay's push listener: its own chunk, loaded only by a client created with `push: true`. */
const loadPush = () => loadChunk(() => import("./push.js"));

/** What a client binds the engine to (client.ts). */
export type ClientSignedSeams = {
  transport: Transport;
  clock: Clock;
  timer: Clock;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  randomBytes: RandomBytes;
  /** `createClient`'s `signedRequests.timeoutMs`, under the call's own. */
  timeoutMs: number | undefined;
  allowUnknownPayloads: boolean;
  push: boolean;
  /** The client's `crypto.describeStamp`, when its keys live outside the page (`@signet/frame`). */
  describeStamp?: ((payloadToSign: string, request: StampRequest) => void) | undefined;
};

/**
 * Runs one signed request with a client's seams; `parameters` are the call's (its retry policy,
 * signal and hooks already resolved by the client), `sink` the call's own event sink, which
 * also hears each HTTP leg.
 * @example
 * ```ts
 * const { status, body } = await runClientSigned(seams, { method: "POST", path, body, sign }, onEvent);
 * ```
 */
export function runClientSigned<TBody>(
  seams: ClientSignedSeams,
  parameters: Partial<RunSignedRequestParameters<TBody>>,
  sink: ((event: RequestEvent) => void) | undefined,
): Promise<RunSignedRequestReturnType<TBody>> {
  const { transport, describeStamp } = seams;
  const { operation = "signedRequest", method = "POST", path = "", body, sign } = parameters;
  return runSignedRequest<TBody>({
    ...(seams.timeoutMs === undefined ? {} : { timeoutMs: seams.timeoutMs }),
    ...parameters,
    // A signer outside the page is told which request each payload belongs to, so that it runs
    // the operation's own check and shows what it signs (CryptoApi.describeStamp).
    ...(describeStamp && sign
      ? {
          sign: (payload: string, context: SignContext) => {
            describeStamp(payload, { operation, method, path, body, leg: context.leg });
            return sign(payload, context);
          },
        }
      : {}),
    allowUnknownPayloads: seams.allowUnknownPayloads,
    // The call's sink sees its HTTP legs too.
    transport: sink
      ? { relayUrl: transport.relayUrl, request: (r) => transport.request({ ...r, onEvent: sink }) }
      : transport,
    clock: seams.clock,
    timer: seams.timer,
    sleep: seams.sleep,
    random: seams.random,
    generateId: () => generateIdempotencyKey(seams.randomBytes),
    ...(seams.push
      ? {
          waitForPush: async (requestId, pushSignal, request) =>
            (await loadPush()).waitForPush(transport, requestId, pushSignal, request),
        }
      : {}),
  } as RunSignedRequestParameters<TBody>);
}
