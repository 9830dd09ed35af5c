// The demo's signer frame origin (apps/demo/server/frame.ts, `DEMO_FRAME=1`) over real HTTP: the
// frame page alone on a second localhost port, its policy naming the demo's origin as the only
// one that may frame it, its trust written into its own page, nothing else of the disk served;
// and the demo server with the frame on and off (its config and its page's `frame-src`).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  configuredFramePage,
  type FrameOrigin,
  framePolicy,
  startFrameOrigin,
} from "../apps/demo/server/frame.js";
import { type DemoServer, startDemoServer } from "../apps/demo/server/server.js";

const appDir = join(fileURLToPath(new URL("..", import.meta.url)), "apps/demo/dist/app");
const KEY = `04${"ab".repeat(64)}`;
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <title>Signet signer</title>
  </head>
  <body><main id="signet-frame"></main></body>
</html>`;

const stops: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** A built frame page of two files in a folder of its own, with a file beside it not to serve. */
async function pageDir(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "signet-frame-page-"));
  stops.push(() => rm(root, { recursive: true, force: true }));
  const dir = join(root, "page");
  await mkdir(join(dir, "assets"), { recursive: true });
  await writeFile(join(dir, "index.html"), PAGE);
  await writeFile(join(dir, "assets", "index-1.js"), "export {};\n");
  await writeFile(join(root, "secret.txt"), "not for the frame's origin");
  return dir;
}

async function startFrame(dir: string, appOrigin = "http://localhost:5173"): Promise<FrameOrigin> {
  const frame = await startFrameOrigin({
    host: "localhost",
    port: 0,
    appOrigin,
    trust: { exportSigners: [KEY], allowUnsignedBundles: false },
    pageDir: dir,
  });
  stops.push(() => frame.close());
  return frame;
}

describe("the frame page's configuration", () => {
  it("writes the trusted export signers, and unsigned bundles only when asked", () => {
    const page = configuredFramePage(PAGE, { exportSigners: [KEY], allowUnsignedBundles: false });
    expect(page).toContain(`<meta name="signet-trusted-export-signers" content="${KEY}" />`);
    expect(page).not.toContain("signet-allow-unsigned-bundles");
    expect(page.indexOf("signet-trusted-export-signers")).toBeLessThan(page.indexOf("</head>"));
    const sandbox = configuredFramePage(PAGE, { exportSigners: [], allowUnsignedBundles: true });
    expect(sandbox).toContain('<meta name="signet-allow-unsigned-bundles" content="true" />');
    expect(sandbox).not.toContain("signet-trusted-export-signers");
  });

  it("writes nothing but a P-256 key into the page", () => {
    for (const bad of ['04"><script>', `${KEY}00`, "02ab", ""])
      expect(() =>
        configuredFramePage(PAGE, { exportSigners: [bad], allowUnsignedBundles: false }),
      ).toThrow(/P-256 key/);
  });

  it("lets only the demo's origin frame it, and loads nothing from elsewhere", () => {
    const policy = framePolicy("http://localhost:5173");
    expect(policy).toContain("frame-ancestors http://localhost:5173");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe");
  });
});

describe("the frame's origin", () => {
  it("serves the configured page and its assets with the policy, and nothing else", async () => {
    const frame = await startFrame(await pageDir());
    expect(frame.url).toBe(`${frame.origin}/`);
    expect(frame.origin).toMatch(/^http:\/\/localhost:\d+$/);
    const page = await fetch(frame.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(framePolicy("http://localhost:5173"));
    expect(await page.text()).toContain(`content="${KEY}"`);
    const asset = await fetch(`${frame.origin}/assets/index-1.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(asset.headers.get("content-security-policy")).toContain("frame-ancestors");
    for (const path of ["/secret.txt", "/assets/missing.js", "/assets/%2e%2e/%2e%2e/secret.txt"])
      expect((await fetch(`${frame.origin}${path}`)).status, path).toBe(404);
    expect((await fetch(frame.url, { method: "POST", body: "{}" })).status).toBe(405);
  });

  it("says which setting to change when its port is taken", async () => {
    const dir = await pageDir();
    const first = await startFrame(dir);
    const port = Number(new URL(first.origin).port);
    await expect(
      startFrameOrigin({
        host: "localhost",
        port,
        appOrigin: "http://localhost:5173",
        trust: { exportSigners: [], allowUnsignedBundles: false },
        pageDir: dir,
      }),
    ).rejects.toThrow(/DEMO_FRAME_PORT/);
  });

  it("refuses to start without a built page, saying how to build it", async () => {
    const missing = join(tmpdir(), `signet-no-frame-${Date.now()}`);
    await expect(startFrame(missing)).rejects.toThrow(/pnpm build/);
  });
});

describe("the demo server with the frame on and off", () => {
  const config = async (demo: DemoServer) =>
    (await (await fetch(`${demo.url}/api/demo/config`)).json()) as { frameUrl?: string };

  it("off by default: no frame URL, and the page may frame nothing", async () => {
    const demo = await startDemoServer({ appDir, port: 0 });
    stops.push(() => demo.close());
    expect(demo.frameUrl).toBeUndefined();
    expect((await config(demo)).frameUrl).toBeUndefined();
    const page = await fetch(demo.url);
    expect(page.headers.get("content-security-policy") ?? "").not.toContain("frame-src");
    expect(page.headers.get("cross-origin-opener-policy")).toBe("same-origin");
  });

  it("on: the page gets the frame's URL and may frame that origin only", async () => {
    const demo = await startDemoServer({ appDir, port: 0, frame: true });
    let closed = false;
    stops.push(() => (closed ? Promise.resolve() : demo.close()));
    const frameUrl = demo.frameUrl ?? "";
    expect((await config(demo)).frameUrl).toBe(frameUrl);
    const frameOrigin = new URL(frameUrl).origin;
    expect(frameOrigin).not.toBe(demo.url);
    const app = await fetch(demo.url);
    const policy = app.headers.get("content-security-policy") ?? "";
    expect(policy).toContain(`frame-src ${frameOrigin}`);
    expect(policy).toContain("frame-ancestors 'none'");
    // A window the frame opens (its confirmation in Firefox and WebKit) keeps its opener.
    expect(app.headers.get("cross-origin-opener-policy")).toBe("same-origin-allow-popups");
    const page = await fetch(frameUrl);
    expect(page.headers.get("content-security-policy")).toContain(`frame-ancestors ${demo.url}`);
    const keys = (await (await fetch(`${demo.emulator?.url}/_emulator/keys`)).json()) as {
      signerPublicKey: string;
    };
    expect(await page.text()).toContain(`content="${keys.signerPublicKey}"`);
    await demo.close();
    closed = true;
    // Closing the demo closes the frame's origin too.
    await expect(fetch(frameUrl)).rejects.toThrow();
  });
});
