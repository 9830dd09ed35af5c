// docs/protocol.md §11, README "Security notes": a compromised backend. The relay's upstream `fetch`
// is the attacker: it rewrites what the device sent (a key, an email, a card, the quote's path, the
// credential a revoke is about), answers with a challenge or payload of its own (an export it
// started, a privacy change passed off as a transfer and the reverse), or changes the customer
// with its own API credentials first (its phone behind a new SMS credential); the emulator stays
// honest. For every signed operation the device must refuse before any key touches the payload: no
// signature over a payload the attacker arranged ever reaches the relay. The same operation without
// the attack then completes. `pnpm reliability` writes these rows to RELIABILITY.md.
import {
  addCredential,
  addPasskey,
  authorizeQuote,
  changeContact,
  completeScaFactorReset,
  createDelegatedKey,
  enrollScaPasskey,
  enrollScaTotp,
  executeQuote,
  exportWallet,
  getQuote,
  getScaFactorReset,
  listCredentials,
  type PendingAuthorizationQuoteJson,
  type QuoteJson,
  refreshSession,
  requestOtp,
  revokeCredential,
  revokeSession,
  SignetError,
  scaLogin,
  signInWithPasskey,
  signOut,
  startScaFactorReset,
  trustBeneficiary,
  updateCustomerContact,
  updateWalletPrivacy,
  verifyOtp,
  waitForTransaction,
} from "@signet/core";
import { createSoftAuthenticator } from "@signet/emulator/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveCounts } from "./reliability/output.js";
import { sandboxIdToken } from "./support/oidc.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";
import { appCode } from "./support/totp.js";

type Outgoing = { url: URL; method: string; headers: Headers; body: string | undefined };
/** What the attacker does with one request: send it changed, or answer it itself. */
type Plan = (request: Outgoing) => Promise<
  | {
      url?: URL;
      body?: string;
      answer?: Response;
      /** Changes the service's answer on its way back (its `Date`, say). */
      respond?: (response: Response) => Response | Promise<Response>;
    }
  | undefined
>;

/** The compromised backend: the relay's upstream fetch, with a plan armed per attack. */
function createAttacker() {
  const tainted = new Set<string>();
  const state = { plan: undefined as Plan | undefined, signed: 0, taintedExecute: false };
  const wrap =
    (upstream: typeof fetch): typeof fetch =>
    async (input, init = {}) => {
      const url = new URL(String(input));
      const headers = new Headers(init.headers);
      const raw = init.body as Uint8Array | undefined;
      const body = raw === undefined ? undefined : new TextDecoder().decode(raw);
      // A signature over a payload the attacker arranged: the attack would have worked.
      const requestId = headers.get("request-id");
      if (headers.has("grid-wallet-signature") && requestId && tainted.has(requestId))
        state.signed++;
      // A contact-change submit (the service's #853) names its change in the path, not a Request-Id.
      const submitted = /\/contact-changes\/([^/]+)\/submit$/.exec(url.pathname)?.[1];
      if (
        headers.has("grid-wallet-signature") &&
        submitted &&
        tainted.has(decodeURIComponent(submitted))
      )
        state.signed++;
      const change = state.plan
        ? await state.plan({ url, method: init.method ?? "GET", headers, body })
        : undefined;
      if (change?.answer) return remember(change.answer);
      if (!change) return upstream(input, init);
      if (change.respond) return change.respond(await upstream(input, init));
      if (url.pathname.endsWith("/execute") && headers.has("grid-wallet-signature")) state.signed++;
      headers.delete("content-length");
      const response = await upstream(change.url ?? url, {
        ...init,
        headers,
        ...(change.body === undefined ? {} : { body: new TextEncoder().encode(change.body) }),
      });
      return remember(response);
    };
  /** A 202 of a request the attacker changed carries a payload it arranged. */
  async function remember(response: Response): Promise<Response> {
    if (response.status !== 202) return response;
    const text = await response.text();
    const requestId = (JSON.parse(text) as { requestId?: string }).requestId;
    if (requestId) tainted.add(requestId);
    return new Response(text, { status: 202, headers: response.headers });
  }
  return {
    wrap,
    state,
    arm(plan: Plan) {
      state.plan = plan;
    },
    disarm() {
      state.plan = undefined;
    },
    /** Marks a resource the attacker made (a contact change): a stamp for it counts as signed. */
    taint(id: string) {
      tainted.add(id);
    },
  };
}

const attacker = createAttacker();
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    settlementDelayMs: 100,
    livenessDelayMs: 200,
    relayUpstream: attacker.wrap,
  });
});
afterAll(() => stack?.close());

const rp = { id: "localhost", name: "Signet test" };
const ATTACKER_EMAIL = "attacker@example.net";
const ATTACKER_PHONE = "+14155550999";
let phones = 0;
/** An SMS credential the user adds: the number they confirmed (one per user: numbers are unique). */
const smsCredential = () =>
  ({ type: "SMS_OTP", phoneNumber: `+1415555${String(1000 + ++phones).slice(-4)}` }) as const;

/** Rewrites the JSON body of matching requests (every leg alike, so the service's pending request matches). */
const rewriteBody =
  (
    method: string,
    path: RegExp,
    change: (
      body: Record<string, unknown>,
    ) => Promise<Record<string, unknown>> | Record<string, unknown>,
  ): Plan =>
  async ({ url, method: m, body }) => {
    if (m !== method || !path.test(url.pathname) || body === undefined) return undefined;
    return { body: JSON.stringify(await change(JSON.parse(body))) };
  };

/** Answers the device's first leg with the challenge of an export the attacker started itself. */
const substituteExport =
  (method: string, path: RegExp, accountId: () => string): Plan =>
  async ({ url, method: m, headers }) => {
    if (m !== method || !path.test(url.pathname) || headers.has("grid-wallet-signature"))
      return undefined;
    const key = await stack.directClient().client.crypto.generateDecryptionKey();
    const started = await stack.platform<Record<string, unknown>>(
      "POST",
      `/internal-accounts/${accountId()}/export`,
      { clientPublicKey: key.publicKeyUncompressed },
    );
    return { answer: Response.json(started.body, { status: started.status }) };
  };

/** A quote answer with its `scaChallenge` changed (the attacker rewriting the service's answer). */
async function forgedAnswer(
  response: Response,
  change: (challenge: Record<string, unknown>) => Record<string, unknown>,
): Promise<Response> {
  const quote = (await response.json()) as Record<string, unknown>;
  const challenge = quote.scaChallenge as Record<string, unknown> | undefined;
  return Response.json(challenge ? { ...quote, scaChallenge: change(challenge) } : quote, {
    status: response.status,
    headers: { date: response.headers.get("date") ?? new Date().toUTCString() },
  });
}

let scaPhones = 0;
/** A phone number no other customer has (an SCA customer's SMS factor). */
const freshPhone = () =>
  `+3538${String(Date.now() % 1e6).padStart(6, "0")}${String(++scaPhones).padStart(3, "0")}`;

type Row = {
  operation: string;
  swap: string;
  tried: number;
  signed: number;
  refused: Record<string, number>;
};
const rows: Row[] = [];

