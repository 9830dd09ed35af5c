// The browser build of @signet/core in real Chromium: WebCrypto keys that script cannot export,
// kept in IndexedDB across a reload, stamps checked by OpenSSL in Node, and the OTP / export /
// legacy bundles on the interop vectors. The page runs on http://localhost:<port> (a real origin).
import type { Page } from "@playwright/test";
import { compressNode, parseStamp, verifyStampNode } from "../packages/test/src/nodeStamp.js";
import { interopSamples } from "../packages/test/src/vectors.js";
import {
  generateAndStore,
  interopExpected,
  interopInPage,
  interopOutcome,
  interopVectors,
  payloadChecksExpected,
  payloadChecksInPage,
  restoreStored,
  restoreTampered,
  restoreTamperedExpected,
  storeTampered,
} from "./fixtures/corePage.js";
import { expect, test } from "./fixtures/coreServer.js";

const samples = interopSamples();

const PAYLOADS = [
  ...samples.stamps.samples.map((s) => s.payload),
  '{"type":"EMBEDDED_WALLET_PAYMENT","memo":"Grüße — 東京 🚀"}',
  "",
];
const SESSION_ID = "Session:e2e-core-crypto";

async function openCorePage(page: Page, origin: string): Promise<void> {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${origin}/`);
  await page
    .waitForFunction(() => window.signetCore !== undefined, undefined, { timeout: 10_000 })
    .catch(() => {
      throw new Error(
        `@signet/core did not load in the page: ${errors.join("; ") || "no page error"}`,
      );
    });
  expect(errors).toEqual([]);
}

function expectStampsVerify(
  stamps: string[],
  key: { publicKey: string; publicKeyUncompressed: string },
) {
  expect(stamps).toHaveLength(PAYLOADS.length);
  for (const [i, payload] of PAYLOADS.entries()) {
    const stamp = stamps[i]!;
    expect(parseStamp(stamp)).toMatchObject({
      publicKey: key.publicKey,
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      signature: expect.stringMatching(/^30([0-9a-f]{2})+$/),
    });
    expect(verifyStampNode(stamp, payload, key.publicKeyUncompressed), `stamp ${i}`).toBe(true);
    expect(verifyStampNode(stamp, `${payload} `, key.publicKeyUncompressed)).toBe(false);
  }
}

test.describe("@signet/core in Chromium", () => {
  test("a generated key is non-extractable, kept in IndexedDB across a reload, and its stamps verify in Node", async ({
    page,
    coreServer,
  }, testInfo) => {
    testInfo.annotations.push({
      type: "bundle",
      description: `${(coreServer.bundleBytes / 1024).toFixed(0)} KiB, @noble/curves ${
        coreServer.inputs.some((input) => input.includes("@noble/curves")) ? "included" : "absent"
      }`,
    });
    await openCorePage(page, coreServer.origin);

    const first = await page.evaluate(generateAndStore, {
      payloads: PAYLOADS,
      sessionId: SESSION_ID,
    });

    expect(first.persistence).toBe("indexeddb");
    expect(first.storedIds).toEqual([SESSION_ID]);
    expect(first.extractable).toBe(false);
    expect(first.privateKey).toEqual({
      isCryptoKey: true,
      type: "private",
      extractable: false,
      algorithm: { name: "ECDSA", namedCurve: "P-256" },
      usages: ["sign"],
    });
    expect(first.exportAttempts).toEqual({
      pkcs8: "InvalidAccessError",
      jwk: "InvalidAccessError",
    });
    expect(first.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(compressNode(first.publicKeyUncompressed)).toBe(first.publicKey);
    expectStampsVerify(first.stamps, first);

    await page.reload();
    await page.waitForFunction(() => window.signetCore !== undefined);

    const second = await page.evaluate(restoreStored, {
      payloads: PAYLOADS,
      sessionId: SESSION_ID,
    });

    expect(second.raw).toEqual({
      type: "webcrypto",
      publicKey: first.publicKey,
      isCryptoKey: true,
      extractable: false,
    });
    expect(second.publicKey).toBe(first.publicKey);
    expect(second.publicKeyUncompressed).toBe(first.publicKeyUncompressed);
    expect(second.exported).toBe("InvalidAccessError");
    expectStampsVerify(second.stamps, first);
  });

  test("after a reload a stored key is taken without the probe, and a record whose public key is not its CryptoKey's never stamps", async ({
    page,
    coreServer,
  }) => {
    await openCorePage(page, coreServer.origin);
    const stored = await page.evaluate(storeTampered);
    await page.reload();
    await page.waitForFunction(() => window.signetCore !== undefined);
    const out = await page.evaluate(restoreTampered, PAYLOADS[0]!);
    expect(out).toMatchObject({ ...restoreTamperedExpected, swappedPublicKey: stored.publicKey });
    expect(verifyStampNode(out.stamp, PAYLOADS[0]!, stored.publicKeyUncompressed)).toBe(true);
  });

  test("the start-up probe falls back to memory without IndexedDB", async ({
    page,
    coreServer,
  }) => {
    await openCorePage(page, coreServer.origin);
    const persistence = await page.evaluate(async () => {
      Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true });
      const { store, persistence } = await window.signetCore!.createDefaultKeyStore();
      const key = await window.signetCore!.generateSigningKey();
      await store.set("Session:memory", key.toRecord());
      return { persistence, ids: await store.list() };
    });
    expect(persistence).toEqual({ persistence: "memory", ids: ["Session:memory"] });
  });

  test("sealOtpBundle, openExportBundle and openSessionKeyBundle work on the interop vectors", async ({
    page,
    coreServer,
  }) => {
    await openCorePage(page, coreServer.origin);
    const out = await page.evaluate(interopInPage, interopVectors);
    expect(interopOutcome(out)).toEqual(interopExpected(out));
  });

  test("the payload checks refuse a swapped payload before the signer is called", async ({
    page,
    coreServer,
  }) => {
    await openCorePage(page, coreServer.origin);
    expect(await page.evaluate(payloadChecksInPage, Date.now())).toEqual(payloadChecksExpected);
  });
});
