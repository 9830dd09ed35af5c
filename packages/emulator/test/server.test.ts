// Over real HTTP: startEmulatorServer and the signet-emulator CLI.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawHttp, rawRequest } from "../../test/src/rawHttp.js";
import { type EmulatorServer, startEmulatorServer } from "../src/index.js";
import {
  AUTH,
  call,
  httpTarget,
  newKey,
  openExport,
  SIGNATURE,
  signedCall,
  signUp,
  stamp,
  type Target,
} from "./testClient.js";

let server: EmulatorServer;
let t: Target;
beforeAll(async () => {
  server = await startEmulatorServer({ port: 0, settlementDelayMs: 0 });
  t = httpTarget(server.url);
});
afterAll(async () => {
  await server.close();
});

describe("startEmulatorServer", () => {
  it("listens on 127.0.0.1 and a free port", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it("runs sign-up, OTP sign-in, export and a quote execute over HTTP, with and without the version prefix", async () => {
    const user = await signUp(t);
    const prefixed = httpTarget(`${server.url}/grid/2025-10-13`);
    const key = newKey();
    const { result } = await signedCall(
      prefixed,
      "POST",
      `/internal-accounts/${user.account.id}/export`,
      { clientPublicKey: key.publicKeyUncompressed },
      user.sessionKey,
    );
    expect(result.status).toBe(200);
    const keys = (await call(t, "GET", "/_emulator/keys")).body;
    expect(
      openExport(result.body.encryptedWalletCredentials, key, keys.signerPublicKey).mnemonic.split(
        " ",
      ),
    ).toHaveLength(12);
    await call(t, "POST", `/sandbox/internal-accounts/${user.account.id}/fund`, {
      amount: 3_000_000,
    });
    const external = await call(t, "POST", "/customers/external-accounts", {
      customerId: user.customer.id,
      currency: "USD",
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "000123456789",
        routingNumber: "021000021",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Test User" },
      },
    });
    const quote = await call(t, "POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: user.account.id },
      destination: { destinationType: "ACCOUNT", accountId: external.body.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 2_000_000,
    });
    const payload = quote.body.paymentInstructions.find(
      (p: { accountOrWalletInfo: { accountType: string } }) =>
        p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    ).accountOrWalletInfo.payloadToSign;
    const executed = await call(t, "POST", `/quotes/${quote.body.id}/execute`, undefined, {
      [SIGNATURE]: stamp(payload, user.sessionKey),
      "Idempotency-Key": "http-1",
    });
    expect(executed.body.status).toBe("PROCESSING");
    const tx = await call(t, "GET", `/transactions/${executed.body.transactionId}`);
    expect(tx.body.status).toBe("COMPLETED");
  });

  it("keeps raw body bytes: a retry must repeat the exact bytes, whitespace and escapes included", async () => {
    const user = await signUp(t);
    const path = `/internal-accounts/${user.account.id}/export`;
    const key = newKey();
    const body = `{ "clientPublicKey" :\n "${key.publicKeyUncompressed}" }`;
    const leg1 = await call(t, "POST", path, body);
    const headers = {
      [SIGNATURE]: stamp(leg1.body.payloadToSign, user.sessionKey),
      "Request-Id": leg1.body.requestId,
    };
    const compact = await call(t, "POST", path, JSON.stringify(JSON.parse(body)), headers);
    expect(compact.body.code).toBe("WALLET_SIGNATURE_BODY_MISMATCH");
    const exact = await call(t, "POST", path, body, headers);
    expect(exact.status).toBe(200);
  });

  it("answers 413 for a body over 1 MB", async () => {
    const r = await call(
      t,
      "POST",
      "/customers",
      JSON.stringify({ customerType: "INDIVIDUAL", fullName: "x".repeat(1_200_000) }),
    );
    expect(r.status).toBe(413);
    expect(r.body.code).toBe("PAYLOAD_TOO_LARGE");
    expect((await call(t, "GET", "/customers")).status).toBe(200);
  });

  it("destroys the socket for a drop fault and serves the next request normally", async () => {
    await call(t, "POST", "/_emulator/faults", { kind: "drop", match: { path: "/customers" } });
    await expect(call(t, "GET", "/customers")).rejects.toThrow();
    expect((await call(t, "GET", "/customers")).status).toBe(200);
  });

  it("answers PROCESSING for a processing fault over HTTP and completes on the identical re-send", async () => {
    const user = await signUp(t);
    const path = `/auth/sessions/${user.session.id}/refresh`;
    const body = JSON.stringify({ clientPublicKey: newKey().publicKeyCompressed });
    const leg1 = await call(t, "POST", path, body);
    await call(t, "POST", "/_emulator/faults", {
      kind: "processing",
      match: { path: "/auth/sessions" },
    });
    const headers = {
      [SIGNATURE]: stamp(leg1.body.payloadToSign, user.sessionKey),
      "Request-Id": leg1.body.requestId,
    };
    const first = await call(t, "POST", path, body, headers);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe("PROCESSING");
    const second = await call(t, "POST", path, body, headers);
    expect(second.status).toBe(201);
    const log = (await call(t, "GET", "/_emulator/requests")).body.data;
    expect(log.some((e: { fault?: string }) => e.fault === "processing")).toBe(true);
  });

  it("answers 401 without Basic credentials and handles a chunked body", async () => {
    const res = await fetch(`${server.url}/customers`);
    expect(res.status).toBe(401);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/customers`,
        {
          method: "POST",
          headers: {
            authorization: AUTH,
            "content-type": "application/json",
            "transfer-encoding": "chunked",
          },
        },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write('{"customerType":');
      req.end('"INDIVIDUAL"}');
    });
    expect(status).toBe(201);
  });
});

describe("signet-emulator CLI", () => {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const dist = `${root}dist/cli.js`;
  const command = existsSync(dist) ? [dist] : ["--import", "tsx", `${root}src/cli.ts`];

  function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, [...command, ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new Promise((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 15_000);
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve({ child, url: match[1]! });
        }
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
  }

  function exited(child: ChildProcess): Promise<number | null> {
    return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  it("prints the listening line, serves requests with the given seed and OTP code, and exits cleanly on SIGTERM", async () => {
    const { child, url } = await start([
      "--port",
      "0",
      "--seed",
      "cli-seed",
      "--otp-code",
      "424242",
    ]);
    try {
      const target = httpTarget(url);
      const keys = (await call(target, "GET", "/_emulator/keys")).body;
      const again = await start(["--port", "0", "--seed", "cli-seed"]);
      const keys2 = (await call(httpTarget(again.url), "GET", "/_emulator/keys")).body;
      again.child.kill("SIGINT");
      expect(await exited(again.child)).toBe(0);
      expect(keys2).toEqual(keys);
      const customer = await call(target, "POST", "/customers", {
        customerType: "INDIVIDUAL",
        email: "cli@example.com",
      });
      expect(customer.status).toBe(201);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited(child)).toBe(0);
  });

  it("prints help and refuses unknown options", async () => {
    const help = spawn(process.execPath, [...command, "--help"], { cwd: root });
    let out = "";
    help.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    expect(await exited(help)).toBe(0);
    expect(out).toContain("--port");
    const bad = spawn(process.execPath, [...command, "--bogus"], { cwd: root, stdio: "ignore" });
    expect(await exited(bad)).toBe(2);
  });
});

describe("controls over HTTP refuse other sites", () => {
  const reset = (headers: string[], host = `127.0.0.1:${server.port}`) =>
    rawHttp(
      server.url,
      rawRequest("POST", "/_emulator/reset", [...headers], "").replace(
        "Host: 127.0.0.1",
        `Host: ${host}`,
      ),
    );

  it.each([
    ["a page on another port", [`Origin: http://localhost:1`]],
    ["a page on another site", ["Origin: https://evil.example"]],
    ["an opaque origin", ["Origin: null"]],
    ["Sec-Fetch-Site: cross-site", ["Sec-Fetch-Site: cross-site"]],
    ["Sec-Fetch-Site: same-site", ["Sec-Fetch-Site: same-site"]],
  ])("refuses %s with 403 CROSS_ORIGIN_FORBIDDEN and changes nothing", async (_name, headers) => {
    const user = await signUp(t);
    const answer = await reset(headers);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 403, code: "CROSS_ORIGIN_FORBIDDEN" });
    // Not reset: the customer is still there.
    const still = await call(t, "GET", `/customers/${user.customer.id}`);
    expect(still.status).toBe(200);
  });

  it("refuses a DNS-rebound page: its origin matches the Host, but the name is not loopback", async () => {
    const host = `rebound.example:${server.port}`;
    const answer = await reset([`Origin: http://${host}`], host);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      details: { reason: "Host is not a loopback name" },
    });
  });

  it("refuses a DNS-rebound read: a same-origin GET carries no Origin, but its Host is not loopback", async () => {
    const user = await signUp(t);
    for (const path of ["/_emulator/requests", "/_emulator/keys", "/_emulator/faults"]) {
      const answer = await rawHttp(
        server.url,
        rawRequest("GET", path, ["Sec-Fetch-Site: same-origin"]).replace(
          "Host: 127.0.0.1",
          `Host: rebound.example:${server.port}`,
        ),
      );
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({
        code: "CROSS_ORIGIN_FORBIDDEN",
        details: { reason: "Host is not a loopback name" },
      });
      expect(answer.body).not.toContain(user.customer.id);
    }
    // The name the emulator is served under on purpose is taken once configured.
    const named = await startEmulatorServer({ port: 0, controlHosts: ["emulator.lan"] });
    try {
      const ok = await rawHttp(
        named.url,
        rawRequest("GET", "/_emulator/keys", []).replace(
          "Host: 127.0.0.1",
          `Host: emulator.lan:${named.port}`,
        ),
      );
      expect(ok.status).toBe(200);
    } finally {
      await named.close();
    }
  });

  it("takes tools (no Origin) and pages of its own origin", async () => {
    const keys = await rawHttp(
      server.url,
      rawRequest("GET", "/_emulator/keys", [
        `Origin: http://127.0.0.1:${server.port}`,
        "Sec-Fetch-Site: same-origin",
      ]).replace("Host: 127.0.0.1", `Host: 127.0.0.1:${server.port}`),
    );
    expect(keys.status).toBe(200);
    const clock = await fetch(`${server.url}/_emulator/clock`);
    expect(clock.status).toBe(200);
  });
});
