// Everything one emulator instance carries: options, clock, keys, ids, state, faults and log.
import type { EmulatorClock } from "./clock.js";
import type { FaultQueue } from "./faults.js";
import type { IdFactory } from "./ids.js";
import type { EmulatorKeys } from "./keys.js";
import type { ResolvedOptions } from "./options.js";
import type { RequestLog } from "./requestLog.js";
import type { EmulatorState } from "./state.js";
import type { WebhookSender } from "./webhooks.js";

/** One emulator instance; `state` and `ids` are replaced on reset. */
export interface Runtime {
  readonly options: ResolvedOptions;
  readonly clock: EmulatorClock;
  readonly keys: EmulatorKeys;
  readonly faults: FaultQueue;
  readonly log: RequestLog;
  readonly webhooks: WebhookSender;
  ids: IdFactory;
  state: EmulatorState;
}
