// A closed-loop HTTP load on loopback with high-resolution latencies: `connections` clients, each
// sending its next request when the previous answer has been read (autocannon rounds latencies
// to whole milliseconds, too coarse for ratios of sub-millisecond answers). Keep-alive, one
// socket per client.
import { Agent, request } from "node:http";

export type LoadRequest = { path: string; headers: Record<string, string> };

export type LoadOptions = {
  /** Base URL, e.g. `http://127.0.0.1:1234`. */
  url: string;
  connections: number;
  /** Stop after this long, or after `amount` requests, whichever comes first. */
  durationMs?: number;
  amount?: number;
  /** The n-th request of the run. */
  next: (n: number) => LoadRequest;
  /**
   * Open every client's connection first, with one request each that is not timed (a failure is
   * counted), and start the run once all have answered: the run then times the steady state of
   * that many users on open keep-alive connections, not a burst of that many connections opened
   * at once at its start (at 256 users, some 7% of a one-second round's requests, and its p99).
   */
  openFirst?: boolean;
};

export type LoadResult = {
  /** Latency of every answered request, ms. */
  latencies: number[];
  /** Requests answered per second. */
  rps: number;
  /** Non-2xx answers, errors and timeouts. */
  errors: number;
};

const TIMEOUT_MS = 10_000;

function once(agent: Agent, url: URL, req: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const sent = request(
      { agent, host: url.hostname, port: url.port, path: req.path, headers: req.headers },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => {
          const ms = performance.now() - start;
          if ((res.statusCode ?? 0) >= 300) reject(new Error(`status ${res.statusCode}`));
          else resolve(ms);
        });
        res.on("error", reject);
      },
    );
    sent.setTimeout(TIMEOUT_MS, () => sent.destroy(new Error("timeout")));
    sent.on("error", reject);
    sent.end();
  });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const url = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let errors = 0;
  let issued = 0;
  const amount = options.amount ?? Number.POSITIVE_INFINITY;
  if (options.openFirst) {
    const opened = await Promise.allSettled(
      Array.from({ length: options.connections }, () => once(agent, url, options.next(issued++))),
    );
    errors += opened.filter((result) => result.status === "rejected").length;
  }
  const started = performance.now();
  const deadline = started + (options.durationMs ?? Number.POSITIVE_INFINITY);
  const client = async () => {
    while (issued < amount && performance.now() < deadline) {
      const n = issued++;
      try {
        latencies.push(await once(agent, url, options.next(n)));
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, rps: latencies.length / seconds, errors };
}
