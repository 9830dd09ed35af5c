// The event log: every HTTP leg the page makes (relay legs from the client's onEvent, demo
// endpoint calls from demoApi), already redacted: paths, statuses and stages, never bodies.
import type { SignetEvent } from "@signet/core";
import { useSyncExternalStore } from "react";

export type LogEntry = { id: number; at: number; text: string; tone: "ok" | "error" | "info" };

let entries: readonly LogEntry[] = [];
let next = 1;
const listeners = new Set<() => void>();

// Ids in paths are kept (they are not secrets); query values that could carry one are dropped.
const redactPath = (path: string) => path.replace(/([?&][^=&]+)=[^&]*/g, "$1=…");

export function logLine(text: string, tone: LogEntry["tone"] = "info"): void {
  entries = [{ id: next++, at: Date.now(), text, tone }, ...entries].slice(0, 200);
  for (const listener of listeners) listener();
}

const rejectedListeners = new Set<() => void>();

/**
 * Calls `listener` when a call made with a session is refused with 401: the session was revoked
 * elsewhere (another tab or device) or ended, and this device should let it go. Sign-in attempts
 * (`/auth/credentials/…/verify` and `…/challenge`) are the user's to retry and do not count.
 */
export function onSessionRejected(listener: () => void): () => void {
  rejectedListeners.add(listener);
  return () => void rejectedListeners.delete(listener);
}

const unauthorizedListeners = new Set<() => void>();

/**
 * Calls `listener` on every 401 of the relay, sign-in attempts included: the relay refuses
 * everything once the demo server no longer knows the browser's cookie (it restarted, or the
 * user left the demo in another tab), and only signing in to the demo again helps.
 */
export function onRelayUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => void unauthorizedListeners.delete(listener);
}

export function logSignetEvent(event: SignetEvent): void {
  switch (event.type) {
    case "request": {
      if (event.status === 401) for (const listener of unauthorizedListeners) listener();
      if (
        event.status === 401 &&
        !/^\/auth\/credentials\/[^/]+\/(verify|challenge)/.test(event.path)
      )
        for (const listener of rejectedListeners) listener();
      // A request the app stopped itself (a screen closed, an autofill offer withdrawn) is not a
      // failure: it reads as stopped, in the log's plain colour.
      const stopped = event.status === undefined && event.code === "ABORTED";
      const outcome = stopped ? "stopped by the app" : (event.status ?? event.code ?? "no answer");
      const ok = event.status !== undefined && event.status < 400;
      logLine(
        `${event.method} /api/grid${redactPath(event.path)} → ${outcome}${event.signed ? " · signed" : ""} · ${Math.round(event.durationMs)} ms`,
        ok ? "ok" : stopped ? "info" : "error",
      );
      return;
    }
    case "signedRequest":
      logLine(
        `${event.operation ?? event.method} · ${event.stage} (leg ${event.leg})`,
        event.stage === "failed" && event.code !== "ABORTED" ? "error" : "info",
      );
      return;
    case "session":
      logLine(`session ${event.action} · ${event.sessionId.slice(0, 16)}…`, "info");
      return;
    case "bundleWarning":
      logLine(`bundle accepted unsigned (sandbox): ${event.bundle}`, "error");
      return;
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export function useLog(): readonly LogEntry[] {
  return useSyncExternalStore(subscribe, () => entries);
}

export function clearLog(): void {
  entries = [];
  for (const listener of listeners) listener();
}
