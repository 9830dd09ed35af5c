// The demo server's HTTP pieces shared by its routes: the refusal type, JSON bodies, the
// security headers every answer carries, and the built app's files.
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize } from "node:path";

/** A refusal of the demo server: its status, a stable code and a message written for the user. */
export class DemoError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The page reveals mnemonics and holds session keys: only its own scripts, styles and origin. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The page's policy; with the signer frame on (`frameOrigin`), the page may frame that origin,
 * and nothing else.
 */
export function contentSecurityPolicy(frameOrigin?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    ...(frameOrigin ? [`frame-src ${frameOrigin}`] : []),
    "frame-ancestors 'none'",
  ].join("; ");
}

export const SECURITY_HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** The last value of a comma-separated header a trusted proxy appends to. */
export function lastOf(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(",") : header;
  const last = value?.split(",").pop()?.trim();
  return last ? last : undefined;
}

/** The request's JSON object body (`{}` when empty); 413 past 16 KiB, 400 for anything else. */
export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 16_384) throw new DemoError(413, "TOO_LARGE", "The request body is too large.");
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {}
  throw new DemoError(400, "INVALID_JSON", "Send a JSON object.");
}

/** Writes a JSON answer with the security headers; never cached. */
export function replyJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": "application/json",
    "cache-control": "no-store",
    ...headers,
  });
  response.end(JSON.stringify(body));
}

/** Serves a file of the built app; any path without an extension is the app itself. */
export async function serveApp(
  appDir: string,
  path: string,
  response: ServerResponse,
  policy: string = CONTENT_SECURITY_POLICY,
  headers: Record<string, string> = {},
): Promise<void> {
  const file = normalize(path === "/" || !extname(path) ? "/index.html" : path);
  if (file.includes("..")) throw new DemoError(400, "BAD_PATH", "Bad path.");
  let bytes: Buffer;
  try {
    bytes = await readFile(join(appDir, file));
  } catch {
    throw new DemoError(404, "NOT_FOUND", "No such file.");
  }
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    "content-security-policy": policy,
    ...headers,
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "cache-control": file.startsWith("/assets/")
      ? "public, max-age=31536000, immutable"
      : "no-cache",
  });
  response.end(bytes);
}
