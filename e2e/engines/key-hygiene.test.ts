// Key hygiene in Firefox ESR and WebKitGTK, as e2e/key-hygiene.spec.ts checks it in Chromium: email
// sign-ins through the relay to the emulator with core's default browser key store (IndexedDB).
// Each stored private key is a non-extractable CryptoKey that `exportKey` refuses; a dump of every
// IndexedDB database and Web Storage of the origin holds no known scalar in any spelling (while it
// does hold each key's public key: the search works); revoking a session deletes its key and only
// its key; after sign-out nothing is left. The counts are printed per engine.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type KeyHygieneCounts,
  keyHygieneExpected,
  keyHygieneInPage,
} from "../fixtures/keyHygienePage.js";
import { startWalletServer, type WalletServer } from "../fixtures/walletServer.js";
import { ENGINES, type Engine, launchEngine, waitUntil } from "./engines.js";

/** Sign-in rounds per engine (two sign-ins each); KEY_HYGIENE_ROUNDS raises it for a longer run. */
const ROUNDS = Number(process.env.KEY_HYGIENE_ROUNDS ?? 3);

let server: WalletServer;
beforeAll(async () => {
  server = await startWalletServer();
});
afterAll(async () => {
  await server?.close();
});

describe.each(ENGINES)("key hygiene in %s", (name) => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await launchEngine(name);
  });
  afterAll(async () => {
    await engine?.close();
  });

  test(`${ROUNDS} rounds of two sign-ins, a revoke and a sign-out: no exportable key, no scalar in storage or events, no key left`, async () => {
    const page = await engine.open();
    try {
      await page.goto(`${server.origin}/`);
      await waitUntil(
        () =>
          page.evaluate(() => window.signetCore !== undefined && window.e2e !== undefined, null),
        "@signet/core and the test helpers to load in the page",
      );
      const counts: KeyHygieneCounts = await page.evaluate(keyHygieneInPage, { rounds: ROUNDS });
      console.info(`key hygiene in ${name} ${engine.version}: ${JSON.stringify(counts)}`);
      expect(counts).toEqual(keyHygieneExpected(ROUNDS));
    } finally {
      await page.close();
    }
  });
});
