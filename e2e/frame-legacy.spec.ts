// The legacy sign-ins through the signer frame (packages/frame README "What the frame signs"), in
// real Chromium against the emulator over real HTTP: `signInWithOAuth({ legacy: true })` and
// `signInWithPasskey({ legacy: true })` get a session key the service sealed to a decrypt-only key
// of the frame, which the frame opens and keeps (runners in e2e/fixtures/frameFlows.ts,
// `legacyFrameFlows`, answered as e2e/frame-catalog.spec.ts answers its runners). Then the page,
// as a hostile script with raw access to the channel, tries to open a bundle with a key an export
// claimed, with a spent key, with a handle the frame never made, and without a bundle.
import { generateKeyPairSync } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { sealLegacySessionKey } from "../packages/emulator/src/crypto/bundles.js";
import { virtualAuthenticator } from "./fixtures/authenticator.js";
import {
  type CatalogIds,
  emulatorPlatform,
  type FlowArgument,
  legacyFrameFlows,
  openCatalogAppInPage,
  runThroughFrame,
  signUpCatalogCustomer,
} from "./fixtures/frameFlows.js";
import { type HostileAccess, installHostileInPage } from "./fixtures/framePage.js";
import { type FrameServers, startFrameServers } from "./fixtures/frameServer.js";

let servers: FrameServers;
test.beforeAll(async () => {
  servers = await startFrameServers();
});
test.afterAll(async () => {
  await servers?.close();
});

/** The emulator's platform API, as the app's backend calls it (Node side, Basic auth). */
const platform = emulatorPlatform(() => servers.emulator.url);

async function openApp(page: Page, ids: CatalogIds) {
  await page.goto(servers.app);
  await page.waitForFunction(() => window.appReady === true);
  await page.evaluate(openCatalogAppInPage, { frameUrl: `${servers.frame}/`, ids });
}

for (const [name, flow] of Object.entries(legacyFrameFlows)) {
  test(`${name} through the frame: the session key is opened and kept there`, async ({ page }) => {
    if (flow.passkey) await virtualAuthenticator(page);
    const ids = await signUpCatalogCustomer(platform);
    const argument: FlowArgument = { ids, ...(await flow.prepare?.(platform, ids)) };
    await openApp(page, ids);
    await runThroughFrame(page, name, flow, argument);
  });
}

test("the page cannot open a session bundle with an export's key, a spent key or a key the frame did not make", async ({
  page,
}) => {
  const ids = await signUpCatalogCustomer(platform);
  await openApp(page, ids);
  await page.evaluate(installHostileInPage, servers.frame);
  const result = await page.evaluate(async (accountId) => {
    const { hostile, signer } = window.frameTest as never as {
      hostile: HostileAccess;
      signer: { crypto: { openSessionKeyBundle(parameters: unknown): Promise<unknown> } };
    };
    const reasonOf = async (message: Record<string, unknown>) => {
      const answer = await hostile.ask(message);
      return answer.ok ? "opened" : answer.error?.details?.reason;
    };
    // A bundle of the legacy shape (base58check of 81 bytes) need not be valid for these: each
    // is refused before it is read.
    const bundle = "1".repeat(110);
    const { result: listed } = await hostile.ask({ kind: "list" });
    const storeId = (listed as { storeIds: string[] }).storeIds.find((s) =>
      s.startsWith("signet.session|"),
    )!;
    const { result: got } = await hostile.ask({ kind: "get", storeId });
    const sessionHandle = (got as { handle: string }).handle;

    // A decrypt-only key an export named: claimed by the export, it never opens a session.
    const { result: made } = await hostile.ask({ kind: "exportKey" });
    const exportHandle = (made as { handle: string }).handle;
    const exportStamp = await reasonOf({
      kind: "stamp",
      handle: sessionHandle,
      payload: "{}",
      operation: "exportWallet",
      method: "POST",
      path: `/internal-accounts/${accountId}/export`,
      body: JSON.stringify({ clientPublicKey: exportHandle }),
    });
    const exportKey = await reasonOf({ kind: "openSession", handle: exportHandle, bundle });

    // A fresh key opens at most one bundle: a garbled one spends it (refused by core's open).
    const { result: fresh } = await hostile.ask({ kind: "exportKey" });
    const freshHandle = (fresh as { handle: string }).handle;
    const garbled = await hostile.ask({ kind: "openSession", handle: freshHandle, bundle });
    const spent = await reasonOf({ kind: "openSession", handle: freshHandle, bundle });

    const unknown = await reasonOf({ kind: "openSession", handle: `04${"22".repeat(64)}`, bundle });
    const noBundle = await reasonOf({ kind: "openSession", handle: freshHandle });
    // The signing key's handle is no decryption key.
    const signingHandle = await reasonOf({ kind: "openSession", handle: sessionHandle, bundle });
    // The adapter never returns a scalar to the page.
    const scalar = await signer.crypto
      .openSessionKeyBundle({ bundle, key: { publicKeyUncompressed: freshHandle } })
      .then(
        () => "returned",
        (error: { code: string; details?: { reason?: string } }) =>
          `${error.code}:${error.details?.reason}`,
      );
    return {
      exportStamp,
      exportKey,
      garbled: garbled.ok ? "opened" : garbled.error?.code,
      spent,
      unknown,
      noBundle,
      signingHandle,
      scalar,
    };
  }, ids.accountId);
  expect(result).toEqual({
    exportStamp: "check",
    exportKey: "key",
    garbled: expect.stringMatching(/^(ENCODING_INVALID|CHECKSUM_INVALID|BUNDLE_MALFORMED)$/),
    spent: "key",
    unknown: "key",
    noBundle: "unexpected",
    signingHandle: "key",
    scalar: "FRAME_REFUSED:unsupported",
  });
});

