// Issue #24 B: the passkey setup checker against a local HTTP server on 127.0.0.1 serving good and
// broken association files (one site per path prefix, through the `baseUrl` override, with
// `allowPrivateAddresses`, as the server is on loopback), the function and the CLI (in process and
// as the `signet` bin). Issue #31: what it reads is another party's: plain text only, a size cap
// read as a stream, a time limit on the body too, no exception, public addresses only by default.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress, nonPublicHost } from "../../src/passkey-check/address.js";
import {
  checkPasskeySetup,
  MAX_FILE_BYTES,
  normalizeFingerprint,
  type PasskeyCheckOptions,
  plainText,
} from "../../src/passkey-check/check.js";
import { main } from "../../src/passkey-check/cli.js";

const RP = "wallet.example";
const IOS = "ABCDE12345.com.example.wallet";
const FP = Array.from({ length: 32 }, (_, i) => (i * 7 + 16).toString(16).padStart(2, "0"))
  .join(":")
  .toUpperCase();
const OTHER_FP = FP.replace(/^..:/, "00:");
const ANDROID = `com.example.wallet:${FP}`;
const LOGIN = "delegate_permission/common.get_login_creds";

type Answer = { status?: number; type?: string; body?: string; location?: string };
const json = (value: unknown): Answer => ({
  type: "application/json",
  body: JSON.stringify(value),
});
const aasa = (apps: string[]) => json({ webcredentials: { apps } });
const links = (packageName: string, fingerprints: string[], relation = [LOGIN]) =>
  json([
    {
      relation,
      target: {
        namespace: "android_app",
        package_name: packageName,
        sha256_cert_fingerprints: fingerprints,
      },
    },
  ]);

/** Sites by prefix: what each serves at each well-known path (anything else is a 404). */
const SITES: Record<string, Record<string, Answer>> = {
  good: {
    "apple-app-site-association": aasa(["ZZZZZ99999.com.other.app", IOS]),
    // Lower-case fingerprint in the file: compared case-insensitively.
    "assetlinks.json": links(
      "com.example.wallet",
      [OTHER_FP, FP.toLowerCase()],
      ["delegate_permission/common.handle_all_urls", LOGIN],
    ),
    webauthn: json({ origins: ["https://wallet-partner.example"] }),
  },
  missing: {},
  redirect: {
    "apple-app-site-association": { status: 301, location: "https://www.wallet.example/aasa" },
    "assetlinks.json": { status: 302, location: "/elsewhere.json" },
  },
  types: {
    "apple-app-site-association": {
      type: "text/plain",
      body: JSON.stringify({ webcredentials: { apps: [IOS] } }),
    },
    "assetlinks.json": { type: "application/json", body: "<html>not found</html>" },
  },
  wrong: {
    "apple-app-site-association": json({
      applinks: { details: [] },
      webcredentials: { apps: ["ZZZZZ99999.com.other.app"] },
    }),
    "assetlinks.json": links("com.example.wallet", [OTHER_FP]),
  },
  relation: {
    "assetlinks.json": links(
      "com.example.wallet",
      [FP],
      ["delegate_permission/common.handle_all_urls"],
    ),
  },
  otherPackage: {
    "assetlinks.json": links("com.example.other", [FP]),
  },
  error: {
    "apple-app-site-association": { status: 500, type: "text/plain", body: "boom" },
  },
  // A file that paints the terminal: escape sequences, a bell, a bidi override.
  escapes: {
    "apple-app-site-association": aasa(["\u001b[2J\u001b[31mPWNED\u0007", "A\u202eB.com.x"]),
    "assetlinks.json": links("com.example.wallet", ["\u001b]8;;https://evil.example\u0007AB:CD"]),
  },
};

/** Answers the checker never gets whole: huge, slow, or cut off; `path` → how. */
type Hostile = "huge" | "hugeDeclared" | "slow" | "stall";
const hostileSeen: { path: Hostile; wrote: number; closed: boolean }[] = [];

