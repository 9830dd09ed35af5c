// Which fetch handlers are relays, and how each answers a request without a web `Response`:
// toNodeHandler(relay) then serves Node's requests through it (toNodeHandler.ts).
import type { RelayAnswer } from "./errors.js";
import type { RelayIncoming } from "./incoming.js";

/** A relay's answer to a request, before any `Response` is built. */
export type NativeRelay = (incoming: RelayIncoming) => Promise<RelayAnswer>;

const relays = new WeakMap<object, NativeRelay>();

/** Records that `handler` is a relay answering through `answer`. */
export function registerNativeRelay(handler: object, answer: NativeRelay): void {
  relays.set(handler, answer);
}

/** The native answer of `handler` when createRelay made it, else `undefined`. */
export function nativeRelay(handler: object): NativeRelay | undefined {
  return relays.get(handler);
}