/**
 * Runs one attack: the device's action under the armed plan must fail with `code` and sign
 * nothing the attacker arranged; disarmed, the same action completes.
 */
async function attack(
  row: { operation: string; swap: string; code?: string },
  plan: Plan,
  action: () => Promise<unknown>,
  honest: () => Promise<unknown>,
) {
  const signedBefore = attacker.state.signed;
  attacker.arm(plan);
  let error: unknown;
  try {
    await action();
  } catch (thrown) {
    error = thrown;
  } finally {
    attacker.disarm();
  }
  const signed = attacker.state.signed - signedBefore;
  const code =
    error instanceof SignetError
      ? String(error.code)
      : error === undefined
        ? "none (completed)"
        : "not a SignetError";
  rows.push({ operation: row.operation, swap: row.swap, tried: 1, signed, refused: { [code]: 1 } });
  expect(signed, `${row.operation}: ${row.swap}`).toBe(0);
  expect(code).toBe(row.code ?? "PAYLOAD_MISMATCH");
  if (error instanceof SignetError && error.code === "PAYLOAD_MISMATCH") {
    expect(error.retryable).toBe(false);
    // The field is named, never the value.
    expect(JSON.stringify(error)).not.toContain(ATTACKER_EMAIL);
  }
  await honest();
}

async function signedInUser(extra: Record<string, unknown> = {}) {
  const user = await stack.signUp(undefined, extra);
  const { client, events, authenticator } = stack.client(user.customerId);
  await signInWithEmail(client, user.emailCredentialId);
  return { ...user, client, events, authenticator };
}

const newKeyHex = async (compressed: boolean) => {
  const key = await stack.directClient().client.crypto.generateSigningKey();
  return compressed ? key.publicKey : key.publicKeyUncompressed;
};

