// The browser build of @signet/core in Firefox and WebKit, as e2e/core-crypto.spec.ts proves it in
// Chromium: WebCrypto keys that script cannot export, kept in IndexedDB across a reload, stamps
// checked by OpenSSL in Node, the OTP / export / legacy bundles on the interop vectors, and the key
// store's probe falling back to memory where IndexedDB cannot hold keys.
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { compressNode, parseStamp, verifyStampNode } from "../../packages/test/src/nodeStamp.js";
import { interopSamples } from "../../packages/test/src/vectors.js";
import { type CoreServer, startCoreServer } from "../fixtures/coreBundle.js";
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
} from "../fixtures/corePage.js";
import { ENGINES, type Engine, type EnginePage, launchEngine, waitUntil } from "./engines.js";

const samples = interopSamples();

const PAYLOADS = [
  ...samples.stamps.samples.map((s) => s.payload),
  '{"type":"EMBEDDED_WALLET_PAYMENT","memo":"Grüße — 東京 🚀"}',
  "",
];
const SESSION_ID = "Session:e2e-engines";

let server: Server;
let core: CoreServer;
beforeAll(async () => {
  ({ server, info: core } = await startCoreServer());
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

async function openCorePage(engine: Engine): Promise<EnginePage> {
  const page = await engine.open();
  await page.goto(`${core.origin}/`);
  await waitUntil(
    () => page.evaluate(() => window.signetCore !== undefined, null),
    "@signet/core to load in the page",
  );
  return page;
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

describe.each(ENGINES)("@signet/core in %s", (name) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await launchEngine(name);
  });
  afterAll(async () => {
    await engine?.close();
  });

  test("a generated key is non-extractable, kept in IndexedDB across a reload, and its stamps verify in Node", async () => {
    const page = await openCorePage(engine);
    try {
      const args = { payloads: PAYLOADS, sessionId: SESSION_ID };
      const first = await page.evaluate(generateAndStore, args);
      expect(first.persistence).toBe("indexeddb");
      expect(first.storePersistence).toBe("indexeddb");
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
      await waitUntil(
        () => page.evaluate(() => window.signetCore !== undefined, null),
        "@signet/core after the reload",
      );
      const second = await page.evaluate(restoreStored, args);
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
    } finally {
      await page.close();
    }
  });

  test("after a reload a stored key is taken without the probe, and a record whose public key is not its CryptoKey's never stamps", async () => {
    const page = await openCorePage(engine);
    try {
      const stored = await page.evaluate(storeTampered, null);
      await page.reload();
      await waitUntil(
        () => page.evaluate(() => window.signetCore !== undefined, null),
        "@signet/core after the reload",
      );
      const out = await page.evaluate(restoreTampered, PAYLOADS[0]!);
      expect(out).toMatchObject({
        ...restoreTamperedExpected,
        swappedPublicKey: stored.publicKey,
      });
      expect(verifyStampNode(out.stamp, PAYLOADS[0]!, stored.publicKeyUncompressed)).toBe(true);
    } finally {
      await page.close();
    }
  });

  test("the start-up probe falls back to memory without IndexedDB", async () => {
    const page = await openCorePage(engine);
    try {
      const out = await page.evaluate(async () => {
        Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true });
        const { store, persistence } = await window.signetCore!.createDefaultKeyStore();
        const key = await window.signetCore!.generateSigningKey();
        await store.set("Session:memory", key.toRecord());
        return { persistence, reported: store.persistence, ids: await store.list() };
      }, null);
      expect(out).toEqual({ persistence: "memory", reported: "memory", ids: ["Session:memory"] });
    } finally {
      await page.close();
    }
  });

  test("the start-up probe falls back to memory when IndexedDB refuses CryptoKeys (DataCloneError)", async () => {
    const page = await openCorePage(engine);
    try {
      const out = await page.evaluate(async () => {
        // What Safari's private browsing and Lockdown Mode do with a CryptoKey.
        const put = IDBObjectStore.prototype.put;
        IDBObjectStore.prototype.put = function (value: unknown, key?: IDBValidKey) {
          const holdsKey =
            typeof value === "object" &&
            value !== null &&
            Object.values(value).some((v) => v instanceof CryptoKey);
          if (holdsKey) throw new DOMException("CryptoKey cannot be cloned", "DataCloneError");
          return put.call(this, value, key);
        };
        const { store, persistence } = await window.signetCore!.createDefaultKeyStore();
        const key = await window.signetCore!.generateSigningKey();
        await store.set("Session:refused", key.toRecord());
        const restored = await window.signetCore!.restoreSigningKey(
          (await store.get("Session:refused"))!,
        );
        return {
          persistence,
          ids: await store.list(),
          samePublicKey: restored.publicKey === key.publicKey,
        };
      }, null);
      expect(out).toEqual({ persistence: "memory", ids: ["Session:refused"], samePublicKey: true });
    } finally {
      await page.close();
    }
  });

  test("sealOtpBundle, openExportBundle and openSessionKeyBundle work on the interop vectors", async () => {
    const page = await openCorePage(engine);
    try {
      const out = await page.evaluate(interopInPage, interopVectors);
      expect(interopOutcome(out)).toEqual(interopExpected(out));
    } finally {
      await page.close();
    }
  });

  test("the payload checks refuse a swapped payload before the signer is called", async () => {
    const page = await openCorePage(engine);
    try {
      expect(await page.evaluate(payloadChecksInPage, Date.now())).toEqual(payloadChecksExpected);
    } finally {
      await page.close();
    }
  });

  test("passkey support as core sees it: autofill and the ceremonies' answer", async () => {
    const page = await openCorePage(engine);
    try {
      const out = await page.evaluate(async () => {
        const core = window.signetCore!;
        const webauthn = core.createBrowserWebAuthn();
        // Options the browser refuses at once (an empty challenge) or, without WebAuthn, never sees.
        const register = await webauthn
          .register({
            rp: { id: "localhost", name: "e2e" },
            user: { id: "AA", name: "e2e", displayName: "e2e" },
            challenge: "",
            pubKeyCredParams: [{ type: "public-key", alg: -7 }],
          } as never)
          .then(
            () => "RESOLVED",
            (error: { code?: string }) => error.code,
          );
        return {
          api: typeof window.PublicKeyCredential,
          autofill: await core.browserSupportsPasskeyAutofill(),
          register,
        };
      }, null);
      if (name === "firefox") {
        expect(out.api).toBe("function");
        expect(out.autofill).toBe(true);
        expect(out.register).toMatch(/^WEBAUTHN_/);
        expect(out.register).not.toBe("WEBAUTHN_UNSUPPORTED");
      } else {
        // WebKitGTK is built without Web Authentication.
        expect(out).toEqual({
          api: "undefined",
          autofill: false,
          register: "WEBAUTHN_UNSUPPORTED",
        });
      }
    } finally {
      await page.close();
    }
  });
});

