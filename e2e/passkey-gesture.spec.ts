// Passkeys through @simplewebauthn/browser in real Chromium: the ceremony's code is loaded when the
// client is created, so a tap reaches navigator.credentials in the same task (iOS Safari drops the
// prompt after slow async work); and passkey autofill (conditional UI) is detected and guarded.
import { expect, type Page, test } from "@playwright/test";
import {
  addVirtualAuthenticator,
  startWalletServer,
  type WalletServer,
} from "./fixtures/walletServer.js";

let server: WalletServer;
test.beforeAll(async () => {
  server = await startWalletServer();
});
test.afterAll(async () => {
  await server?.close();
});

declare global {
  interface Window {
    gesture?: {
      /** Records which ceremonies reached navigator.credentials (wrapping create and get). */
      recordCeremonies(): string[];
      /** A fresh base64url WebAuthn challenge. */
      challenge(): string;
      /** A passkey's relying party and user for `addPasskey`. */
      identity(name: string): {
        rp: { id: string; name: string };
        user: { id: string; name: string; displayName: string };
      };
    };
  }
}

// Both cases open the wallet page with a virtual authenticator and these page-side helpers.
async function openPage(page: Page): Promise<void> {
  await addVirtualAuthenticator(page);
  await page.addInitScript(() => {
    window.gesture = {
      recordCeremonies() {
        const reached: string[] = [];
        const { create, get } = navigator.credentials;
        navigator.credentials.create = function (options) {
          reached.push("create");
          return create.call(this, options);
        };
        navigator.credentials.get = function (options) {
          reached.push("get");
          return get.call(this, options);
        };
        return reached;
      },
      challenge: () =>
        btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
          .replaceAll("+", "-")
          .replaceAll("/", "_")
          .replaceAll("=", ""),
      identity: (name) => ({
        rp: { id: "localhost", name: "Signet e2e" },
        user: { id: btoa(name).replaceAll("=", ""), name, displayName: name },
      }),
    };
  });
  await page.goto(server.origin);
  await page.waitForFunction(() => window.signetCore !== undefined);
}

test("add and sign in with a passkey: navigator.credentials is called in the same task as the tap", async ({
  page,
}) => {
  await openPage(page);
  const result = await page.evaluate(async () => {
    const core = window.signetCore!;
    const user = await window.e2e!.signUp("gesture");
    const { ids } = user;
    const client = window.e2e!.client(user);
    const otp = await core.requestOtp(client, { credentialId: ids.emailCredentialId });
    await core.verifyOtp(client, { ...otp, otpCode: "000000" });
    // Record whether each ceremony reached the browser before the calling task ended.
    const reached = window.gesture!.recordCeremonies();
    const adding = core.addPasskey(client, {
      accountId: ids.accountId,
      nickname: "Gesture test",
      challenge: window.gesture!.challenge(),
      ...window.gesture!.identity("gesture"),
    });
    const createdInTask = reached.includes("create");
    const passkey = await adding;
    const prepared = await core.preparePasskeySignIn(client, { credentialId: passkey.id });
    const signingIn = core.signInWithPasskey(client, { prepared });
    const gotInTask = reached.includes("get");
    const session = await signingIn;
    return {
      createdInTask,
      gotInTask,
      credentialId: session.credentialId,
      passkeyId: passkey.id,
      autofill: await core.browserSupportsPasskeyAutofill(),
      // Autofill without the input it needs: a typed error, not a hang.
      noInput: await core
        .signInWithPasskey(client, { credentialId: passkey.id, autofill: true })
        .then(
          () => "resolved",
          (error: { code?: string }) => error.code,
        ),
    };
  });
  expect(result.createdInTask).toBe(true);
  expect(result.gotInTask).toBe(true);
  expect(result.credentialId).toBe(result.passkeyId);
  expect(result.autofill).toBe(true);
  expect(result.noInput).toBe("INVALID_ARGUMENT");
});

test("step-up naming addPasskey: the check is synchronous once the sessions are read, so the prompt still opens in the tap's task; a stale session is refused before any prompt", async ({
  page,
}) => {
  await openPage(page);
  const result = await page.evaluate(async () => {
    const core = window.signetCore!;
    const user = await window.e2e!.signUp("gesture-step-up");
    const { ids } = user;
    const clock = { ahead: 0 };
    const options = {
      stepUp: { actions: ["addPasskey" as const], maxAgeMs: 15 * 60_000 },
      clock: { now: () => Date.now() + clock.ahead },
    };
    const signedIn = window.e2e!.client(user, options);
    const otp = await core.requestOtp(signedIn, { credentialId: ids.emailCredentialId });
    await core.verifyOtp(signedIn, { ...otp, otpCode: "000000" });
    // A page loaded afresh: a new client on the same IndexedDB store, whose sessions nothing asked
    // for: `stepUp` makes createClient read them.
    const client = window.e2e!.client(user, options);
    await new Promise<void>((resolve) => {
      const done = () => client.sessions.getSnapshot()[ids.accountId]?.length && resolve();
      client.sessions.subscribe(done);
      done();
    });
    const reached = window.gesture!.recordCeremonies();
    const add = () =>
      core.addPasskey(client, {
        accountId: ids.accountId,
        nickname: "Gesture step-up",
        challenge: window.gesture!.challenge(),
        ...window.gesture!.identity("stepup"),
      });
    const adding = add();
    const createdInTask = reached.includes("create");
    const passkey = await adding;
    // The verification lapses: refused, and no passkey prompt was opened for it.
    clock.ahead = 16 * 60_000;
    reached.length = 0;
    const refused = await add().then(
      () => "resolved",
      (error: { code?: string }) => error.code,
    );
    return { createdInTask, type: passkey.type, refused, promptsWhenRefused: reached.length };
  });
  expect(result.createdInTask).toBe(true);
  expect(result.type).toBe("PASSKEY");
  expect(result.refused).toBe("STEP_UP_REQUIRED");
  expect(result.promptsWhenRefused).toBe(0);
});
