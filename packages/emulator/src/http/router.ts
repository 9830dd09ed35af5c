// Route table: method + path pattern (`/auth/credentials/:id/verify`) to handler, with 404 for
// unknown paths and 405 (with `Allow`) for a known path and the wrong method.
import type { Schema } from "../validation.js";
import type { RequestContext } from "./context.js";

/** A route handler. */
export type Handler = (ctx: RequestContext) => Response | Promise<Response>;

/**
 * One route. `body` is the schema its handler reads the JSON body with, declared here so the
 * check against the service's OpenAPI (test/specCheck.test.ts) can compare the two.
 */
export type Route = { method: string; pattern: string; handler: Handler; body?: Schema<unknown> };

/** The outcome of matching a request. */
export type RouteMatch =
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "method_not_allowed"; allow: string[] }
  | { kind: "not_found" };

type Compiled = { route: Route; segments: string[]; staticCount: number };

function split(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const part = parts[i]!;
    if (segment.startsWith(":")) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        return null;
      }
      params[segment.slice(1)] = decoded;
    } else if (segment !== part) return null;
  }
  return params;
}

/** Builds a matcher; when several patterns match, the one with more literal segments wins. */
export function createRouter(
  routes: readonly Route[],
): (method: string, path: string) => RouteMatch {
  const compiled: Compiled[] = routes.map((route) => {
    const segments = split(route.pattern);
    return { route, segments, staticCount: segments.filter((s) => !s.startsWith(":")).length };
  });
  return (method, path) => {
    const parts = split(path);
    let best: { c: Compiled; params: Record<string, string> } | undefined;
    const allow = new Set<string>();
    let bestPathScore = -1;
    for (const c of compiled) {
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      if (c.staticCount > bestPathScore) {
        bestPathScore = c.staticCount;
        allow.clear();
      }
      if (c.staticCount < bestPathScore) continue;
      allow.add(c.route.method);
      if (c.route.method === method && (!best || c.staticCount > best.c.staticCount)) {
        best = { c, params };
      }
    }
    if (best && best.c.staticCount === bestPathScore) {
      return { kind: "found", route: best.c.route, params: best.params };
    }
    if (allow.size > 0) return { kind: "method_not_allowed", allow: [...allow].sort() };
    return { kind: "not_found" };
  };
}
