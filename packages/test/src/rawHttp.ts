// Sends bytes fetch refuses to send (CRLF, repeated headers, `..`, absolute-form targets) over a socket.
import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Writes `request` as is to `url`'s host and port and reads the answer until the socket closes. */
export function rawHttp(url: string, request: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Written, not ended: a half-closed socket makes Node's server drop a slow answer.
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.setTimeout(5000, () => socket.destroy(new Error("raw request timed out")));
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const head = split === -1 ? text : text.slice(0, split);
      const status = Number(/^HTTP\/1\.[01] ([0-9]{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body: split === -1 ? "" : text.slice(split + 4) });
    });
  });
}

/** A minimal HTTP/1.1 request text with `Connection: close`. */
export function rawRequest(method: string, target: string, headers: string[], body = ""): string {
  const lines = [
    `${method} ${target} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Connection: close",
    ...headers,
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}
