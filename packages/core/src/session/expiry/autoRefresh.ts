// The session watcher and automatic refresh, as the entry points wire them (docs/architecture.md
// "Sessions"): the client itself knows no flow; `watchSessionExpiry` subscribes to it, and is
// handed `refreshSession` when `autoRefresh` is set.
import { refreshSession } from "../../catalog/chunks/lazy.js";
import type { CreateClientParameters, SignetClient } from "../../client.js";
import { assertArgument } from "../../errors/errors.js";
import { SESSION_EXPIRY_MARGIN_MS, SESSION_LIFETIME_MS } from "./lapse.js";

/** Default margin: refresh a minute before expiry. */
export const DEFAULT_REFRESH_MARGIN_MS = 60_000;

/**
 * The margin that `autoRefresh` asks for, or `undefined` when it is off.
 * @throws {SignetError} `INVALID_ARGUMENT` for a margin that is not a finite number of ms in
 * [0, 15 min − 5 s): every fresh session would already be due, and refreshes would loop.
 */
export function refreshMargin(option: CreateClientParameters["autoRefresh"]): number | undefined {
  if (option === undefined || option === false) return undefined;
  const marginMs = option === true ? DEFAULT_REFRESH_MARGIN_MS : option?.marginMs;
  if (marginMs === undefined) return DEFAULT_REFRESH_MARGIN_MS;
  assertArgument(
    typeof marginMs === "number" &&
      marginMs >= 0 &&
      marginMs < SESSION_LIFETIME_MS - SESSION_EXPIRY_MARGIN_MS,
    "autoRefresh.marginMs",
    `a number of ms in [0, ${SESSION_LIFETIME_MS - SESSION_EXPIRY_MARGIN_MS})`,
    String(marginMs),
  );
  return marginMs;
}

/**
 * Wraps an entry point's `createClient` so that every client starts `watchSessionExpiry` (the
 * expiry warning, dropping expired sessions, the checks after a sleep), with `refreshSession`
 * when `autoRefresh` asks for it.
 * @throws {SignetError} `INVALID_ARGUMENT` for a refresh margin that would loop.
 */
export function withAutoRefresh(
  createClient: (parameters: CreateClientParameters) => SignetClient,
): (parameters: CreateClientParameters) => SignetClient {
  return (parameters) => {
    const marginMs = refreshMargin(parameters?.autoRefresh);
    const client = createClient(parameters);
    const { appState } = parameters;
    import("./watchSessionExpiry.js").then(
      ({ watchSessionExpiry }) =>
        watchSessionExpiry(client, {
          ...(marginMs === undefined ? {} : { marginMs, refresh: refreshSession }),
          ...(appState ? { appState } : {}),
        }),
      () => {
        // The chunk could not load: held sessions then expire normally, as after a failed refresh.
      },
    );
    return client;
  };
}
