// Passkey flows in real Chromium with the CDP virtual authenticator: a user signs in by email OTP,
// adds a passkey, signs in with it, and the session key survives a reload in IndexedDB.
import { expect, test } from "@playwright/test";
import { virtualAuthenticator } from "./fixtures/authenticator.js";
import { startWalletServer, type WalletServer } from "./fixtures/walletServer.js";

let server: WalletServer;
test.beforeAll(async () => {
  server = await startWalletServer();
});
test.afterAll(async () => {
  await server?.close();
});

test("email OTP, add a passkey, sign in with it, reload and export", async ({ page }) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);

  await page.goto(server.origin);
  await page.waitForFunction(() => window.signetCore !== undefined);
  const user = await page.evaluate(async () => {
    const core = window.signetCore!;
    const ids = await (
      await fetch("/api/test/signup", {
        method: "POST",
        body: JSON.stringify({ email: `e2e-${Date.now()}@example.com` }),
      })
    ).json();
    const keys = await (await fetch("/api/test/keys")).json();
    localStorage.setItem("e2e", JSON.stringify({ ids, keys }));
    const client = core.createClient({
      relayUrl: "/api/grid",
      headers: { "x-test-customer": ids.customerId },
      trustedKeys: {
        otpTargetBundle: [keys.attestationPublicKey],
        exportBundle: [keys.signerPublicKey],
      },
    });
    const persistence = await client.persistence();
    const otp = await core.requestOtp(client, { credentialId: ids.emailCredentialId });
    await core.verifyOtp(client, { ...otp, otpCode: "000000" });
    const challenge = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
      .replaceAll("+", "-")
      .replaceAll("/", "_")
      .replaceAll("=", "");
    const passkey = await core.addPasskey(client, {
      accountId: ids.accountId,
      nickname: "Virtual authenticator",
      challenge,
      rp: { id: "localhost", name: "Signet e2e" },
      user: { id: btoa("e2e-user").replaceAll("=", ""), name: "e2e", displayName: "E2E" },
    });
    const session = await core.signInWithPasskey(client, { credentialId: passkey.id });
    return { ...ids, persistence, passkeyId: passkey.id, session };
  });
  expect(user.persistence).toBe("indexeddb");
  expect(user.session.credentialId).toBe(user.passkeyId);
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.signCount).toBeGreaterThan(0);

  await page.reload();
  await page.waitForFunction(() => window.signetCore !== undefined);
  const after = await page.evaluate(async () => {
    const core = window.signetCore!;
    const { ids, keys } = JSON.parse(localStorage.getItem("e2e")!);
    const client = core.createClient({
      relayUrl: "/api/grid",
      headers: { "x-test-customer": ids.customerId },
      trustedKeys: {
        otpTargetBundle: [keys.attestationPublicKey],
        exportBundle: [keys.signerPublicKey],
      },
    });
    const session = await core.getSession(client, { accountId: ids.accountId });
    const mnemonic = await core.exportWallet(client, { accountId: ids.accountId });
    const record = (await (await client.keyStore()).list()).length;
    return { session, words: mnemonic.split(" ").length, record };
  });
  expect(after.session?.id).toBe(user.session.id);
  expect(after.words).toBe(12);
  expect(after.record).toBeGreaterThanOrEqual(1);
});

