// docs/protocol.md §9: the service requires the end user's address on an SCA login completion,
// and only the relay sees it. Over real HTTP (core → relay → emulator): a relay without its
// `endUserIpAddress` option answers the completion itself with RELAY_MISCONFIGURED, which ends
// the login at once (the customer is asked once, never five times); a relay in front of the
// service that drops the address gets the service's 400 naming the field, which ends it too.
import { authorizeQuote, executeQuote, getQuote, SignetError, scaLogin } from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../packages/test/src/errorDetails.js";
import { signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";

let phones = 0;
const freshPhone = () =>
  `+3531${String(Date.now() % 1e6).padStart(6, "0")}${String(++phones).padStart(3, "0")}`;

const SMS = { code: "123456" } as const;

async function payer(stack: Stack) {
  const user = await stack.signUp(undefined, { region: "IE", phoneNumber: freshPhone() });
  const { client } = stack.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  return { ...user, client };
}

const completions = async (stack: Stack) =>
  (await stack.requests()).filter((r) => r.path.endsWith("/sca/login/complete"));

describe("a relay created without endUserIpAddress", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ settlementDelayMs: 100, relayEndUserIp: false });
  });
  afterAll(() => stack?.close());

  it("scaLogin: RELAY_MISCONFIGURED after one prompt, not retryable, nothing sent on", async () => {
    const { client } = await payer(stack);
    await stack.clearRequests();
    let asked = 0;
    const error = await scaLogin(client, {
      onChallenge: () => {
        asked++;
        return SMS;
      },
    }).catch((e) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect(error).toMatchObject({
      code: "RELAY_MISCONFIGURED",
      status: 500,
      retryable: false,
      details: { option: "endUserIpAddress", reason: "not configured" },
    });
    expectDocumentedDetails(error);
    expect(asked).toBe(1);
    expect(await completions(stack)).toHaveLength(0);
  });

  it("authorizeQuote's own login: the payment's code asked once, the login's once, then the error", async () => {
    const user = await payer(stack);
    const { quoteId } = await stack.walletQuote(user, 1_000_000);
    const executed = await executeQuote(user.client, {
      quote: await getQuote(user.client, { quoteId }),
    });
    if (executed.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
    const asked: boolean[] = [];
    const error = await authorizeQuote(user.client, {
      quote: executed,
      onChallenge: (_challenge, { login }) => {
        asked.push(login === true);
        return SMS;
      },
    }).catch((e) => e);
    expect(error).toMatchObject({ code: "RELAY_MISCONFIGURED" });
    expect(asked).toEqual([false, true]);
    // Nothing was released: the quote still waits for its authorization.
    expect((await getQuote(user.client, { quoteId })).status).toBe("PENDING_AUTHORIZATION");
  });
});

describe("a relay of the app's own that drops the address", () => {
  let stack: Stack;
  beforeAll(async () => {
    // Stands in for a relay that is not @signet/relay: it forwards the completion without the
    // address, and the service answers with its 400.
    const drop =
      (upstream: typeof fetch): typeof fetch =>
      async (input, init = {}) => {
        if (!String(input).includes("/sca/login/complete") || init.body === undefined)
          return upstream(input, init);
        const body = JSON.parse(new TextDecoder().decode(init.body as Uint8Array));
        delete body.endUserIpAddress;
        const headers = new Headers(init.headers);
        headers.delete("content-length");
        return upstream(input, { ...init, headers, body: JSON.stringify(body) });
      };
    stack = await startStack({ settlementDelayMs: 100, relayUpstream: drop, judgeRequests: false });
  });
  afterAll(() => stack?.close());

  it("the service's 400 naming endUserIpAddress ends the login after one prompt", async () => {
    const { client } = await payer(stack);
    let asked = 0;
    const error = await scaLogin(client, {
      onChallenge: () => {
        asked++;
        return SMS;
      },
    }).catch((e) => e);
    expect(error).toMatchObject({ code: "INVALID_INPUT", status: 400 });
    expect(JSON.stringify(error.details)).toContain("endUserIpAddress");
    expect(asked).toBe(1);
  });
});
