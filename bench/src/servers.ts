// A server for the relay benchmark, in its own process so that its memory and event loop are its
// own: `emulator` serves the emulator; `relay <emulatorUrl>` serves the relay (users named by the
// `x-bench-customer` header) and answers `GET /__memory` with its heap after a full GC. Both bind
// 127.0.0.1 on a free port, print `{"url": …}` on one line, and exit when stdin closes.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startEmulatorServer } from "@signet/emulator";
import { createRelay, toNodeHandler } from "@signet/relay";

export const USER_HEADER = "x-bench-customer";
const [role, emulatorUrl] = process.argv.slice(2);
process.stdin.on("end", () => process.exit(0));
process.stdin.resume();

if (role === "emulator") {
  const emulator = await startEmulatorServer({ port: 0 });
  console.log(JSON.stringify({ url: emulator.url }));
} else if (role === "relay" && emulatorUrl) {
  const relay = toNodeHandler(
    createRelay({
      baseUrl: emulatorUrl,
      tokenId: "emulator",
      clientSecret: "emulator",
      resolveUser: (request) => {
        const customerId = request.headers.get(USER_HEADER);
        return customerId ? { customerId } : null;
      },
      rateLimit: false,
    }),
  );
  const server = createServer((req, res) => {
    if (req.url === "/__memory") {
      (globalThis as { gc?: () => void }).gc?.();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(process.memoryUsage()));
      return;
    }
    (relay as (req: unknown, res: unknown) => void)(req, res);
  });
  server.listen(0, "127.0.0.1", () => {
    console.log(
      JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
} else {
  console.error("usage: servers.ts emulator | relay <emulatorUrl>");
  process.exit(2);
}
