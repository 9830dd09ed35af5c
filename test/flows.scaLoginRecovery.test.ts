// An SCA login whose completion went unanswered, over real HTTP (core → relay → emulator): the
// service has no read of a login and the same proof again could count a refused code twice, so
// the login starts over with a fresh challenge (as often as the retry policy allows, at least
// once) and the customer is asked again. It ends in
// success whether the lost completion was taken or not, after a real relay restart too, and a
// proof is never sent twice.
import { type ScaChallengeJson, type SignetError, scaLogin } from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.close());

let phones = 0;
const freshPhone = () =>
  `+3538${String(Date.now() % 1e6).padStart(6, "0")}${String(++phones).padStart(3, "0")}`;

const RIGHT = "123456";
const COMPLETE = "/sca/login/complete";

type Cut = "before it arrives" | "after the service answered";

/**
 * An SCA customer's client whose first completion is cut `cut`: the connection fails as a relay
 * restart fails it (a `fetch` TypeError, not a refused connection). Every completion body sent is
 * kept.
 */
async function customer(cut?: Cut) {
  const user = await stack.signUp(undefined, { region: "IE", phoneNumber: freshPhone() });
  const completions: { code?: string; challengeId?: string }[] = [];
  /** The answers the client never saw. */
  const lost: { status: number; body: { code?: string; details?: Record<string, unknown> } }[] = [];
  let cutDone = false;
  const { client, events } = stack.client(user.customerId, {
    fetch: async (input, init) => {
      const url = String(input);
      if (!url.includes(COMPLETE)) return fetch(input, init);
      completions.push(JSON.parse(String(init?.body)));
      if (cut === undefined || cutDone) return fetch(input, init);
      cutDone = true;
      if (cut === "after the service answered") {
        const answer = await fetch(input, init);
        lost.push({ status: answer.status, body: await answer.json() });
      }
      throw new TypeError("fetch failed", { cause: new Error("socket hang up") });
    },
  });
  return { user, client, events, completions, lost };
}

/** Answers each challenge with `codes` in turn, noting what it was asked. */
function answering(...codes: string[]) {
  const asked: { challenge: ScaChallengeJson; error?: SignetError | undefined }[] = [];
  return {
    asked,
    onChallenge: (challenge: ScaChallengeJson, context: { error?: SignetError | undefined }) => {
      asked.push({ challenge, error: context.error });
      return { code: codes[asked.length - 1] ?? RIGHT };
    },
  };
}

describe("an SCA login completion that went unanswered", () => {
  it.each<Cut>(["before it arrives", "after the service answered"])(
    "cut %s: a fresh login, the customer asked again, SUCCESS",
    async (cut) => {
      const { client, completions, events } = await customer(cut);
      const { asked, onChallenge } = answering(RIGHT, RIGHT);
      const login = await scaLogin(client, { onChallenge, endUserIpAddress: "203.0.113.7" });
      expect(login).toMatchObject({ status: "SUCCESS", sessionExpiresAt: expect.any(String) });
      expect(asked).toHaveLength(2);
      expect(asked[0]?.error).toBeUndefined();
      expect(asked[1]?.error).toMatchObject({ code: "NETWORK" });
      // A fresh challenge: the first one can never be completed now.
      expect(asked[1]?.challenge.id).not.toBe(asked[0]?.challenge.id);
      expect(completions.map((c) => c.challengeId)).toEqual(asked.map((a) => a.challenge.id));
      // No proof went twice under one challenge.
      expect(new Set(completions.map((c) => c.challengeId)).size).toBe(completions.length);
      expect(events.filter((e) => e.type === "retry")).toEqual([]);
    },
  );

  it("a refused code whose answer was lost is not sent again: one failure counted, then SUCCESS", async () => {
    const { client, completions, lost } = await customer("after the service answered");
    const { asked, onChallenge } = answering("000000", RIGHT);
    await expect(
      scaLogin(client, { onChallenge, endUserIpAddress: "203.0.113.7" }),
    ).resolves.toMatchObject({ status: "SUCCESS" });
    // The service refused the wrong code and counted it, once; the client never saw that.
    expect(lost).toEqual([
      {
        status: 400,
        body: expect.objectContaining({ details: expect.objectContaining({ failedAttempts: 1 }) }),
      },
    ]);
    // It was never sent again: the next proof was the customer's new answer, to a new challenge.
    expect(completions.map((c) => c.code)).toEqual(["000000", RIGHT]);
    expect(asked[1]?.error).toMatchObject({ code: "NETWORK" });
  });

  it("starts over as often as the retry policy allows (at least once), then ends the login with its error", async () => {
    const user = await stack.signUp(undefined, { region: "IE", phoneNumber: freshPhone() });
    let completes = 0;
    const { client } = stack.client(user.customerId, {
      fetch: async (input, init) => {
        if (!String(input).includes(COMPLETE)) return fetch(input, init);
        completes++;
        throw new TypeError("fetch failed");
      },
    });
    // The default policy: 3 retries, so the first completion and 3 fresh logins.
    const first = answering(RIGHT, RIGHT, RIGHT, RIGHT, RIGHT);
    await expect(
      scaLogin(client, { onChallenge: first.onChallenge, endUserIpAddress: "203.0.113.7" }),
    ).rejects.toMatchObject({ code: "NETWORK" });
    expect(completes).toBe(4);
    expect(first.asked).toHaveLength(4);
    // No retries at all still starts over once: the proof may have been taken, never sent twice.
    completes = 0;
    const second = answering(RIGHT, RIGHT, RIGHT);
    await expect(
      scaLogin(client, {
        onChallenge: second.onChallenge,
        endUserIpAddress: "203.0.113.7",
        retry: false,
      }),
    ).rejects.toMatchObject({ code: "NETWORK" });
    expect(completes).toBe(2);
    expect(second.asked).toHaveLength(2);
  });

  it("a real relay restart while the completion is held at the service ends in SUCCESS", async () => {
    const { client, completions } = await customer();
    // The completion waits at the service while the relay restarts under it.
    await stack.fault({ kind: "delay", ms: 300, match: { method: "POST", path: COMPLETE } });
    const { asked, onChallenge } = answering(RIGHT, RIGHT);
    let restart: Promise<void> | undefined;
    const login = scaLogin(client, {
      onChallenge: (challenge, context) => {
        // The first completion goes out as this returns; the relay restarts while it is held.
        restart ??= new Promise<void>((resolve) => {
          setTimeout(() => void stack.restartRelay().then(resolve), 100);
        });
        return onChallenge(challenge, context);
      },
      endUserIpAddress: "203.0.113.7",
    });
    await expect(login).resolves.toMatchObject({ status: "SUCCESS" });
    await restart;
    expect(asked).toHaveLength(2);
    // The cut came as no answer, or as the relay's 5xx for the upstream it lost.
    const cut = asked[1]?.error;
    expect(cut?.code === "NETWORK" || (cut?.status ?? 0) >= 500, String(cut?.code)).toBe(true);
    // No proof went twice.
    expect(new Set(completions.map((c) => c.challengeId)).size).toBe(completions.length);
    await fetch(`${stack.emulator.url}/_emulator/faults`, { method: "DELETE" });
  });
});
