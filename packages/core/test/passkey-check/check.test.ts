// Issue #24 B: the passkey setup checker against a local HTTP server on 127.0.0.1 serving good and
// broken association files (one site per path prefix, through the `baseUrl` override), the
// function and the CLI (in process and as the `signet` bin).
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPasskeySetup, normalizeFingerprint } from "../../src/passkey-check/check.js";
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
};

let server: Server;
let origin: string;
const seen: string[] = [];
const base = (site: string) => `${origin}/${site}`;

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.url ?? "");
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
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const codes = (result: { problems: { code: string }[] }) => result.problems.map((p) => p.code);

describe("checkPasskeySetup", () => {
  it("a good setup: the iOS app in webcredentials, the Android fingerprint in any case, origins of the rp id and a related origin", async () => {
    const result = await checkPasskeySetup({
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
    const result = await checkPasskeySetup({
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
    const result = await checkPasskeySetup({
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
    const result = await checkPasskeySetup({
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
    const result = await checkPasskeySetup({
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
    const relation = await checkPasskeySetup({
      rpId: RP,
      android: [ANDROID],
      baseUrl: base("relation"),
    });
    expect(codes(relation)).toEqual(["ASSETLINKS_MISSING_RELATION"]);
    expect(relation.problems[0]?.message).toContain(LOGIN);
    const other = await checkPasskeySetup({
      rpId: RP,
      android: [{ packageName: "com.example.wallet", sha256: FP.toLowerCase() }],
      baseUrl: base("otherPackage"),
    });
    expect(codes(other)).toEqual(["ASSETLINKS_MISSING_APP"]);
    expect(other.problems[0]?.message).toContain('"package_name":"com.example.wallet"');
  });

  it("origins outside the rp id: not https, or not listed as related origins", async () => {
    const result = await checkPasskeySetup({
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
    const noFile = await checkPasskeySetup({
      rpId: RP,
      origins: ["https://evil.example"],
      baseUrl: base("missing"),
    });
    expect(noFile.problems[0]?.message).toContain("could not be read (FILE_MISSING)");
  });

  it("inputs it cannot use, a server error and an unreachable host", async () => {
    const bad = await checkPasskeySetup({
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
    const error = await checkPasskeySetup({ rpId: RP, ios: [IOS], baseUrl: base("error") });
    expect(codes(error)).toEqual(["FILE_UNREACHABLE"]);
    expect(error.problems[0]?.message).toContain("HTTP 500");
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await checkPasskeySetup({
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
    await checkPasskeySetup({ rpId: RP, ios: [IOS], android: [ANDROID], fetch });
    expect(urls).toEqual([
      `https://${RP}/.well-known/apple-app-site-association`,
      `https://${RP}/.well-known/assetlinks.json`,
    ]);
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
        ],
        (error, _stdout, stderr) => resolve({ status: error ? (error.code as number) : 0, stderr }),
      );
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("ASSETLINKS_MISSING_RELATION");
  });
});