// Private browsing as each engine's automation offers it: Firefox with every window private
// (browser.privatebrowsing.autostart), MiniBrowser with --private (an ephemeral session). Both keep
// IndexedDB in memory for the private session and store CryptoKeys there, so the probe rightly
// picks IndexedDB: keys last across reloads until the private session ends.
describe.each(ENGINES)("@signet/core in %s, private browsing", (name) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await launchEngine(name, { private: true });
  });
  afterAll(async () => {
    await engine?.close();
  });

  test("the probe picks IndexedDB, which holds a non-extractable key across a reload", async () => {
    const page = await openCorePage(engine);
    try {
      const args = { payloads: PAYLOADS.slice(0, 1), sessionId: SESSION_ID };
      const first = await page.evaluate(generateAndStore, args);
      expect(first.persistence).toBe("indexeddb");
      expect(first.exportAttempts).toEqual({
        pkcs8: "InvalidAccessError",
        jwk: "InvalidAccessError",
      });
      await page.reload();
      await waitUntil(
        () => page.evaluate(() => window.signetCore !== undefined, null),
        "@signet/core after the reload",
      );
      const second = await page.evaluate(restoreStored, args);
      expect(second.raw).toMatchObject({ isCryptoKey: true, extractable: false });
      expect(second.publicKey).toBe(first.publicKey);
      expect(
        verifyStampNode(second.stamps[0]!, args.payloads[0]!, first.publicKeyUncompressed),
      ).toBe(true);
    } finally {
      await page.close();
    }
    // A new private session starts empty.
    const fresh = await openCorePage(engine);
    try {
      expect(
        await fresh.evaluate(() => window.signetCore!.createIndexedDbKeyStore().list(), null),
      ).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
