// The route table compiled once at startup: each pattern split into literal and placeholder
// segments, grouped by segment count, so a request is matched without splitting or parsing a
// pattern (routes.ts's `matchRoute` gives the same answers; routeMatcher.test.ts checks it).
import {
  isIdOfKind,
  isOpaqueSegment,
  OPAQUE_SEGMENTS,
  type RelayIdKind,
  type RelayOpaqueSegment,
  type RelayPathId,
  type RelayRoute,
  type RouteMatch,
} from "./routes.js";

// Kept in step with routes.ts, which does not export them.
const PLACEHOLDER = /^\{([A-Za-z]+)\}$/;

type Part = { readonly literal: string } | { readonly kind: RelayIdKind | RelayOpaqueSegment };

interface CompiledRoute {
  readonly route: RelayRoute;
  readonly parts: readonly Part[];
}

/** A matched route and the path to call the service on, rebuilt from its checked ids. */
export type CompiledMatch =
  | (Extract<RouteMatch, { kind: "matched" }> & { readonly upstreamPath: string })
  | Exclude<RouteMatch, { kind: "matched" }>;

/** Finds the route of a method and the decoded segments below the base path. */
export type RouteMatcher = (method: string, segments: readonly string[]) => CompiledMatch;

function compile(route: RelayRoute): CompiledRoute {
  const parts = route.path
    .split("/")
    .slice(1)
    .map((part): Part => {
      const kind = PLACEHOLDER.exec(part)?.[1];
      return kind === undefined
        ? { literal: part }
        : { kind: kind as RelayIdKind | RelayOpaqueSegment };
    });
  return { route, parts };
}

function matchParts(parts: readonly Part[], segments: readonly string[]): RelayPathId[] | null {
  const ids: RelayPathId[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const segment = segments[i]!;
    if ("literal" in part) {
      if (part.literal !== segment) return null;
    } else if (isOpaqueSegment(part.kind)) {
      if (!OPAQUE_SEGMENTS[part.kind].test(segment)) return null;
      ids.push({ kind: part.kind, value: segment });
    } else {
      if (!isIdOfKind(segment, part.kind)) return null;
      ids.push({ kind: part.kind, value: segment });
    }
  }
  return ids;
}

function upstreamPath(parts: readonly Part[], ids: readonly RelayPathId[]): string {
  let path = "";
  let id = 0;
  for (const part of parts) path += `/${"literal" in part ? part.literal : ids[id++]!.value}`;
  return path;
}

/** Compiles `routes` once; the matcher answers as routes.ts's `matchRoute` over the same table. */
export function compileRoutes(routes: readonly RelayRoute[]): RouteMatcher {
  const bySegments = new Map<number, CompiledRoute[]>();
  for (const route of routes) {
    const compiled = compile(route);
    const group = bySegments.get(compiled.parts.length);
    if (group === undefined) bySegments.set(compiled.parts.length, [compiled]);
    else group.push(compiled);
  }
  return (method, segments) => {
    // Made only for a path whose routes take other methods: a match never needs it.
    let allow: string[] | undefined;
    for (const { route, parts } of bySegments.get(segments.length) ?? []) {
      const ids = matchParts(parts, segments);
      if (ids === null) continue;
      if (route.method === method) {
        return { kind: "matched", route, ids, upstreamPath: upstreamPath(parts, ids) };
      }
      allow ??= [];
      if (!allow.includes(route.method)) allow.push(route.method);
    }
    return allow !== undefined ? { kind: "method", allow } : { kind: "none" };
  };
}