let server: Server;
let origin: string;
const seen: string[] = [];
const base = (site: string) => `${origin}/${site}`;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.url ?? "");
    const hostile = /^\/hostile-(\w+)\//.exec(request.url ?? "")?.[1] as Hostile | undefined;
    if (hostile) return serveHostile(hostile, response);
    const match = /^\/(\w+)\/\.well-known\/([\w.-]+)$/.exec(request.url ?? "");
    const answer = match && SITES[match[1] as string]?.[match[2] as string];
    if (!answer) {
      response.writeHead(404, { "content-type": "text/html" }).end("<h1>Not found</h1>");
      return;
    }
    const headers: Record<string, string> = {};
    if (answer.type) headers["content-type"] = answer.type;
    if (answer.location) headers.location = answer.location;
    response.writeHead(answer.status ?? 200, headers).end(answer.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

/** A 256 MiB answer in 64 KiB chunks as fast as it is read, or one byte every 50 ms, or nothing. */
function serveHostile(how: Hostile, response: import("node:http").ServerResponse) {
  const record = { path: how, wrote: 0, closed: false };
  hostileSeen.push(record);
  response.on("close", () => {
    record.closed = true;
  });
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (how === "hugeDeclared") headers["content-length"] = String(256 * 1024 * 1024);
  response.writeHead(200, headers);
  if (how === "stall") return response.flushHeaders();
  if (how === "slow") {
    const tick = setInterval(() => {
      if (record.closed || record.wrote > 1000) return clearInterval(tick);
      response.write(" ");
      record.wrote++;
    }, 50);
    return;
  }
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const pump = () => {
    while (!record.closed && record.wrote < 256 * 1024 * 1024) {
      record.wrote += chunk.length;
      if (!response.write(chunk)) return response.once("drain", pump);
    }
    response.end();
  };
  pump();
}

/** The checker against the local server: loopback, so private addresses are allowed. */
const local = (options: PasskeyCheckOptions) =>
  checkPasskeySetup({ allowPrivateAddresses: true, ...options });

const codes = (result: { problems: { code: string }[] }) => result.problems.map((p) => p.code);

describe("checkPasskeySetup", () => {
  it("a good setup: the iOS app in webcredentials, the Android fingerprint in any case, origins of the rp id and a related origin", async () => {
    const result = await local({
      rpId: RP,
      ios: [IOS],
      android: [ANDROID],
      origins: [`https://${RP}`, `https://app.${RP}`, "https://wallet-partner.example"],
      baseUrl: base("good"),
    });
    expect(result.problems).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.passed).toHaveLength(5);
  });

  it("missing files: says which URL and where to publish it", async () => {
    const result = await local({
      rpId: RP,
      ios: [IOS],
      android: [ANDROID],
      baseUrl: base("missing"),
    });
    expect(codes(result)).toEqual(["FILE_MISSING", "FILE_MISSING"]);
    expect(result.problems[0]?.message).toContain(
      `${base("missing")}/.well-known/apple-app-site-association is missing (HTTP 404)`,
    );
    expect(result.problems[1]?.message).toContain("/.well-known/assetlinks.json is missing");
    expect(result.ok).toBe(false);
  });

  it("redirects are problems (the platforms do not follow them), with where they lead", async () => {
    const result = await local({
      rpId: RP,
      ios: [IOS],
      android: [ANDROID],
      baseUrl: base("redirect"),
    });
    expect(codes(result)).toEqual(["REDIRECT", "REDIRECT"]);
    expect(result.problems[0]?.message).toContain(
      "redirects to https://www.wallet.example/aasa (HTTP 301)",
    );
    expect(result.problems[1]?.message).toContain("HTTP 302");
  });

  it("a wrong content type and a body that is not JSON", async () => {
    const result = await local({
      rpId: RP,
      ios: [IOS],
      android: [ANDROID],
      baseUrl: base("types"),
    });
    expect(codes(result)).toEqual(["WRONG_CONTENT_TYPE", "NOT_JSON"]);
    expect(result.problems[0]?.message).toContain('served as "text/plain"');
    expect(result.problems[0]?.message).toContain("Content-Type: application/json");
  });

  it("webcredentials without the app, and a fingerprint mismatch, each naming what is there and what to add", async () => {
    const result = await local({
      rpId: RP,
      ios: [IOS],
      android: [ANDROID],
      baseUrl: base("wrong"),
    });
    expect(codes(result)).toEqual(["WEBCREDENTIALS_MISSING_APP", "FINGERPRINT_MISMATCH"]);
    const [ios, android] = result.problems;
    expect(ios?.message).toContain(`does not list "${IOS}" in webcredentials.apps`);
    expect(ios?.message).toContain('"ZZZZZ99999.com.other.app"');
    expect(ios?.message).toContain(`webcredentials:${RP}`);
    expect(android?.message).toContain(`the fingerprints ${OTHER_FP}, not ${FP}`);
    expect(android?.message).toContain("App signing key certificate");
  });

  it("Android: a statement without get_login_creds, and no statement for the package", async () => {
    const relation = await local({
      rpId: RP,
      android: [ANDROID],
      baseUrl: base("relation"),
    });
    expect(codes(relation)).toEqual(["ASSETLINKS_MISSING_RELATION"]);
    expect(relation.problems[0]?.message).toContain(LOGIN);
    const other = await local({
      rpId: RP,
      android: [{ packageName: "com.example.wallet", sha256: FP.toLowerCase() }],
      baseUrl: base("otherPackage"),
    });
    expect(codes(other)).toEqual(["ASSETLINKS_MISSING_APP"]);
    expect(other.problems[0]?.message).toContain('"package_name":"com.example.wallet"');
  });

  it("origins outside the rp id: not https, or not listed as related origins", async () => {
    const result = await local({
      rpId: RP,
      origins: [
        "http://wallet.example",
        "https://evil.example",
        "https://wallet.example.evil.test",
      ],
      baseUrl: base("good"),
    });
    expect(codes(result)).toEqual([
      "ORIGIN_NOT_ALLOWED",
      "ORIGIN_NOT_ALLOWED",
      "ORIGIN_NOT_ALLOWED",
    ]);
    expect(result.problems[0]?.message).toContain("not https");
    expect(result.problems[1]?.message).toContain(
      `neither ${RP} nor a subdomain of it, and ${base("good")}/.well-known/webauthn does not list it`,
    );
    const noFile = await local({
      rpId: RP,
      origins: ["https://evil.example"],
      baseUrl: base("missing"),
    });
    expect(noFile.problems[0]?.message).toContain("could not be read (FILE_MISSING)");
  });

  it("inputs it cannot use, a server error and an unreachable host", async () => {
    const bad = await local({
      rpId: RP,
      ios: ["abc.com.example", "ABCDE12345.com.example.wallet"],
      android: ["com.example.wallet:AB:CD", `com.example.wallet:${FP.replaceAll(":", "")}`],
      origins: ["not a url", "https://wallet.example/path"],
      baseUrl: base("good"),
    });
    expect(codes(bad)).toEqual([
      "INVALID_INPUT",
      "INVALID_INPUT",
      "INVALID_INPUT",
      "INVALID_INPUT",
      "INVALID_INPUT",
    ]);
    expect(bad.problems[1]?.message).toContain("keytool -list -v");
    expect((await checkPasskeySetup({ rpId: "https://wallet.example" })).problems[0]?.code).toBe(
      "INVALID_INPUT",
    );
    const error = await local({ rpId: RP, ios: [IOS], baseUrl: base("error") });
    expect(codes(error)).toEqual(["FILE_UNREACHABLE"]);
    expect(error.problems[0]?.message).toContain("HTTP 500");
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await local({
      rpId: RP,
      ios: [IOS],
      baseUrl: `http://127.0.0.1:${port}`,
    });
    expect(codes(down)).toEqual(["FILE_UNREACHABLE"]);
  });

  it("fetches https://<rpId> when no base URL is given", async () => {
    const urls: string[] = [];
    const fetch = (async (url: string) => {
      urls.push(url);
      return new Response("{}", { status: 404 });
    }) as unknown as typeof globalThis.fetch;
    // A public address for the name, without asking real DNS.
    const resolveHost = async () => ["93.184.216.34"];
    await checkPasskeySetup({ rpId: RP, ios: [IOS], android: [ANDROID], fetch, resolveHost });
    expect(urls).toEqual([
      `https://${RP}/.well-known/apple-app-site-association`,
      `https://${RP}/.well-known/assetlinks.json`,
    ]);
  });

  it("prints what a file says as plain text: escape sequences, bells and bidi overrides escaped", async () => {
    const result = await local({
      rpId: RP,
      ios: [IOS],
      android: [ANDROID],
      baseUrl: base("escapes"),
    });
    expect(codes(result)).toEqual(["WEBCREDENTIALS_MISSING_APP", "FINGERPRINT_MISMATCH"]);
    // No control character or override survives in any string of the result.
    const strings = [
      ...result.passed,
      ...result.problems.flatMap((problem) => [problem.subject, problem.message]),
    ];
    for (const text of strings) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be printed
      expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    expect(result.problems[0]?.message).toContain("\\u001b[2J\\u001b[31mPWNED\\u0007");
    expect(result.problems[0]?.message).toContain("A\\u202eB.com.x");
    expect(result.problems[1]?.message).toContain("\\u001b]8;;https://evil.example\\u0007AB:CD");
    expect(plainText("tab\there\u009b")).toBe("tab\\u0009here\\u009b");
  });

  it("reads at most MAX_FILE_BYTES of a 256 MiB answer, streamed, and stops the transfer", async () => {
    for (const how of ["huge", "hugeDeclared"] as const) {
      const before = process.memoryUsage().rss;
      const result = await local({ rpId: RP, ios: [IOS], baseUrl: `${origin}/hostile-${how}` });
      expect(codes(result)).toEqual(["FILE_TOO_LARGE"]);
      expect(result.problems[0]?.message).toContain(`larger than ${MAX_FILE_BYTES / 1024} KiB`);
      const served = hostileSeen.filter((h) => h.path === how).at(-1)!;
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The connection was dropped long before the end: a few MiB at most went out (socket buffers).
      expect(served.closed).toBe(true);
      expect(served.wrote).toBeLessThan(32 * 1024 * 1024);
      expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    }
  });

  it("never throws: a body that trickles or stalls is FILE_TIMEOUT, bad options and a throwing fetch are problems", async () => {
    for (const how of ["slow", "stall"] as const) {
      const started = Date.now();
      const result = await local({
        rpId: RP,
        ios: [IOS],
        baseUrl: `${origin}/hostile-${how}`,
        timeoutMs: 300,
      });
      expect(codes(result)).toEqual(["FILE_TIMEOUT"]);
      expect(result.problems[0]?.message).toContain("did not arrive within 300 ms");
      expect(Date.now() - started).toBeLessThan(5_000);
    }
    for (const options of [undefined, null, "example.com"]) {
      const result = await checkPasskeySetup(options as never);
      expect(codes(result)).toEqual(["INVALID_INPUT"]);
    }
    const throwing = (() => {
      throw new Error("no fetch here");
    }) as unknown as typeof fetch;
    const broken = await local({ rpId: RP, ios: [IOS], baseUrl: base("good"), fetch: throwing });
    expect(codes(broken)).toEqual(["FILE_UNREACHABLE"]);
    // A fetch that ignores the abort signal still ends at the time limit.
    const deaf = (() => new Promise<Response>(() => undefined)) as unknown as typeof fetch;
    const hung = await local({
      rpId: RP,
      ios: [IOS],
      baseUrl: base("good"),
      fetch: deaf,
      timeoutMs: 200,
    });
    expect(codes(hung)).toEqual(["FILE_TIMEOUT"]);
  });

  it("fetches nothing from a non-public address unless told, literal or resolved", async () => {
    const fetched = seen.length;
    const refused = await checkPasskeySetup({ rpId: RP, ios: [IOS], baseUrl: base("good") });
    expect(codes(refused)).toEqual(["ADDRESS_NOT_PUBLIC"]);
    expect(refused.problems[0]?.message).toContain("127.0.0.1 is not a public address");
    expect(refused.problems[0]?.message).toContain("allowPrivateAddresses");
    expect(seen.length).toBe(fetched);
    for (const [name, addresses, why] of [
      ["intranet.example", ["10.1.2.3"], "resolves to 10.1.2.3"],
      ["dual.example", ["93.184.216.34", "fd00::1"], "resolves to fd00::1"],
      ["localhost", [], "loopback name"],
      ["metadata.example", ["169.254.169.254"], "resolves to 169.254.169.254"],
    ] as const) {
      const result = await checkPasskeySetup({
        rpId: name === "localhost" ? RP : name,
        ios: [IOS],
        ...(name === "localhost" ? { baseUrl: "http://localhost:1" } : {}),
        resolveHost: async () => addresses,
        fetch: (() => {
          throw new Error("must not be fetched");
        }) as unknown as typeof fetch,
      });
      expect(codes(result), name).toEqual(["ADDRESS_NOT_PUBLIC"]);
      expect(result.problems[0]?.message).toContain(why);
    }
    expect(
      await nonPublicHost("wallet.example", async () => ["93.184.216.34", "2606:2800::1"]),
    ).toBe(undefined);
  });

  it("tells public addresses from the rest", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111", "[2a00:1450::1]"])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
      "198.51.100.7",
      "::",
      "::1",
      "[::1]",
      "fe80::1%eth0",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "2001:db8::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::10.0.0.1",
      "not an address",
      "1.2.3",
      "1.2.3.256",
      "1:2:3:4:5:6:7:8:9",
    ])
      expect(isPublicAddress(address), address).toBe(false);
    expect(isPublicAddress("::ffff:93.184.216.34")).toBe(true);
    expect(isPublicAddress("172.32.0.1")).toBe(true);
  });

  it("normalizes fingerprints: 32 colon-separated hex bytes, any case", () => {
    expect(normalizeFingerprint(FP.toLowerCase())).toBe(FP);
    expect(normalizeFingerprint(FP.replaceAll(":", ""))).toBeUndefined();
    expect(normalizeFingerprint(`${FP}:00`)).toBeUndefined();
  });
});

