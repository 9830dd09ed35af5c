// Webhooks pushed to the waiting device (issue #37 item 2): core → relay → emulator over real
// HTTP, the emulator signing and sending the service's wallet-operation webhooks (#802) to the
// relay. A call answered PROCESSING ends on the push: with a backoff far longer than the test
// may run, the export still ends, after exactly one re-send past the PROCESSING answer. Without
// a receiver on the relay, the same client falls back to polling.
import { addCredential, exportWallet, type SignetEvent } from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

/**
 * A first wait after PROCESSING no test could sit through (about 200 s: jitter pinned near its
 * ceiling, inside the challenge's 5 minutes so that the engine does make it): only a push can end
 * the call in time.
 */
const SLOW = {
  retry: { backoff: { baseMs: 200_000, factor: 1, maxMs: 200_000 } },
  random: () => 0.999,
};

let stack: Stack;
let polling: Stack;
beforeAll(async () => {
  stack = await startStack({
    webhooks: { baseDelayMs: 20, maxAttempts: 3, settleMs: 20 },
    relayWebhooks: { waitMs: 5_000 },
  });
  polling = await startStack({ webhooks: { settleMs: 20 } });
});
afterAll(async () => {
  await Promise.all([stack?.close(), polling?.close()]);
});

async function user(on: Stack, overrides: Parameters<Stack["client"]>[1]) {
  const signedUp = await on.signUp(undefined, { phoneNumber: "+14155550199" });
  const { client, events } = on.client(signedUp.customerId, overrides);
  await signInWithEmail(client, signedUp.emailCredentialId);
  return { ...signedUp, client, events };
}

const sends = async (on: Stack, path: string) =>
  (await on.requests()).filter((r) => r.path.endsWith(path) && r.method === "POST");

const stages = (events: SignetEvent[]) =>
  events.flatMap((e) => (e.type === "signedRequest" ? [e.stage] : []));

describe("a PROCESSING call with push: true", () => {
  it("ends an export on the relay's push: one re-send after PROCESSING, no backoff waited", async () => {
    const u = await user(stack, { push: true, ...SLOW });
    const path = `/internal-accounts/${u.accountId}/export`;
    await stack.fault({ kind: "processing", match: { method: "POST", path } });
    await stack.clearRequests();
    const mnemonic = await exportWallet(u.client, { accountId: u.accountId });
    expect(mnemonic).toMatch(/^[a-z]+( [a-z]+){11}$/);
    // Leg 1, the signed send answered PROCESSING, the one re-send that collected the result.
    const sent = await sends(stack, path);
    expect(sent.map((r) => [r.status, r.fault ?? null, r.hasSignature])).toEqual([
      [202, null, false],
      [200, "processing", true],
      [200, null, true],
    ]);
    // The wait the push cut short.
    const waited = u.events.find((e) => e.type === "signedRequest" && e.stage === "processing");
    expect(waited).toMatchObject({ delayMs: expect.any(Number) });
    expect((waited as { delayMs: number }).delayMs).toBeGreaterThan(150_000);
    const pushed = u.events.find((e) => e.type === "signedRequest" && e.stage === "pushed");
    expect(pushed).toMatchObject({
      push: { operationType: "wallet.export", status: "completed", resourceId: u.accountId },
    });
  });

  it("ends a credential add on the push, and the push names the new credential", async () => {
    const u = await user(stack, { push: true, ...SLOW });
    await stack.fault({ kind: "processing", match: { method: "POST", path: "/auth/credentials" } });
    await stack.clearRequests();
    const added = await addCredential(u.client, {
      accountId: u.accountId,
      type: "SMS_OTP",
      phoneNumber: "+14155550199",
    });
    const sent = (await stack.requests()).filter(
      (r) => r.method === "POST" && r.path.endsWith("/auth/credentials"),
    );
    expect(sent).toHaveLength(3);
    const pushed = u.events.find((e) => e.type === "signedRequest" && e.stage === "pushed");
    expect(pushed).toMatchObject({
      push: { operationType: "auth_credential.create", resourceId: added.id },
    });
  });
});

describe("a PROCESSING call with no receiver on the relay", () => {
  it("falls back to polling: the backoff's wait ends it", async () => {
    const u = await user(polling, {
      push: true,
      retry: { backoff: { baseMs: 200, factor: 1, maxMs: 200 } },
    });
    const path = `/internal-accounts/${u.accountId}/export`;
    await polling.fault({ kind: "processing", match: { method: "POST", path } });
    await polling.clearRequests();
    expect(await exportWallet(u.client, { accountId: u.accountId })).toMatch(/ /);
    expect((await sends(polling, path)).length).toBeGreaterThanOrEqual(3);
    expect(stages(u.events)).not.toContain("pushed");
  });
});