test("a passkey prompt that runs out its time is WEBAUTHN_TIMEOUT, not a cancel, and nothing is half-applied", async ({
  page,
}) => {
  // No virtual authenticator: Chromium waits out the options' timeout, then rejects
  // navigator.credentials.create with NotAllowedError, the same name a dismissal gets. The
  // mapping tells them apart by the time the ceremony ran (webauthn/errors.ts; the table tests
  // there cover the dismissal).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await page.goto(server.origin);
  await page.waitForFunction(() => window.signetCore !== undefined);
  const result = await page.evaluate(async () => {
    const core = window.signetCore!;
    const ids = await (
      await fetch("/api/test/signup", {
        method: "POST",
        body: JSON.stringify({ email: `e2e-cancel-${Date.now()}@example.com` }),
      })
    ).json();
    const keys = await (await fetch("/api/test/keys")).json();
    const client = core.createClient({
      relayUrl: "/api/grid",
      headers: { "x-test-customer": ids.customerId },
      trustedKeys: {
        otpTargetBundle: [keys.attestationPublicKey],
        exportBundle: [keys.signerPublicKey],
      },
    });
    const otp = await core.requestOtp(client, { credentialId: ids.emailCredentialId });
    await core.verifyOtp(client, { ...otp, otpCode: "000000" });
    const error = await core
      .addPasskey(client, {
        accountId: ids.accountId,
        nickname: "Never",
        challenge: "A".repeat(43),
        rp: { id: "localhost", name: "Signet e2e" },
        user: { id: "dXNlcg", name: "u", displayName: "U" },
        timeoutMs: 2_000,
      })
      .catch((e: unknown) => e as { code?: string; name?: string });
    const credentials = await core.listCredentials(client, { accountId: ids.accountId });
    const failure = error as {
      code?: string;
      name?: string;
      retryable?: boolean;
      details?: { ceremony?: string; name?: string; timeoutMs?: number; elapsedMs?: number };
    };
    return {
      code: failure.code,
      name: failure.name,
      retryable: failure.retryable,
      details: failure.details,
      count: credentials.length,
    };
  });
  expect(result.name).toBe("SignetError");
  expect(result.code).toBe("WEBAUTHN_TIMEOUT");
  expect(result.retryable).toBe(true);
  expect(result.details).toMatchObject({
    ceremony: "registration",
    name: "NotAllowedError",
    timeoutMs: 2_000,
  });
  expect(result.details?.elapsedMs).toBeGreaterThanOrEqual(1_500);
  expect(result.count).toBe(1);
});

test("WebAuthn Signal API: a revoked passkey leaves the device's passkey manager, and a credential list hides passkeys the service no longer has", async ({
  page,
}) => {
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const onDevice = async () =>
    (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.length;
  await page.goto(server.origin);
  await page.waitForFunction(() => window.e2e !== undefined);
  // The WebAuthn user ids the platform gave the passkeys: one per passkey here, since an
  // authenticator keeps one discoverable passkey per user id and site.
  const userIds = ["c2lnbmFsLTE", "c2lnbmFsLTI"];

  // Two passkeys on the device and on the account.
  const added = await page.evaluate(async (userIds) => {
    const core = window.signetCore!;
    const user = await window.e2e!.signUp("signal");
    const client = window.e2e!.client(user);
    const otp = await core.requestOtp(client, { credentialId: user.ids.emailCredentialId });
    await core.verifyOtp(client, { ...otp, otpCode: "000000" });
    const passkeys = [];
    for (const [i, nickname] of ["First", "Second"].entries()) {
      const challenge = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
        .replaceAll("+", "-")
        .replaceAll("/", "_")
        .replaceAll("=", "");
      passkeys.push(
        await core.addPasskey(client, {
          accountId: user.ids.accountId,
          nickname,
          challenge,
          rp: { id: "localhost", name: "Signet e2e" },
          user: { id: userIds[i]!, name: `signal-${i}`, displayName: "Signal" },
        }),
      );
    }
    localStorage.setItem("signal", JSON.stringify({ user, passkeys }));
    return passkeys.map((p) => ({ id: p.id, credentialId: p.credentialId }));
  }, userIds);
  expect(added.every((p) => typeof p.credentialId === "string")).toBe(true);
  await expect.poll(onDevice).toBe(2);

  // Revoking the first with its WebAuthn id tells the browser, which drops it from the device.
  await page.evaluate(async (first) => {
    const core = window.signetCore!;
    const { user } = JSON.parse(localStorage.getItem("signal")!);
    const client = window.e2e!.client(user);
    await core.revokeCredential(client, {
      accountId: user.ids.accountId,
      credentialId: first.id,
      type: "PASSKEY",
      passkeyCredentialId: first.credentialId,
    });
  }, added[0]!);
  await expect.poll(onDevice).toBe(1);

  // The second is revoked elsewhere (no signal from this page); a list with the user's id
  // brings the device in line with the service.
  await page.evaluate(
    async ({ second, userId }) => {
      const core = window.signetCore!;
      const { user } = JSON.parse(localStorage.getItem("signal")!);
      const client = window.e2e!.client(user);
      await core.revokeCredential(client, {
        accountId: user.ids.accountId,
        credentialId: second.id,
        type: "PASSKEY",
      });
      const listed = await core.listCredentials(client, {
        accountId: user.ids.accountId,
        passkeyUserId: userId,
      });
      if (listed.some((c) => c.type === "PASSKEY")) throw new Error("a revoked passkey is listed");
    },
    { second: added[1]!, userId: userIds[1]! },
  );
  await expect.poll(onDevice).toBe(0);
});
