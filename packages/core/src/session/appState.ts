// When the app comes back to the foreground (docs/architecture.md "Sessions"): a tab shown again
// or focused, a page restored from the back/forward cache. Timers do not run while a device
// sleeps, so held sessions are checked again then. The browser's `document` is looked up when the
// watcher first subscribes, never at import, so server rendering and Hermes load this file.

/**
 * Calls `onActive` whenever the app returns to the foreground; returns a function that stops.
 * The browser default listens to `visibilitychange`, `focus` and `pageshow`. In React Native,
 * pass one over `AppState`:
 *
 * @example
 * ```ts
 * import { AppState } from "react-native";
 * const appState: AppStateSource = (onActive) => {
 *   const subscription = AppState.addEventListener("change", (state) => {
 *     if (state === "active") onActive();
 *   });
 *   return () => subscription.remove();
 * };
 * const client = createClient({ relayUrl, keyStore, appState });
 * ```
 */
export type AppStateSource = (onActive: () => void) => () => void;

type EventTargetLike = {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
};

/** The browser's foreground signals, where there is a `document`; elsewhere nothing ever fires. */
export const browserAppState: AppStateSource = (onActive) => {
  const scope = globalThis as {
    document?: EventTargetLike & { visibilityState?: string };
  } & Partial<EventTargetLike>;
  const { document } = scope;
  if (typeof document?.addEventListener !== "function") return () => {};
  const onVisibility = () => {
    if (document.visibilityState !== "hidden") onActive();
  };
  document.addEventListener("visibilitychange", onVisibility);
  const onWindow = typeof scope.addEventListener === "function";
  if (onWindow) {
    scope.addEventListener?.("focus", onActive);
    scope.addEventListener?.("pageshow", onActive);
  }
  return () => {
    document.removeEventListener("visibilitychange", onVisibility);
    if (onWindow) {
      scope.removeEventListener?.("focus", onActive);
      scope.removeEventListener?.("pageshow", onActive);
    }
  };
};