test("a key the page sealed into a legacy bundle itself is opened, but never gets a session by a refresh", async ({
  page,
}) => {
  // The legacy bundle carries no signature, only its seal to the frame's decrypt-only key, whose
  // public key the page is told: the page can seal a scalar it chose. The frame opens it (a sign-in
  // could not tell it from the service's), but such a key is never a refresh's new session key,
  // or the page would hold a session's private key.
  const ids = await signUpCatalogCustomer(platform);
  await openApp(page, ids);
  await page.evaluate(installHostileInPage, servers.frame);
  const decryptKey = await page.evaluate(async () => {
    const { hostile } = window.frameTest as never as { hostile: HostileAccess };
    const { result } = await hostile.ask({ kind: "exportKey" });
    return (result as { handle: string }).handle;
  });
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = privateKey.export({ format: "jwk" });
  const bytes = (b64: string | undefined) => new Uint8Array(Buffer.from(b64 ?? "", "base64url"));
  const chosen = `04${Buffer.from(bytes(jwk.x)).toString("hex")}${Buffer.from(bytes(jwk.y)).toString("hex")}`;
  const bundle = sealLegacySessionKey({
    sessionPrivateKey: bytes(jwk.d),
    recipientPublicKey: new Uint8Array(Buffer.from(decryptKey, "hex")),
  });
  const result = await page.evaluate(
    async ({ accountId, decryptKey, bundle }) => {
      const { hostile } = window.frameTest as never as { hostile: HostileAccess };
      const opened = await hostile.ask({ kind: "openSession", handle: decryptKey, bundle });
      const key = opened.result as {
        handle: string;
        publicKey: string;
        publicKeyUncompressed: string;
      };
      const { result: listed } = await hostile.ask({ kind: "list" });
      const storeId = (listed as { storeIds: string[] }).storeIds.find((s) =>
        s.startsWith("signet.session|"),
      )!;
      const { result: got } = await hostile.ask({ kind: "get", storeId });
      const sessionHandle = (got as { handle: string }).handle;
      const refreshTo = async (handle: string, clientPublicKey: string) => {
        const answer = await hostile.ask({
          kind: "stamp",
          handle,
          payload: JSON.stringify({
            type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
            timestampMs: String(Date.now()),
            organizationId: "org",
            parameters: { targetPublicKey: clientPublicKey, expirationSeconds: "900" },
          }),
          operation: "refreshSession",
          method: "POST",
          path: `/auth/sessions/${storeId.split("|")[2] ?? "Session:x"}/refresh`,
          body: JSON.stringify({ accountId, clientPublicKey }),
        });
        return answer.ok ? "stamped" : answer.error?.details?.reason;
      };
      return {
        opened: opened.ok ? key.publicKeyUncompressed : opened.error?.details?.reason,
        // The stored session's refresh to the page's key, in either encoding.
        storedToChosen: await refreshTo(sessionHandle, key.publicKey),
        storedToChosenUncompressed: await refreshTo(sessionHandle, key.publicKeyUncompressed),
      };
    },
    { accountId: ids.accountId, decryptKey, bundle },
  );
  expect(result).toEqual({
    opened: chosen,
    storedToChosen: "key",
    storedToChosenUncompressed: "key",
  });
});