describe("a compromised backend gets nothing signed away", () => {
  it("export: the backend swaps the export key for its own", async () => {
    const user = await signedInUser();
    const attackerKey = await newKeyHex(false);
    await attack(
      { operation: "exportWallet", swap: "clientPublicKey → the backend's key" },
      rewriteBody("POST", /\/export$/, (b) => ({ ...b, clientPublicKey: attackerKey })),
      () => exportWallet(user.client, { accountId: user.accountId }),
      async () =>
        expect(
          (await exportWallet(user.client, { accountId: user.accountId })).split(" ").length,
        ).toBeGreaterThanOrEqual(12),
    );
  });

  it("refresh: the backend swaps the new session key for its own, or answers with its own export", async () => {
    const user = await signedInUser();
    const attackerKey = await newKeyHex(true);
    const [before] = await user.client.sessions.list(user.accountId);
    await attack(
      { operation: "refreshSession", swap: "clientPublicKey → the backend's key" },
      rewriteBody("POST", /\/refresh$/, (b) => ({ ...b, clientPublicKey: attackerKey })),
      () => refreshSession(user.client, { accountId: user.accountId }),
      async () => {
        // Nothing was stored or removed by the refusal: the old session still signs.
        expect((await user.client.sessions.list(user.accountId)).map((s) => s.id)).toEqual([
          before!.id,
        ]);
      },
    );
    await attack(
      { operation: "refreshSession", swap: "answered with the backend's export challenge" },
      substituteExport("POST", /\/refresh$/, () => user.accountId),
      () => refreshSession(user.client, { accountId: user.accountId }),
      async () =>
        expect((await refreshSession(user.client, { accountId: user.accountId })).id).not.toBe(
          before!.id,
        ),
    );
  });

  it("refresh: a third leg the operation does not have is refused", async () => {
    const user = await signedInUser();
    let firstSigned = false;
    await attack(
      {
        operation: "refreshSession",
        swap: "a further 202 after the signed leg",
        code: "CHALLENGE_INVALID",
      },
      async (request) => {
        if (!request.url.pathname.endsWith("/refresh")) return undefined;
        if (!request.headers.has("grid-wallet-signature")) return undefined;
        if (firstSigned) return undefined;
        firstSigned = true;
        return substituteExport(
          "POST",
          /\/refresh$/,
          () => user.accountId,
        )({
          ...request,
          headers: new Headers(),
        });
      },
      () => refreshSession(user.client, { accountId: user.accountId }),
      () => refreshSession(user.client, { accountId: user.accountId }),
    );
  });

  it("contact update: the backend swaps the new email for its own", async () => {
    const user = await signedInUser();
    await attack(
      { operation: "updateCustomerContact", swap: "email → the backend's address" },
      rewriteBody("PATCH", /^\/customers\//, (b) => ({ ...b, email: ATTACKER_EMAIL })),
      () =>
        updateCustomerContact(user.client, {
          customerId: user.customerId,
          accountId: user.accountId,
          email: `new-${Date.now()}@example.com`,
        }),
      () =>
        updateCustomerContact(user.client, {
          customerId: user.customerId,
          accountId: user.accountId,
          email: `honest-${Date.now()}@example.com`,
        }),
    );
  });

  it("contact change (resource): the backend starts a change to its own email and shows the user's", async () => {
    const user = await signedInUser();
    const { client } = stack.client(user.customerId, { contactChanges: "resource" });
    await signInWithEmail(client, user.emailCredentialId);
    const typed = `new-${Date.now()}@example.com`;
    await attack(
      { operation: "changeContact", swap: "the change's value → the backend's address" },
      async ({ url, method }) => {
        if (method !== "POST" || !/\/contact-changes$/.test(url.pathname)) return undefined;
        // The backend creates the change for its own address, and answers the device with it
        // dressed as the value the user typed: only the payload still names the backend's.
        const made = await stack.platform<Record<string, unknown>>(
          "POST",
          `/customers/${user.customerId}/contact-changes`,
          { type: "EMAIL", value: ATTACKER_EMAIL },
        );
        attacker.taint(String(made.body.id));
        return { answer: Response.json({ ...made.body, value: typed }, { status: made.status }) };
      },
      () =>
        changeContact(client, {
          customerId: user.customerId,
          accountId: user.accountId,
          email: typed,
        }),
      async () => {
        // The backend's change is still pending: cancelled first, as the app would.
        const pending = await stack.platform<{ data: Array<{ id: string }> }>(
          "GET",
          `/customers/${user.customerId}/contact-changes?status=AWAITING_SIGNATURE`,
        );
        for (const change of pending.body.data)
          await stack.platform(
            "DELETE",
            `/customers/${user.customerId}/contact-changes/${change.id}`,
          );
        const outcome = await changeContact(client, {
          customerId: user.customerId,
          accountId: user.accountId,
          email: `honest-${Date.now()}@example.com`,
        });
        expect(outcome.status).toBe("APPLIED");
      },
    );
  });

  it("OTP sign-in: the verify challenge is swapped for the backend's export", async () => {
    const user = await stack.signUp();
    const { client } = stack.client(user.customerId);
    await attack(
      { operation: "verifyOtp", swap: "answered with the backend's export challenge" },
      substituteExport("POST", /\/verify$/, () => user.accountId),
      async () =>
        verifyOtp(client, {
          ...(await requestOtp(client, { credentialId: user.emailCredentialId })),
          otpCode: "000000",
        }),
      () => signInWithEmail(client, user.emailCredentialId),
    );
  });

  it("add passkey: the backend swaps the attestation for its own passkey", async () => {
    const user = await signedInUser();
    const thief = createSoftAuthenticator({ rpId: "localhost", origin: "http://localhost:5173" });
    await attack(
      { operation: "addPasskey", swap: "attestation → the backend's authenticator" },
      rewriteBody("POST", /^\/auth\/credentials$/, async (b) => {
        if (b.type !== "PASSKEY") return b;
        const made = await thief.provider.register({
          rp,
          user: passkeyUser("thief"),
          challenge: String(b.challenge),
          pubKeyCredParams: [{ type: "public-key", alg: -7 }],
          authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
        });
        return {
          ...b,
          attestation: {
            credentialId: made.rawId,
            clientDataJson: made.response.clientDataJSON,
            attestationObject: made.response.attestationObject,
          },
        };
      }),
      () =>
        addPasskey(user.client, {
          accountId: user.accountId,
          nickname: "Phone",
          challenge: registrationChallenge(),
          rp,
          user: passkeyUser("ada"),
        }),
      () =>
        addPasskey(user.client, {
          accountId: user.accountId,
          nickname: "Phone",
          challenge: registrationChallenge(),
          rp,
          user: passkeyUser("ada"),
        }),
    );
  });

  it("add OAuth credential: the backend swaps the token for its own identity", async () => {
    const user = await signedInUser();
    const token = (sub: string) => sandboxIdToken({ sub, iat: Math.floor(Date.now() / 1000) });
    await attack(
      { operation: "addCredential (OAUTH)", swap: "oidcToken → the backend's identity" },
      rewriteBody("POST", /^\/auth\/credentials$/, (b) => ({ ...b, oidcToken: token("thief") })),
      () =>
        addCredential(user.client, {
          accountId: user.accountId,
          type: "OAUTH",
          oidcToken: token("ada"),
        }),
      () =>
        addCredential(user.client, {
          accountId: user.accountId,
          type: "OAUTH",
          oidcToken: token("ada"),
        }),
    );
  });

  it("add SMS credential: the challenge is swapped for the backend's export", async () => {
    const sms = smsCredential();
    const user = await signedInUser({ phoneNumber: sms.phoneNumber });
    await attack(
      {
        operation: "addCredential (SMS_OTP)",
        swap: "answered with the backend's export challenge",
      },
      substituteExport("POST", /^\/auth\/credentials$/, () => user.accountId),
      () => addCredential(user.client, { accountId: user.accountId, ...sms }),
      () => addCredential(user.client, { accountId: user.accountId, ...sms }),
    );
  });

  it("add SMS credential: the backend ties its own phone to the customer first", async () => {
    const sms = smsCredential();
    const user = await signedInUser({ phoneNumber: sms.phoneNumber });
    const setPhone = async (phoneNumber: string) =>
      expect(
        (
          await stack.platform("PATCH", `/customers/${user.customerId}`, {
            customerType: "INDIVIDUAL",
            phoneNumber,
          })
        ).status,
      ).toBe(200);
    await attack(
      {
        operation: "addCredential (SMS_OTP)",
        swap: "the customer's phone → the backend's, with its own API credentials",
      },
      async ({ url, method, headers }) => {
        if (method !== "POST" || url.pathname !== "/auth/credentials") return undefined;
        if (headers.has("grid-wallet-signature")) return {};
        await setPhone(ATTACKER_PHONE);
        return {};
      },
      // The user confirmed their own number; the service would send the codes to the backend's.
      () => addCredential(user.client, { accountId: user.accountId, ...sms }),
      async () => {
        await setPhone(sms.phoneNumber);
        const added = await addCredential(user.client, { accountId: user.accountId, ...sms });
        expect(added.type).toBe("SMS_OTP");
      },
    );
  });

  it("revoke credential, revoke session, sign out: each answered with the backend's export", async () => {
    const user = await signedInUser();
    const token = sandboxIdToken({ sub: "ada-revoke", iat: Math.floor(Date.now() / 1000) });
    const oauth = await addCredential(user.client, {
      accountId: user.accountId,
      type: "OAUTH",
      oidcToken: token,
    });
    await attack(
      { operation: "revokeCredential", swap: "answered with the backend's export challenge" },
      substituteExport("DELETE", /^\/auth\/credentials\//, () => user.accountId),
      () =>
        revokeCredential(user.client, {
          accountId: user.accountId,
          credentialId: oauth.id,
          type: "OAUTH",
        }),
      async () => {
        await revokeCredential(user.client, {
          accountId: user.accountId,
          credentialId: oauth.id,
          type: "OAUTH",
        });
        expect(
          (await listCredentials(user.client, { accountId: user.accountId })).map((c) => c.id),
        ).not.toContain(oauth.id);
      },
    );
    // A second session to revoke.
    await signInWithEmail(user.client, user.emailCredentialId);
    const [, older] = await user.client.sessions.list(user.accountId);
    await attack(
      { operation: "revokeSession", swap: "answered with the backend's export challenge" },
      substituteExport("DELETE", /^\/auth\/sessions\//, () => user.accountId),
      () => revokeSession(user.client, { accountId: user.accountId, sessionId: older!.id }),
      () => revokeSession(user.client, { accountId: user.accountId, sessionId: older!.id }),
    );
    await attack(
      { operation: "signOut", swap: "answered with the backend's export challenge" },
      substituteExport("DELETE", /^\/auth\/sessions\//, () => user.accountId),
      () => signOut(user.client, { accountId: user.accountId }),
      async () => {
        await signInWithEmail(user.client, user.emailCredentialId);
        await signOut(user.client, { accountId: user.accountId });
      },
    );
  });

  it("delegated key: the backend swaps the card for its own", async () => {
    const user = await signedInUser();
    const card = async () =>
      (
        await stack.platform<{ id: string }>("POST", "/cards", {
          cardholderId: user.customerId,
          fundingSources: [user.accountId],
          form: "VIRTUAL",
        })
      ).body.id;
    const mine = await card();
    const theirs = await card();
    await attack(
      { operation: "createDelegatedKey", swap: "cardId → the backend's card" },
      rewriteBody("POST", /^\/auth\/delegated-keys$/, (b) => ({ ...b, cardId: theirs })),
      () =>
        createDelegatedKey(user.client, {
          accountId: user.accountId,
          cardId: mine,
          nickname: "Card key",
        }),
      async () =>
        expect(
          (
            await createDelegatedKey(user.client, {
              accountId: user.accountId,
              cardId: mine,
              nickname: "Card key",
            })
          ).status,
        ).toBe("ACTIVE"),
    );
  });

  for (const region of ["US", "NL"]) {
    it(`quote execute (${region === "NL" ? "EU, SCA" : "US"}): another quote of the same wallet is passed off as the one shown`, async () => {
      const user = await signedInUser({ region });
      const shown = await stack.walletQuote(user, 100_000);
      const other = await stack.walletQuote(user, 3_000_000);
      const otherQuote = await getQuote(user.client, { quoteId: other.quoteId });
      const shownQuote = await getQuote(user.client, { quoteId: shown.quoteId });
      const otherPayload = otherQuote.paymentInstructions!.find(
        (p) => p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
      )!;
      // The backend hands the app the shown quote with the other quote's payload, and sends the
      // signed execute to the other quote.
      const forged: QuoteJson = {
        ...shownQuote,
        paymentInstructions: [otherPayload],
      };
      await attack(
        {
          operation: `executeQuote (${region === "NL" ? "EU, SCA" : "US"})`,
          swap: "payload of another quote; path rewritten to it",
        },
        async ({ url }) =>
          url.pathname.endsWith(`/quotes/${shown.quoteId}/execute`)
            ? { url: new URL(url.href.replace(shown.quoteId, other.quoteId)) }
            : undefined,
        () => executeQuote(user.client, { quote: forged }),
        async () => {
          const executed = await executeQuote(user.client, { quote: shownQuote });
          expect(["PROCESSING", "PENDING_AUTHORIZATION"]).toContain(executed.status);
          expect(executed.id).toBe(shown.quoteId);
        },
      );
      expect((await getQuote(user.client, { quoteId: other.quoteId })).status).toBe("PENDING");
    });
  }

  for (const [ahead, label] of [
    [24 * 60 * 60_000, "a day"],
    [20 * 60_000, "20 minutes"],
  ] as const) {
    it(`clock: answers whose Date is ${label} ahead never delete the live session key`, async () => {
      const user = await signedInUser();
      const [held] = await user.client.sessions.list(user.accountId);
      const skewed: Plan = async () => ({
        respond: (response) => {
          const headers = new Headers(response.headers);
          headers.set("date", new Date(Date.now() + ahead).toUTCString());
          return new Response(response.body, { status: response.status, headers });
        },
      });
      attacker.arm(skewed);
      try {
        // Every answer now says the session (15 minutes) has expired, or that it is tomorrow.
        await listCredentials(user.client, { accountId: user.accountId });
        const listed = await user.client.sessions.list(user.accountId);
        // Within the bound the service is asked, and it still lists the session: kept.
        expect(listed.map((s) => s.id)).toEqual([held!.id]);
      } finally {
        attacker.disarm();
      }
      rows.push({
        operation: "session key",
        swap: `every answer's Date ${label} ahead`,
        tried: 1,
        signed: 0,
        refused: { "kept (not deleted)": 1 },
      });
      // The key was not deleted: the session still signs once the clock is honest again.
      await listCredentials(user.client, { accountId: user.accountId });
      await exportWallet(user.client, { accountId: user.accountId });
      expect((await user.client.sessions.list(user.accountId)).map((s) => s.id)).toEqual([
        held!.id,
      ]);
    });
  }

  /**
   * An EU customer with a wallet sign-in passkey (the backend can start a sign-in on it) and a
   * passkey enrolled for SCA on the same authenticator, and the sign-in challenge the backend
   * started for a key of its own.
   */
  async function scaPasskeyUser(region: string) {
    const user = await signedInUser({ region });
    await addPasskey(user.client, {
      accountId: user.accountId,
      nickname: "Phone",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("sca"),
    });
    const factor = await enrollScaPasskey(user.client);
    const [credential] = (await listCredentials(user.client, { accountId: user.accountId })).filter(
      (c) => c.type === "PASSKEY",
    );
    // The backend asks for a session on the customer's passkey, for its own key.
    const stolen = await stack.platform<{ challenge: string }>(
      "POST",
      `/auth/credentials/${credential!.id}/challenge`,
      { clientPublicKey: await newKeyHex(true) },
    );
    const signInChallenge = Buffer.from(stolen.body.challenge, "utf8").toString("base64url");
    // The wallet sign-in passkey, as the authenticator holds it (the SCA one is the other).
    const signInCredentialId = user.authenticator.credentials.find(
      (c) => c.id !== factor.credentialId,
    )!.id;
    const taps = () => user.authenticator.credentials.reduce((sum, c) => sum + c.signCount, 0);
    return { ...user, factor, signInChallenge, signInCredentialId, taps };
  }

  it("SCA by passkey: the backend passes off a wallet sign-in challenge as the payment's", async () => {
    const user = await scaPasskeyUser("NL");
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const quote = await getQuote(user.client, { quoteId });
    // The execute's own answer carries the forged challenge (the first the device sees of it):
    // the sign-in challenge the backend started for its key, naming the wallet's sign-in passkey,
    // so that the tap would sign the wallet in for the backend.
    const forge: Plan = async ({ url }) =>
      url.pathname.endsWith(`/quotes/${quoteId}/execute`)
        ? {
            respond: (response) =>
              forgedAnswer(response, (challenge) => ({
                ...challenge,
                id: "ScaChallenge:019542f5-b3e7-1d02-0000-00000000f00d",
                passkeyAssertionOptions: {
                  ...(challenge.passkeyAssertionOptions as object),
                  challenge: user.signInChallenge,
                  allowCredentials: [{ id: user.signInCredentialId, type: "public-key" }],
                },
              })),
          }
        : undefined;
    const taps = user.taps();
    await attack(
      {
        operation: "authorizeQuote (PASSKEY)",
        swap: "a wallet sign-in challenge, naming the sign-in passkey, as the SCA challenge",
      },
      forge,
      async () => {
        const executed = await executeQuote(user.client, { quote, scaFactor: "PASSKEY" });
        if (executed.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
        await authorizeQuote(user.client, {
          quote: executed,
          onChallenge: () => ({ passkey: true }),
        });
      },
      async () => {
        // The tap never happened over the forged challenge; the real one goes through.
        expect(user.taps()).toBe(taps);
        const pending = await getQuote(user.client, { quoteId });
        const released = await authorizeQuote(user.client, {
          quote: pending as PendingAuthorizationQuoteJson,
          onChallenge: () => ({ passkey: true }),
        });
        expect(released.status).toBe("PROCESSING");
      },
    );
  });

  it("SCA login by passkey: the backend answers the login with a wallet sign-in challenge", async () => {
    const user = await scaPasskeyUser("FI");
    const taps = user.taps();
    await attack(
      {
        operation: "scaLogin (PASSKEY)",
        swap: "a wallet sign-in challenge, naming the sign-in passkey, as the login's",
      },
      async ({ url, method }) => {
        if (method !== "POST" || !url.pathname.endsWith("/sca/login/start")) return undefined;
        const started = await stack.platform<Record<string, unknown>>(
          "POST",
          `/sca/login/start?customerId=${user.customerId}`,
          { factor: "PASSKEY" },
        );
        const options = started.body.passkeyOptions as Record<string, unknown>;
        return {
          answer: Response.json(
            {
              ...started.body,
              passkeyOptions: {
                ...options,
                challenge: user.signInChallenge,
                allowCredentials: [{ id: user.signInCredentialId, type: "public-key" }],
              },
            },
            { status: 200 },
          ),
        };
      },
      () => scaLogin(user.client, { factor: "PASSKEY", onChallenge: () => ({ passkey: true }) }),
      async () => {
        expect(user.taps()).toBe(taps);
        const login = await scaLogin(user.client, {
          factor: "PASSKEY",
          onChallenge: () => ({ passkey: true }),
        });
        expect(login.status).toBe("SUCCESS");
      },
    );
  });

  /** Counts the authorizations and SCA login completions that reach the service while armed. */
  function proofsSent(plan: Plan): { plan: Plan; count: () => number } {
    let sent = 0;
    return {
      count: () => sent,
      plan: async (request) => {
        const path = request.url.pathname;
        if (request.method === "POST" && /\/(authorize|sca\/login\/complete)$/.test(path)) sent++;
        return plan(request);
      },
    };
  }

  for (const factor of ["SMS_OTP", "PASSKEY"] as const) {
    it(`SCA (${factor}): another pending payment's challenge is passed off as this one's`, async () => {
      const user =
        factor === "PASSKEY"
          ? await scaPasskeyUser("DE")
          : { ...(await signedInUser({ region: "DE", phoneNumber: freshPhone() })), taps: () => 0 };
      await scaLogin(user.client, {
        factor,
        onChallenge: () => (factor === "PASSKEY" ? { passkey: true } : { code: "123456" }),
      });
      // The customer started a payment of 3.00 and left it at its SCA prompt…
      const big = await stack.walletQuote(user, 3_000_000);
      const bigQuote = await getQuote(user.client, { quoteId: big.quoteId });
      const left = await executeQuote(user.client, { quote: bigQuote, scaFactor: factor });
      if (left.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
      // …and now confirms 0.10: the backend answers its execute with the 3.00's challenge and
      // sends the proof to the 3.00's authorize.
      const small = await stack.walletQuote(user, 100_000);
      const smallQuote = await getQuote(user.client, { quoteId: small.quoteId });
      const swap = proofsSent(async ({ url }) => {
        if (url.pathname.endsWith(`/quotes/${small.quoteId}/execute`))
          return {
            respond: (response) => forgedAnswer(response, () => ({ ...left.scaChallenge })),
          };
        if (url.pathname.endsWith(`/quotes/${small.quoteId}/authorize`))
          return { url: new URL(url.href.replace(small.quoteId, big.quoteId)) };
        return undefined;
      });
      const taps = user.taps();
      const asked: unknown[] = [];
      await attack(
        {
          operation: `authorizeQuote (${factor})`,
          swap: "another pending payment's challenge, the proof sent to that payment",
        },
        swap.plan,
        async () => {
          const executed = await executeQuote(user.client, {
            quote: smallQuote,
            scaFactor: factor,
          });
          if (executed.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
          await authorizeQuote(user.client, {
            quote: executed,
            onChallenge: (challenge) => {
              asked.push(challenge.id);
              return factor === "PASSKEY" ? { passkey: true } : { code: "123456" };
            },
          });
        },
        async () => {
          // Nobody was asked, nothing tapped, no proof sent; the 3.00 still waits.
          expect(asked).toEqual([]);
          expect(user.taps()).toBe(taps);
          expect(swap.count()).toBe(0);
          expect((await getQuote(user.client, { quoteId: big.quoteId })).status).toBe(
            "PENDING_AUTHORIZATION",
          );
          // The 0.10's own challenge releases the 0.10 alone.
          const own = (await getQuote(user.client, {
            quoteId: small.quoteId,
          })) as PendingAuthorizationQuoteJson;
          const released = await authorizeQuote(user.client, {
            quote: own,
            onChallenge: (_challenge, { quote }) => {
              expect(quote).toMatchObject({ id: small.quoteId, totalSendingAmount: 100_000 });
              return factor === "PASSKEY" ? { passkey: true } : { code: "123456" };
            },
          });
          expect(released.status).toBe("PROCESSING");
          expect((await getQuote(user.client, { quoteId: big.quoteId })).status).toBe(
            "PENDING_AUTHORIZATION",
          );
        },
      );
    });
  }

  it("SCA login by passkey: the login's options name another relying party than the login start", async () => {
    const user = await scaPasskeyUser("BE");
    const taps = user.taps();
    await attack(
      {
        operation: "scaLogin (PASSKEY)",
        swap: "passkeyOptions.rpId other than the start's relyingPartyId",
        code: "MALFORMED_RESPONSE",
      },
      async ({ url, method }) => {
        if (method !== "POST" || !url.pathname.endsWith("/sca/login/start")) return undefined;
        const started = await stack.platform<Record<string, unknown>>(
          "POST",
          `/sca/login/start?customerId=${user.customerId}`,
          { factor: "PASSKEY" },
        );
        const options = started.body.passkeyOptions as Record<string, unknown>;
        return {
          answer: Response.json(
            { ...started.body, passkeyOptions: { ...options, rpId: "wallet.example.net" } },
            { status: 200 },
          ),
        };
      },
      () => scaLogin(user.client, { factor: "PASSKEY", onChallenge: () => ({ passkey: true }) }),
      async () => {
        expect(user.taps()).toBe(taps);
        const login = await scaLogin(user.client, {
          factor: "PASSKEY",
          onChallenge: () => ({ passkey: true }),
        });
        expect(login.status).toBe("SUCCESS");
      },
    );
  });

  it("SCA login by passkey: a pending payment's passkey challenge is passed off as the login's", async () => {
    const user = await scaPasskeyUser("AT");
    await scaLogin(user.client, { factor: "PASSKEY", onChallenge: () => ({ passkey: true }) });
    const big = await stack.walletQuote(user, 3_000_000);
    const left = await executeQuote(user.client, {
      quote: await getQuote(user.client, { quoteId: big.quoteId }),
      scaFactor: "PASSKEY",
    });
    if (left.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
    const swap = proofsSent(async ({ url, method }) => {
      if (method !== "POST" || !url.pathname.endsWith("/sca/login/start")) return undefined;
      const started = await stack.platform<Record<string, unknown>>(
        "POST",
        `/sca/login/start?customerId=${user.customerId}`,
        { factor: "PASSKEY" },
      );
      return {
        answer: Response.json(
          { ...started.body, passkeyOptions: left.scaChallenge.passkeyAssertionOptions },
          { status: 200 },
        ),
      };
    });
    const taps = user.taps();
    await attack(
      {
        operation: "scaLogin (PASSKEY)",
        swap: "a pending payment's passkey challenge as the login's",
      },
      swap.plan,
      () => scaLogin(user.client, { factor: "PASSKEY", onChallenge: () => ({ passkey: true }) }),
      async () => {
        expect(user.taps()).toBe(taps);
        expect(swap.count()).toBe(0);
        expect(
          (
            await scaLogin(user.client, {
              factor: "PASSKEY",
              onChallenge: () => ({ passkey: true }),
            })
          ).status,
        ).toBe("SUCCESS");
        expect((await getQuote(user.client, { quoteId: big.quoteId })).status).toBe(
          "PENDING_AUTHORIZATION",
        );
      },
    );
  });

  it("SCA by passkey: an SCA login's options are passed off as a payment's", async () => {
    const user = await scaPasskeyUser("FR");
    // A login the customer started and left: its options are the device's as a login's.
    let loginOptions: unknown;
    await scaLogin(user.client, {
      factor: "PASSKEY",
      onChallenge: (challenge) => {
        loginOptions = challenge.passkeyAssertionOptions;
        throw new Error("the customer closed the prompt");
      },
    }).catch(() => undefined);
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const quote = await getQuote(user.client, { quoteId });
    const swap = proofsSent(async ({ url }) =>
      url.pathname.endsWith(`/quotes/${quoteId}/execute`)
        ? {
            respond: (response) =>
              forgedAnswer(response, (challenge) => ({
                ...challenge,
                id: "ScaChallenge:019542f5-b3e7-1d02-0000-00000000beef",
                passkeyAssertionOptions: loginOptions,
              })),
          }
        : undefined,
    );
    const taps = user.taps();
    await attack(
      { operation: "authorizeQuote (PASSKEY)", swap: "an SCA login's options as the payment's" },
      swap.plan,
      async () => {
        const executed = await executeQuote(user.client, { quote, scaFactor: "PASSKEY" });
        if (executed.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
        await authorizeQuote(user.client, {
          quote: executed,
          onChallenge: () => ({ passkey: true }),
        });
      },
      async () => {
        expect(user.taps()).toBe(taps);
        expect(swap.count()).toBe(0);
        const released = await authorizeQuote(user.client, {
          quote: (await getQuote(user.client, { quoteId })) as PendingAuthorizationQuoteJson,
          onChallenge: () => ({ passkey: true }),
        });
        expect(released.status).toBe("PROCESSING");
      },
    );
  });

  it("SCA by passkey: an SCA login's options, their challenge written another way, are passed off as a payment's", async () => {
    const user = await scaPasskeyUser("FR");
    let loginOptions: { challenge: string } | { publicKey: { challenge: string } } | undefined;
    await scaLogin(user.client, {
      factor: "PASSKEY",
      onChallenge: (challenge) => {
        loginOptions = challenge.passkeyAssertionOptions as typeof loginOptions;
        throw new Error("the customer closed the prompt");
      },
    }).catch(() => undefined);
    // The same bytes in another base64url string: the last character's spare bits set (a
    // browser's atob, and Node's decoder, drop them), so the authenticator signs the login's
    // challenge all the same.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const rewrite = (challenge: string) => {
      const trimmed = challenge.replace(/=+$/, "");
      if (trimmed.length % 4 === 0) throw new Error("a challenge without spare bits");
      const last = alphabet.indexOf(trimmed.at(-1)!);
      return `${trimmed.slice(0, -1)}${alphabet[last ^ 1]}`;
    };
    const reencoded =
      loginOptions && "publicKey" in loginOptions
        ? {
            publicKey: {
              ...loginOptions.publicKey,
              challenge: rewrite(loginOptions.publicKey.challenge),
            },
          }
        : {
            ...loginOptions!,
            challenge: rewrite((loginOptions as { challenge: string }).challenge),
          };
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const quote = await getQuote(user.client, { quoteId });
    const swap = proofsSent(async ({ url }) =>
      url.pathname.endsWith(`/quotes/${quoteId}/execute`)
        ? {
            respond: (response) =>
              forgedAnswer(response, (challenge) => ({
                ...challenge,
                id: "ScaChallenge:019542f5-b3e7-1d02-0000-00000000bee5",
                passkeyAssertionOptions: reencoded,
              })),
          }
        : undefined,
    );
    const taps = user.taps();
    await attack(
      {
        operation: "authorizeQuote (PASSKEY)",
        swap: "an SCA login's options, the challenge re-encoded, as the payment's",
      },
      swap.plan,
      async () => {
        const executed = await executeQuote(user.client, { quote, scaFactor: "PASSKEY" });
        if (executed.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
        await authorizeQuote(user.client, {
          quote: executed,
          onChallenge: () => ({ passkey: true }),
        });
      },
      async () => {
        expect(user.taps()).toBe(taps);
        expect(swap.count()).toBe(0);
        const released = await authorizeQuote(user.client, {
          quote: (await getQuote(user.client, { quoteId })) as PendingAuthorizationQuoteJson,
          onChallenge: () => ({ passkey: true }),
        });
        expect(released.status).toBe("PROCESSING");
      },
    );
  });

  it("SCA: the quote read after a lost authorization is another quote", async () => {
    const user = await signedInUser({ region: "IT", phoneNumber: freshPhone() });
    await scaLogin(user.client, { onChallenge: () => ({ code: "123456" }) });
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const other = await stack.walletQuote(user, 3_000_000);
    const executed = await executeQuote(user.client, {
      quote: await getQuote(user.client, { quoteId }),
    });
    if (executed.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
    const otherAnswer = (await stack.platform("GET", `/quotes/${other.quoteId}`)).body;
    await attack(
      {
        operation: "authorizeQuote (re-read)",
        swap: "the authorization's answer lost, the re-read answered with another quote",
        code: "MALFORMED_RESPONSE",
      },
      async ({ url, method }) => {
        if (method === "POST" && url.pathname.endsWith(`/quotes/${quoteId}/authorize`))
          return {
            answer: Response.json(
              { status: 502, code: "UPSTREAM_UNAVAILABLE", message: "lost" },
              { status: 502 },
            ),
          };
        if (method === "GET" && url.pathname.endsWith(`/quotes/${quoteId}`))
          return { answer: Response.json(otherAnswer, { status: 200 }) };
        return undefined;
      },
      async () => {
        const error = await authorizeQuote(user.client, {
          quote: executed,
          onChallenge: () => ({ code: "123456" }),
        }).catch((e) => e);
        expect(error).toMatchObject({ details: { quoteId, field: "id" } });
        throw error;
      },
      async () => {
        const released = await authorizeQuote(user.client, {
          quote: executed,
          onChallenge: () => ({ code: "123456" }),
        });
        expect(released).toMatchObject({ id: quoteId, status: "PROCESSING" });
      },
    );
  });

  it("settlement: the transaction read is another, completed one", async () => {
    const user = await signedInUser();
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const executed = await executeQuote(user.client, {
      quote: await getQuote(user.client, { quoteId }),
    });
    const transactionId = executed.transactionId!;
    const other = "Transaction:019542f5-b3e7-1d02-0000-0000000000aa";
    await attack(
      {
        operation: "waitForTransaction",
        swap: "the read answered with another transaction, COMPLETED",
        code: "MALFORMED_RESPONSE",
      },
      async ({ url, method }) =>
        method === "GET" && url.pathname.endsWith(`/transactions/${transactionId}`)
          ? {
              respond: async (response) => {
                const transaction = (await response.json()) as Record<string, unknown>;
                return Response.json({ ...transaction, id: other, status: "COMPLETED" });
              },
            }
          : undefined,
      () => waitForTransaction(user.client, { transactionId, pollingInterval: 20 }),
      async () => {
        const settled = await waitForTransaction(user.client, {
          transactionId,
          pollingInterval: 20,
        });
        expect(settled).toMatchObject({ id: transactionId, status: "COMPLETED" });
      },
    );
  });

  it("wallet privacy: the backend flips the setting the device asked for", async () => {
    const user = await signedInUser();
    await attack(
      { operation: "updateWalletPrivacy", swap: "privateEnabled → the opposite" },
      rewriteBody("PATCH", /^\/internal-accounts\/[^/]+$/, (b) => ({
        ...b,
        privateEnabled: !b.privateEnabled,
      })),
      () => updateWalletPrivacy(user.client, { accountId: user.accountId, privateEnabled: true }),
      async () => {
        const account = await updateWalletPrivacy(user.client, {
          accountId: user.accountId,
          privateEnabled: true,
        });
        expect(account.privateEnabled).toBe(true);
      },
    );
  });

  it("revoke credential: asked to remove a planted OAuth login, the backend has the user's SMS credential removed", async () => {
    const sms = smsCredential();
    const user = await signedInUser({ phoneNumber: sms.phoneNumber });
    const phone = await addCredential(user.client, { accountId: user.accountId, ...sms });
    const token = sandboxIdToken({ sub: "planted", iat: Math.floor(Date.now() / 1000) });
    const planted = await addCredential(user.client, {
      accountId: user.accountId,
      type: "OAUTH",
      oidcToken: token,
    });
    const remaining = async () =>
      (await listCredentials(user.client, { accountId: user.accountId })).map((c) => c.id);
    await attack(
      {
        operation: "revokeCredential",
        swap: "the OAuth login's removal → the SMS credential's (the 202 names SMS_OTP)",
      },
      async ({ url, method }) =>
        method === "DELETE" && url.pathname === `/auth/credentials/${planted.id}`
          ? { url: new URL(url.href.replace(planted.id, phone.id)) }
          : undefined,
      () =>
        revokeCredential(user.client, {
          accountId: user.accountId,
          credentialId: planted.id,
          type: "OAUTH",
        }),
      async () => {
        expect(await remaining()).toContain(phone.id);
        await revokeCredential(user.client, {
          accountId: user.accountId,
          credentialId: planted.id,
          type: "OAUTH",
        });
        const left = await remaining();
        expect(left).toContain(phone.id);
        expect(left).not.toContain(planted.id);
      },
    );
  });

  it("revoke credential: asked to remove the SMS credential, the backend has the email credential cleared by Turnkey's general user update", async () => {
    const sms = smsCredential();
    const user = await signedInUser({ phoneNumber: sms.phoneNumber });
    const phone = await addCredential(user.client, { accountId: user.accountId, ...sms });
    const remaining = async () =>
      (await listCredentials(user.client, { accountId: user.accountId })).map((c) => c.id);
    // The backend starts the email credential's removal itself; a service that removes a contact
    // with ACTIVITY_TYPE_UPDATE_USER (which core accepts for either kind) writes the same
    // parameters under that type. It hands the device that payload as the SMS removal's.
    const plan: Plan = async ({ url, method, headers }) => {
      if (
        method !== "DELETE" ||
        url.pathname !== `/auth/credentials/${phone.id}` ||
        headers.has("grid-wallet-signature")
      )
        return undefined;
      const started = await stack.platform<{ payloadToSign: string }>(
        "DELETE",
        `/auth/credentials/${user.emailCredentialId}`,
      );
      const activity = JSON.parse(started.body.payloadToSign) as Record<string, unknown>;
      const payloadToSign = JSON.stringify({ ...activity, type: "ACTIVITY_TYPE_UPDATE_USER" });
      // The 202's own `type` is the backend's to write as well.
      const answer = { ...started.body, payloadToSign, type: "SMS_OTP" };
      return { answer: Response.json(answer, { status: 202 }) };
    };
    await attack(
      {
        operation: "revokeCredential",
        swap: "the SMS credential's removal → the email credential's, as a general user update",
      },
      plan,
      () =>
        revokeCredential(user.client, {
          accountId: user.accountId,
          credentialId: phone.id,
          type: "SMS_OTP",
        }),
      async () => {
        await revokeCredential(user.client, {
          accountId: user.accountId,
          credentialId: phone.id,
          type: "SMS_OTP",
        });
        const left = await remaining();
        expect(left).toContain(user.emailCredentialId);
        expect(left).not.toContain(phone.id);
      },
    );
  });

  it("quote execute: a privacy change's payload is passed off as the quote's", async () => {
    const user = await signedInUser();
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const quote = await getQuote(user.client, { quoteId });
    // The backend starts a privacy change itself and hands the app its payload as the quote's.
    const privacy = await stack.platform<{ payloadToSign: string }>(
      "PATCH",
      `/internal-accounts/${user.accountId}`,
      { privateEnabled: true },
    );
    const forged: QuoteJson = {
      ...quote,
      paymentInstructions: [
        {
          accountOrWalletInfo: {
            accountType: "EMBEDDED_WALLET",
            payloadToSign: privacy.body.payloadToSign,
          },
        },
      ],
    } as QuoteJson;
    await attack(
      { operation: "executeQuote", swap: "a privacy change's payload as the transfer's" },
      async () => undefined,
      () => executeQuote(user.client, { quote: forged }),
      async () => {
        expect((await executeQuote(user.client, { quote })).id).toBe(quoteId);
        const account = await stack.platform<{ privateEnabled?: boolean }>(
          "GET",
          `/internal-accounts/${user.accountId}`,
        );
        expect(account.body.privateEnabled ?? false).toBe(false);
      },
    );
  });

  it("wallet privacy: a quote's transfer payload is passed off as the privacy change's", async () => {
    const user = await signedInUser();
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const quote = await getQuote(user.client, { quoteId });
    const transfer = quote.paymentInstructions!.find(
      (p) => p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    )!.accountOrWalletInfo.payloadToSign;
    await attack(
      {
        operation: "updateWalletPrivacy",
        swap: "a quote's transfer payload as the privacy change's",
      },
      async ({ url, method, headers }) =>
        method === "PATCH" &&
        url.pathname === `/internal-accounts/${user.accountId}` &&
        !headers.has("grid-wallet-signature")
          ? {
              answer: Response.json(
                {
                  payloadToSign: transfer,
                  requestId: `Request:${crypto.randomUUID()}`,
                  expiresAt: new Date(Date.now() + 300_000).toISOString(),
                },
                { status: 202 },
              ),
            }
          : undefined,
      () => updateWalletPrivacy(user.client, { accountId: user.accountId, privateEnabled: true }),
      async () => {
        const account = await updateWalletPrivacy(user.client, {
          accountId: user.accountId,
          privateEnabled: true,
        });
        expect(account.privateEnabled).toBe(true);
        expect((await getQuote(user.client, { quoteId })).status).toBe("PENDING");
      },
    );
  });

  it("passkey sign-in: the backend swaps the key of the passkey challenge for its own", async () => {
    const user = await signedInUser();
    const passkey = await addPasskey(user.client, {
      accountId: user.accountId,
      nickname: "Phone",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser("proof"),
    });
    const theirs = await newKeyHex(true);
    const held = (await user.client.sessions.list(user.accountId)).map((s) => s.id);
    await attack(
      {
        operation: "signInWithPasskey",
        swap: "clientPublicKey of the challenge → the backend's key",
        code: "SESSION_KEY_MISMATCH",
      },
      rewriteBody("POST", /\/challenge$/, (b) => ({ ...b, clientPublicKey: theirs })),
      () => signInWithPasskey(user.client, { credentialId: passkey.id }),
      async () => {
        // Nothing was held from the refused sign-in.
        expect((await user.client.sessions.list(user.accountId)).map((s) => s.id)).toEqual(held);
        const session = await signInWithPasskey(user.client, { credentialId: passkey.id });
        expect(session.credentialId).toBe(passkey.id);
        await exportWallet(user.client, { accountId: user.accountId });
      },
    );
  });

  it("quote execute: a quote past its expiresAt is never signed", async () => {
    const user = await signedInUser();
    const { quoteId } = await stack.walletQuote(user, 100_000);
    const quote = await getQuote(user.client, { quoteId });
    const expired: QuoteJson = { ...quote, expiresAt: new Date(Date.now() - 1_000).toISOString() };
    await attack(
      { operation: "executeQuote", swap: "a quote past its expiresAt", code: "QUOTE_EXPIRED" },
      async () => undefined,
      () => executeQuote(user.client, { quote: expired }),
      () => executeQuote(user.client, { quote }),
    );
  });

  it("trusted beneficiary: a pending payment's challenge is passed off as the trust's", async () => {
    const user = await signedInUser({ region: "DE", phoneNumber: freshPhone() });
    await scaLogin(user.client, { onChallenge: () => ({ code: "123456" }) });
    // The customer left a payment of 3.00 at its SMS prompt…
    const big = await stack.walletQuote(user, 3_000_000);
    const left = await executeQuote(user.client, {
      quote: await getQuote(user.client, { quoteId: big.quoteId }),
    });
    if (left.status !== "PENDING_AUTHORIZATION") throw new Error("expected SCA");
    // …and now trusts another payee: the backend answers the trust with the 3.00's challenge and
    // would send the code to the 3.00's authorize.
    const { externalAccountId } = await stack.walletQuote(user, 100_000);
    const swap = proofsSent(async ({ url }) => {
      if (url.pathname.endsWith(`/${externalAccountId}/trust`))
        return { respond: (response) => forgedAnswer(response, () => ({ ...left.scaChallenge })) };
      if (url.pathname.endsWith(`/${externalAccountId}/trust/confirm`))
        return {
          url: new URL(
            `${url.origin}${url.pathname.replace(/\/customers\/.*$/, "")}/quotes/${big.quoteId}/authorize`,
          ),
        };
      return undefined;
    });
    const asked: string[] = [];
    await attack(
      {
        operation: "trustBeneficiary",
        swap: "a pending payment's challenge as the trust's, the code sent to that payment",
      },
      swap.plan,
      () =>
        trustBeneficiary(user.client, {
          externalAccountId,
          onChallenge: (challenge) => {
            asked.push(challenge.id);
            return { code: "123456" };
          },
        }),
      async () => {
        // Nobody was asked and no proof sent; the 3.00 still waits, and the trust goes through.
        expect(asked).toEqual([]);
        expect(swap.count()).toBe(0);
        expect((await getQuote(user.client, { quoteId: big.quoteId })).status).toBe(
          "PENDING_AUTHORIZATION",
        );
        const done = await trustBeneficiary(user.client, {
          externalAccountId,
          onChallenge: () => ({ code: "123456" }),
        });
        expect(done.trusted).toBe(true);
      },
    );
  });

  it("factor reset: the backend completes an SMS_OTP reset of its own for the customer's TOTP one", async () => {
    const user = await signedInUser({ region: "AT", phoneNumber: freshPhone() });
    await enrollScaTotp(user.client, { onSecret: ({ totpUri }) => ({ code: appCode(totpUri) }) });
    const { resetId } = await startScaFactorReset(user.client, { factor: "TOTP" });
    // The backend started an SMS_OTP reset itself (its complete names the phone), and points the
    // device's reads and complete at it.
    const own = await stack.platform<{ resetId: string }>(
      "POST",
      `/sca/factors/reset?customerId=${user.customerId}`,
      { factor: "SMS_OTP" },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    let completes = 0;
    const plan: Plan = async ({ url, method }) => {
      if (!url.pathname.includes(`/sca/factors/reset/${resetId}`)) return undefined;
      if (method === "POST") completes++;
      return { url: new URL(url.href.replace(resetId, own.body.resetId)) };
    };
    await attack(
      {
        operation: "completeScaFactorReset",
        swap: "the reset read → an SMS_OTP reset of the backend's",
      },
      plan,
      () => completeScaFactorReset(user.client, { resetId, factor: "TOTP" }),
      async () => {
        expect(completes).toBe(0);
        expect((await getScaFactorReset(user.client, { resetId: own.body.resetId })).status).toBe(
          "LIVENESS_PASSED",
        );
        await completeScaFactorReset(user.client, { resetId, factor: "TOTP" });
        expect((await getScaFactorReset(user.client, { resetId })).status).toBe("COMPLETED");
      },
    );
  });

  it("TOTP enrolment: the QR code carries a secret of the backend's own", async () => {
    const user = await signedInUser({ region: "DE", phoneNumber: freshPhone() });
    let confirms = 0;
    let shown = 0;
    // The backend keeps the service's Base32 secret for typing and its own in the QR code, so an
    // app that scans it would make codes the backend can make too.
    const plan: Plan = async ({ url, method }) => {
      if (method === "POST" && url.pathname.endsWith("/sca/factors/confirm")) confirms++;
      if (method !== "POST" || !url.pathname.endsWith("/sca/factors")) return undefined;
      return {
        respond: async (response) => {
          const body = (await response.json()) as Record<string, unknown>;
          return Response.json(
            { ...body, totpUri: "otpauth://totp/Grid:victim?secret=JBSWY3DPEHPK3PXP&issuer=Grid" },
            { status: response.status },
          );
        },
      };
    };
    await attack(
      { operation: "enrollScaTotp", swap: "totpUri's secret → the backend's own" },
      plan,
      () =>
        enrollScaTotp(user.client, {
          onSecret: () => {
            shown++;
            return { code: "123456" };
          },
        }),
      async () => {
        // Nothing was shown and nothing confirmed; the honest enrolment then completes.
        expect(shown).toBe(0);
        expect(confirms).toBe(0);
        const done = await enrollScaTotp(user.client, {
          onSecret: ({ totpUri }) => ({ code: appCode(totpUri) }),
        });
        expect(done.recoveryCodes.length).toBeGreaterThan(0);
      },
    );
  });
});

afterAll(() => {
  // One row per operation and swap, as RELIABILITY.md shows them.
  const merged = new Map<string, Row>();
  for (const row of rows) {
    const key = `${row.operation}|${row.swap}`;
    const seen = merged.get(key);
    if (!seen) merged.set(key, { ...row, refused: { ...row.refused } });
    else {
      seen.tried += row.tried;
      seen.signed += row.signed;
      for (const [code, count] of Object.entries(row.refused))
        seen.refused[code] = (seen.refused[code] ?? 0) + count;
    }
  }
  saveCounts("compromised", [...merged.values()]);
});
