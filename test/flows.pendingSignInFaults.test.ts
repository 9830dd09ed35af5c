// A kept sign-in's re-send meeting a fault on either hop (docs/protocol.md §2.5): a reload's
// resume of an OTP or passkey sign-in that the service answered PROCESSING, whose first re-send
// is cut, answered 502 or held past the client's time limit, between the device and the relay or
// between the relay and the service (real sockets, test/support/faultProxy.ts). Whatever the
// fault, the sign-in ends settled (the session held under the device's key) or kept for the next
// resume with its key still noted; never a session at the service that nobody holds or can end:
// a sign-out afterwards leaves the account with no session and the key store with no note.
import {
  addPasskey,
  createMemoryKeyStore,
  type ResumedCall,
  requestOtp,
  signInWithPasskey,
  signOut,
  verifyOtp,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FaultProxy,
  type ProxiedRequest,
  type ProxyFault,
  startFaultProxy,
} from "./support/faultProxy.js";
import { pendingOf, quiet, sharedPendingStore, until } from "./support/pendingStore.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack, USER_HEADER } from "./support/stack.js";

type Hop = "device" | "service";
/** The fault armed for the next re-send of a verify on one hop, used once. */
const armed: Record<Hop, ProxyFault | undefined> = { device: undefined, service: undefined };
const isVerify = (request: ProxiedRequest) =>
  request.method === "POST" && /\/auth\/credentials\/AuthMethod:[^/]+\/verify$/.test(request.url);
const take = (hop: Hop) => (request: ProxiedRequest) => {
  const fault = armed[hop];
  if (fault === undefined || !isVerify(request)) return undefined;
  armed[hop] = undefined;
  return fault;
};

let stack: Stack;
let deviceHop: FaultProxy;
let deviceRelayUrl: string;
beforeAll(async () => {
  stack = await startStack({
    relayTags: [USER_HEADER],
    serviceHop: (forward, emulatorUrl) =>
      startFaultProxy({
        target: emulatorUrl,
        forward,
        flowHeader: USER_HEADER,
        tagHeaders: [USER_HEADER],
        decide: take("service"),
      }),
  });
  const relay = new URL(stack.relayUrl);
  deviceHop = await startFaultProxy({
    target: relay.origin,
    flowHeader: USER_HEADER,
    decide: take("device"),
  });
  deviceRelayUrl = `${deviceHop.url}${relay.pathname}`;
});
afterAll(async () => {
  await deviceHop?.close();
  await stack?.close();
});

/** The sessions the service lists for the account (what could still sign). */
const live = async (accountId: string) =>
  (
    await stack.platform<{ data: { id: string }[] }>("GET", `/auth/sessions?accountId=${accountId}`)
  ).body.data.map((session) => session.id);

type KeyStore = ReturnType<typeof createMemoryKeyStore>;
const notes = async (keyStore: KeyStore) =>
  (await keyStore.list()).filter((id) => id.startsWith("signet.possible|"));

/**
 * A sign-in on a fresh page whose verify the service answers PROCESSING until it is kept, then
 * the page goes (as a reload). `passkey`: by a passkey (added under an email session that is then
 * signed out), else by an email code.
 */
async function keptSignIn(passkey: boolean) {
  const user = await stack.signUp();
  let credentialId = user.emailCredentialId;
  let webauthn: Parameters<Stack["client"]>[1] = {};
  if (passkey) {
    const owner = stack.client(user.customerId);
    await signInWithEmail(owner.client, user.emailCredentialId);
    const added = await addPasskey(owner.client, {
      accountId: user.accountId,
      nickname: "Phone",
      challenge: registrationChallenge(),
      rp: { id: "localhost", name: "Signet test" },
      user: passkeyUser("faults"),
    });
    await signOut(owner.client, { accountId: user.accountId });
    credentialId = added.id;
    webauthn = { webauthn: owner.authenticator.provider };
  }
  const keyStore = createMemoryKeyStore();
  const pendingStore = sharedPendingStore();
  const tab = stack.client(user.customerId, { keyStore, pendingStore, ...webauthn });
  const path = `/auth/credentials/${credentialId}/verify`;
  await stack.fault({ match: { method: "POST", path }, count: 1000, kind: "processing" });
  const controller = new AbortController();
  const { signal } = controller;
  const call = passkey
    ? signInWithPasskey(tab.client, { credentialId, signal })
    : requestOtp(tab.client, { credentialId }).then((otp) =>
        verifyOtp(tab.client, { ...otp, otpCode: "000000", signal }),
      );
  await until(
    async () => (await pendingStore.list()).length === 1 && pendingOf(tab.events).length >= 2,
    "the kept sign-in",
  );
  controller.abort();
  await expect(call).rejects.toMatchObject({ code: "ABORTED" });
  tab.client.destroy();
  await quiet(stack);
  await fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" });
  expect(await live(user.accountId)).toEqual([]);
  return { ...user, keyStore, pendingStore };
}

