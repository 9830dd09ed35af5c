// The signer frame's own origin (`DEMO_FRAME=1`, packages/frame/README.md "Serving the frame"):
// the built page of @signet/frame on a second localhost port, framable by the demo's origin only,
// with the export signers it trusts written into its own page (never the app's choice). The page
// is the only thing this origin serves: any other script here could open the frame's IndexedDB.
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, extname, join, normalize } from "node:path";

/** What the frame page trusts: its own configuration, read from its `<meta>` tags. */
export type FrameTrust = {
  /** The export bundle's signers (uncompressed P-256 keys, hex); empty: core's pinned keys. */
  exportSigners: readonly string[];
  /** The sandbox seals bundles with keys of its own, unsigned by production keys. */
  allowUnsignedBundles: boolean;
};

/** The running frame origin. */
export type FrameOrigin = {
  /** `http://localhost:<port>/`, the page's URL (`frameSigner`'s `url`). */
  url: string;
  /** Its origin, for the demo page's `frame-src`. */
  origin: string;
  close(): Promise<void>;
};

/** Where `pnpm build` writes the frame page (`@signet/frame`'s `dist/page/`). */
export function builtFramePage(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@signet/frame/package.json")), "dist", "page");
}

/**
 * The frame page's policy: its own scripts and styles only, nothing fetched, and framed by the
 * demo's origin alone (`frame-ancestors` is what stops another site from framing it at all).
 */
export function framePolicy(appOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${appOrigin}`,
  ].join("; ");
}

const HEX_KEY = /^04[0-9a-f]{128}$/i;

/** The built index.html with the frame's trust as `<meta>` tags, written before `</head>`. */
export function configuredFramePage(html: string, trust: FrameTrust): string {
  // The keys come from the emulator's own answer; anything but a key is not written into HTML.
  for (const key of trust.exportSigners)
    if (!HEX_KEY.test(key)) throw new Error("The frame's export signer is not a P-256 key in hex.");
  const tags = [
    ...(trust.exportSigners.length
      ? [`<meta name="signet-trusted-export-signers" content="${trust.exportSigners.join(" ")}" />`]
      : []),
    ...(trust.allowUnsignedBundles
      ? ['<meta name="signet-allow-unsigned-bundles" content="true" />']
      : []),
  ];
  if (!html.includes("</head>")) throw new Error("The frame page has no </head>.");
  return html.replace("</head>", `${tags.join("\n    ")}\n  </head>`);
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * Starts the frame's origin on `host` (`port` 0: a free one). Fails at once when the page has not
 * been built, saying how to build it.
 */
export async function startFrameOrigin(options: {
  host: string;
  port: number;
  appOrigin: string;
  /**
   * What the page trusts, or its promise: the demo starts the frame before the emulator (whose
   * passkeys must name the frame's origin), so the emulator's keys arrive after. The page is
   * served once it is known; a request before waits for it.
   */
  trust: FrameTrust | Promise<FrameTrust>;
  pageDir?: string;
}): Promise<FrameOrigin> {
  const pageDir = options.pageDir ?? builtFramePage();
  let html: string;
  try {
    html = await readFile(join(pageDir, "index.html"), "utf8");
  } catch {
    throw new Error(
      `The signer frame's page is not built (${pageDir}): run \`pnpm build\` (or \`pnpm --filter @signet/frame build\`) first.`,
    );
  }
  const page = Promise.resolve(options.trust).then((trust) => configuredFramePage(html, trust));
  // Not left unhandled while no request has asked for it yet (a request that does gets a 500).
  page.catch(() => undefined);
  const headers = {
    "content-security-policy": framePolicy(options.appOrigin),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  };
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(
              `The signer frame's port ${options.port} is taken: choose another (DEMO_FRAME_PORT).`,
            )
          : error,
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    void answer(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, "text/plain; charset=utf-8", "error");
    });
  });
  const send = (response: ServerResponse, status: number, type: string, body: string | Buffer) => {
    response.writeHead(status, { ...headers, "content-type": type, "cache-control": "no-cache" });
    response.end(body);
  };
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== "GET" && request.method !== "HEAD")
      return send(response, 405, "text/plain; charset=utf-8", "Only GET here.");
    const path = new URL(request.url ?? "/", origin).pathname;
    if (path === "/" || path === "/index.html")
      return send(response, 200, "text/html; charset=utf-8", await page);
    const file = normalize(path);
    const type = TYPES[extname(file)];
    // Only the page's own built assets, nothing else of the folder or the disk.
    if (!file.startsWith("/assets/") || file.includes("..") || !type)
      return send(response, 404, "text/plain; charset=utf-8", "No such file.");
    let bytes: Buffer;
    try {
      bytes = await readFile(join(pageDir, file));
    } catch {
      return send(response, 404, "text/plain; charset=utf-8", "No such file.");
    }
    send(response, 200, type, bytes);
  }
  return {
    url: `${origin}/`,
    origin,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
