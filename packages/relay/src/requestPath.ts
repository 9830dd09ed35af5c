// Path validation: the upstream URL is built from the base URL and these checked segments only.
import { RelayRefusal } from "./errors.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const CONTROL = /[\u0000-\u001f\u007f]/;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

function malformed(reason: string): RelayRefusal {
  return new RelayRefusal("INVALID_INPUT", "The request path is malformed.", { reason });
}

/**
 * Checks the raw path of a request (no query) and splits it into decoded segments.
 * Refuses, with 400 `INVALID_INPUT`: control characters and spaces, backslashes (raw or `%5c`),
 * encoded slashes (`%2f`), empty segments (`//`, a trailing `/`), dot segments (`.`, `..`,
 * `%2e%2e`), bad percent-encoding, and a `%` left after decoding (double encoding).
 *
 * @throws {RelayRefusal} when the path is malformed.
 * @example splitPath("/api/grid/quotes/Quote%3A0f…") // ["api", "grid", "quotes", "Quote:0f…"]
 */
export function splitPath(path: string): string[] {
  if (!path.startsWith("/")) throw malformed("path must start with /");
  if (CONTROL.test(path) || path.includes(" ")) throw malformed("control character in path");
  if (path.includes("\\")) throw malformed("backslash in path");
  const raw = path.slice(1).split("/");
  const segments: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const segment = raw[i]!;
    if (segment === "") throw malformed("empty path segment");
    if (DOT_SEGMENT.test(segment)) throw malformed("dot segment in path");
    // Without a `%` the segment decodes to itself, and the path's own checks above already
    // cover every check of the decoded form below: nothing to decode or check again.
    if (!segment.includes("%")) {
      segments.push(segment);
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw malformed("bad percent-encoding in path");
    }
    if (decoded.includes("/") || decoded.includes("\\")) throw malformed("encoded slash in path");
    if (decoded.includes("%")) throw malformed("double percent-encoding in path");
    if (decoded === "." || decoded === "..") throw malformed("dot segment in path");
    if (CONTROL.test(decoded)) throw malformed("control character in path");
    segments.push(decoded);
  }
  return segments;
}

/**
 * Checks a raw HTTP request target (`req.url` in Node: origin-form, path and optional query).
 * Absolute-form (`http://host/…`), authority-form and `//host` targets are refused, so no
 * request can name another host.
 *
 * @returns the path's decoded segments (as {@link splitPath} gives them), so they are split once.
 * @throws {RelayRefusal} 400 `INVALID_INPUT` when the target is malformed.
 */
export function checkRequestTarget(target: string): string[] {
  if (!target.startsWith("/") || target.startsWith("//")) {
    throw malformed("request target must be a path");
  }
  const query = target.indexOf("?");
  const hash = target.indexOf("#");
  if (hash !== -1) throw malformed("fragment in request target");
  const segments = splitPath(query === -1 ? target : target.slice(0, query));
  if (query !== -1 && CONTROL.test(target.slice(query))) throw malformed("control character");
  return segments;
}

/** Splits a base path such as `/api/grid` into segments; `""` or `/` is the root. */
export function basePathSegments(basePath: string): string[] {
  if (basePath === "" || basePath === "/") return [];
  const trimmed = basePath.endsWith("/") ? basePath.slice(0, -1) : basePath;
  try {
    return splitPath(trimmed);
  } catch {
    throw new TypeError(`"basePath" expected a path such as /api/grid, got ${basePath}`);
  }
}