/** A reloaded page on the same stores, through the device hop, giving up on a send after 400 ms. */
function reload(customerId: string, stores: { keyStore: KeyStore; pendingStore: unknown }) {
  return stack.client(customerId, {
    relayUrl: deviceRelayUrl,
    keyStore: stores.keyStore,
    pendingStore: stores.pendingStore as ReturnType<typeof sharedPendingStore>,
    resumePending: false,
    requestTimeoutMs: 400,
    retry: { backoff: { baseMs: 20, maxMs: 100 } },
  });
}

const FAULTS: [Hop, string, ProxyFault][] = [
  ["device", "the connection cut before it is forwarded", { kind: "drop-request" }],
  ["device", "the answer lost after the service acted", { kind: "drop-response" }],
  ["device", "a 502 from the hop", { kind: "error-before", status: 502 }],
  ["device", "the answer held past the time limit", { kind: "delay-response", ms: 900 }],
  ["service", "the connection cut before it reaches the service", { kind: "drop-request" }],
  ["service", "the answer lost after the service acted", { kind: "drop-response" }],
  ["service", "a 502 from the hop", { kind: "error-before", status: 502 }],
  ["service", "the answer held past the time limit", { kind: "delay-response", ms: 900 }],
];

describe.each([
  ["an OTP sign-in", false],
  ["a passkey sign-in", true],
])("%s kept across a reload, its re-send faulted", (_what, passkey) => {
  it.each(FAULTS)(
    "%s hop, %s: settled or kept, never an orphan session or a lost key",
    async (hop, _fault, fault) => {
      const setup = await keptSignIn(passkey);
      const { accountId, customerId, keyStore, pendingStore } = setup;
      armed[hop] = fault;
      const page = reload(customerId, setup);
      const ended: ResumedCall[] = [];
      // Resumed until it ends (each resume either ends it or leaves it kept, at most a few).
      for (let round = 0; round < 4 && (await pendingStore.list()).length > 0; round++) {
        const [result] = await page.client.pending.resume();
        if (result === undefined) break;
        ended.push(result);
        // Kept: the key is still noted and the copy still there, for the next resume.
        if (result.outcome === "failed" && result.kept === true) {
          expect((await pendingStore.list()).length).toBe(1);
          expect(await notes(keyStore)).toHaveLength(1);
        }
      }
      expect(armed[hop]).toBeUndefined();
      const last = ended.at(-1);
      expect(last).toBeDefined();
      const held = await page.client.sessions.list(accountId);
      if (last!.outcome === "settled") {
        expect(held).toHaveLength(1);
        expect(await notes(keyStore)).toEqual([]);
      } else {
        // Ended without a session held, only where the earlier send may have landed (its
        // request id spent): whatever the service made is the noted key's.
        expect(last).toMatchObject({ error: { code: "OUTCOME_UNKNOWN" } });
        expect(held).toEqual([]);
        expect(await notes(keyStore)).toHaveLength(1);
      }
      expect(await pendingStore.list()).toEqual([]);
      // Every session at the service is held or noted: a sign-out ends them all.
      await signOut(page.client, { accountId });
      expect(await live(accountId)).toEqual([]);
      expect(await notes(keyStore)).toEqual([]);
      page.client.destroy();
    },
  );
});