describe("check-passkeys CLI", () => {
  const capture = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
  };

  it("exits 0 on a good setup and 1 with one line per problem", async () => {
    const good = capture();
    const args = [
      "check-passkeys",
      "--rp-id",
      RP,
      "--ios",
      IOS,
      "--android",
      ANDROID,
      "--origin",
      `https://${RP}`,
    ];
    args.push("--allow-private-addresses");
    expect(await main([...args, "--base-url", base("good")], good.io)).toBe(0);
    expect(good.err).toEqual([]);
    expect(good.out.at(-1)).toBe(`Passkey setup of ${RP}: no problem found.`);
    const bad = capture();
    expect(await main([...args, `--base-url=${base("wrong")}`], bad.io)).toBe(1);
    expect(bad.err).toHaveLength(2);
    expect(bad.err[0]).toMatch(/^FAIL {2}WEBCREDENTIALS_MISSING_APP: /);
    expect(bad.out.at(-1)).toBe(`Passkey setup of ${RP}: 2 problems.`);
    const asJson = capture();
    expect(await main([...args, "--base-url", base("redirect"), "--json"], asJson.io)).toBe(1);
    expect(JSON.parse(asJson.out.join("\n")).problems).toHaveLength(2);
  });

  it("exits 2 on a usage error", async () => {
    for (const args of [
      [],
      ["nope"],
      ["check-passkeys"],
      ["check-passkeys", "--rp-id", RP],
      ["check-passkeys", "--rp-id"],
      ["check-passkeys", "--rp-id", RP, "--what", "x"],
    ]) {
      const run = capture();
      expect(await main(args, run.io)).toBe(2);
    }
  });

  it("runs as the bin: exit status and messages", async () => {
    const bin = fileURLToPath(new URL("../../src/passkey-check/bin.ts", import.meta.url));
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          "--import",
          "tsx",
          bin,
          "check-passkeys",
          "--rp-id",
          RP,
          "--android",
          ANDROID,
          "--base-url",
          base("relation"),
          "--allow-private-addresses",
        ],
        (error, _stdout, stderr) => resolve({ status: error ? (error.code as number) : 0, stderr }),
      );
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("ASSETLINKS_MISSING_RELATION");
  });
});
