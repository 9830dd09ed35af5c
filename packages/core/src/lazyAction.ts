// Flows a page may never use (a card's delegated keys, a contact change, export, …) load as chunks
// on their first call, so a page pays for them only when it uses them (docs/architecture.md
// "Entry points").
import { SignetError } from "./errors.js";

/**
 * An action whose module loads on its first call; the action then runs as if imported directly.
 *
 * @throws {SignetError} `NETWORK` (retryable) when the chunk cannot load; else what the action throws.
 * @example
 * ```ts
 * export const revokeDelegatedKey = lazyAction(() =>
 *   import("./actions/revokeDelegatedKey.js").then((m) => m.revokeDelegatedKey),
 * );
 * ```
 */
export function lazyAction<TArgs extends unknown[], TReturn>(
  load: () => Promise<(...args: TArgs) => Promise<TReturn>>,
): (...args: TArgs) => Promise<TReturn> {
  return async (...args) => {
    let action: (...args: TArgs) => Promise<TReturn>;
    try {
      action = await load();
    } catch (cause) {
      throw new SignetError("NETWORK", "could not load a part of Signet", {
        cause,
        retryable: true,
      });
    }
    return action(...args);
  };
}
