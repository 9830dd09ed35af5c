// startEmulatorServer: serves an emulator over node:http, converting IncomingMessage ⇄ Request /
// Response with the raw body bytes preserved, and honouring `drop` faults by destroying the socket.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createEmulator, type Emulator } from "./emulator.js";
import { EmulatorDropError } from "./faults.js";
import { MAX_BODY_BYTES } from "./http/body.js";
import type { EmulatorOptions } from "./options.js";

/** Options of {@link startEmulatorServer}: the emulator's, plus where to listen. */
export type EmulatorServerOptions = EmulatorOptions & {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1`. */
  host?: string;
  /** Serve this emulator instead of creating one from the options. */
  emulator?: Emulator;
};

/** A running emulator server. */
export type EmulatorServer = {
  /** Base URL, e.g. `http://127.0.0.1:43125` (no trailing slash). */
  url: string;
  port: number;
  emulator: Emulator;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<Buffer | "too_large"> {
  const chunks: Buffer[] = [];
  let total = 0;
  // Past the limit the rest is drained, not kept, so the client still reads the 413.
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    total += buf.length;
    if (total <= MAX_BODY_BYTES) chunks.push(buf);
  }
  return total > MAX_BODY_BYTES ? "too_large" : Buffer.concat(chunks);
}

function toRequest(req: IncomingMessage, body: Buffer, base: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const value = req.rawHeaders[i + 1]!;
    // Hop-by-hop and framing headers describe the node connection, not the request.
    if (/^(host|connection|transfer-encoding|keep-alive|content-length)$/i.test(name)) continue;
    headers.append(name, value);
  }
  const method = (req.method ?? "GET").toUpperCase();
  const init: RequestInit = { method, headers };
  if (method !== "GET" && method !== "HEAD" && body.length > 0) init.body = Uint8Array.from(body);
  return new Request(new URL(req.url ?? "/", origin(req.headers.host, base)), init);
}

/** The origin the caller addressed (its `Host`), so the controls can tell their own origin. */
function origin(host: string | undefined, base: string): string {
  if (
    host === undefined ||
    !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host)
  ) {
    return base;
  }
  try {
    return new URL(`http://${host}`).origin;
  } catch {
    return base;
  }
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  headers["content-length"] = String(bytes.length);
  res.writeHead(response.status, headers);
  res.end(bytes);
}

/**
 * Starts an emulator on `127.0.0.1` (port 0 = a free port). Paths are served at the root
 * (`${url}/auth/credentials`) and under the real prefix (`${url}/grid/2025-10-13/auth/credentials`).
 * @throws when the port cannot be bound.
 * @example
 * const { url, close } = await startEmulatorServer({ port: 0 });
 * // … use `url` as the service base URL …
 * await close();
 */
export async function startEmulatorServer(
  options: EmulatorServerOptions = {},
): Promise<EmulatorServer> {
  const { port = 0, host = "127.0.0.1", emulator: given, ...emulatorOptions } = options;
  const emulator = given ?? createEmulator(emulatorOptions);
  const base = `http://${host.includes(":") ? `[${host}]` : host}`;
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const body = await readBody(req);
        if (body === "too_large") {
          res.writeHead(413, { "content-type": "application/json", connection: "close" });
          res.end(
            JSON.stringify({
              status: 413,
              code: "PAYLOAD_TOO_LARGE",
              message: `The body exceeds ${MAX_BODY_BYTES} bytes.`,
            }),
          );
          return;
        }
        const response = await emulator.fetch(toRequest(req, body, base));
        await writeResponse(res, response);
      } catch (error) {
        if (error instanceof EmulatorDropError) {
          req.socket.destroy();
          return;
        }
        if (!res.headersSent) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              status: 500,
              code: "INTERNAL_ERROR",
              message: "Unexpected emulator error.",
            }),
          );
        } else res.destroy();
      }
    })();
  });
  // Node closes an idle keep-alive connection after 5 s and tells clients so; a client whose
  // event loop stalls past its own margin (undici keeps 2 s) may then write a request onto a
  // socket the server is closing, and gets "other side closed" on a call that did nothing wrong.
  // A local dev server can hold idle connections far longer; `close()` cuts them all anyway.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `${base}:${address.port}`;
  return {
    url,
    port: address.port,
    emulator,
    close: () =>
      new Promise<void>((resolve, reject) => {
        emulator.stop();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
