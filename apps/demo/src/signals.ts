// Signals between the demo's parts: the demo server forgot this browser (signed out elsewhere, or
// restarted), or it says this device's wallet session ended. Listeners, not state: the shell acts.

type Signal = "demoSignedOut" | "walletSessionEnded";
const listeners = new Map<Signal, Set<() => void>>();

/** Calls `listener` each time `signal` is raised; returns the way to stop. */
export function onSignal(signal: Signal, listener: () => void): () => void {
  let set = listeners.get(signal);
  if (!set) {
    set = new Set();
    listeners.set(signal, set);
  }
  set.add(listener);
  return () => void set.delete(listener);
}

export function raise(signal: Signal): void {
  for (const listener of listeners.get(signal) ?? []) listener();
}
