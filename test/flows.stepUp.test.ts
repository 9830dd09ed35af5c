// Step-up before sensitive actions (createClient's `stepUp`, docs/security.md "Step-up"), over the
// real stack (core → relay → emulator on 127.0.0.1). For each action marked sensitive: a session
// whose user verified longer ago than the maximum age is refused with STEP_UP_REQUIRED before
// anything reaches the emulator (its request log stays empty), and the same call passes after
// `stepUp`. A fresh sign-in passes without asking; a refresh keeps the verification's time; the
// option is off by default. Time moves through the client's clock, never by sleeping.
import {
  addCredential,
  addPasskey,
  changeContact,
  completeScaFactorReset,
  createClient,
  createDelegatedKey,
  deleteScaFactor,
  enrollScaPasskey,
  enrollScaTotp,
  exportWallet,
  getDelegatedKey,
  getScaFactorReset,
  getStepUpStatus,
  isSignetError,
  listCredentials,
  refreshSession,
  revokeCredential,
  revokeDelegatedKey,
  type SignetClient,
  type SignetError,
  type StepUpAction,
  signInWithOAuth,
  signInWithPasskey,
  startScaFactorReset,
  stepUp,
  trustBeneficiary,
  updateCustomerContact,
} from "@signet/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionTable } from "../packages/core/src/catalog/actionTable.js";
import { STEP_UP_ACTIONS } from "../packages/core/src/catalog/stepUpActions.js";
import { expectDocumentedDetails } from "../packages/test/src/errorDetails.js";
import { sandboxIdToken } from "./support/oidc.js";
import { passkeyUser, registrationChallenge, signInWithEmail } from "./support/signIn.js";
import { type Stack, startStack } from "./support/stack.js";
import { appCode } from "./support/totp.js";

const MAX_AGE_MS = 60_000;
const SMS = { code: "123456" } as const;
const rp = { id: "localhost", name: "Signet step-up test" };

/** An action of the preset `"sensitive"`. */
type Sensitive = {
  [K in StepUpAction]: (typeof STEP_UP_ACTIONS)[K] extends true ? K : never;
}[StepUpAction];
/** The preset `"sensitive"`: the actions the generated list marks so. */
const SENSITIVE_ACTIONS = (Object.keys(STEP_UP_ACTIONS) as StepUpAction[]).filter(
  (name): name is Sensitive => STEP_UP_ACTIONS[name],
);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 100, livenessDelayMs: 100 });
});
afterAll(() => stack?.close());

let serial = 0;
const unique = () => `${Date.now()}${String(++serial).padStart(3, "0")}`;
const freshPhone = () => `+4915${unique().slice(-9)}`;

type User = Awaited<ReturnType<typeof customer>>;

/**
 * An EU customer (SCA region, so every SCA action applies) signed in by email code, on a client
 * whose clock runs `ahead` ms ahead of real time: `age()` moves it past the maximum age.
 */
async function customer(
  stepUpOption: Parameters<typeof createClient>[0]["stepUp"] | null = {
    actions: "sensitive",
    maxAgeMs: MAX_AGE_MS,
  },
) {
  const user = await stack.signUp(undefined, { region: "DE", phoneNumber: freshPhone() });
  const clock = { ahead: 0 };
  const { client, authenticator } = stack.client(user.customerId, {
    clock: { now: () => Date.now() + clock.ahead },
    ...(stepUpOption ? { stepUp: stepUpOption } : {}),
  });
  await signInWithEmail(client, user.emailCredentialId);
  return {
    ...user,
    client,
    authenticator,
    /** The user's verification is now older than the maximum age. */
    age: () => {
      clock.ahead += MAX_AGE_MS + 1_000;
    },
  };
}

/** Polls a factor reset until its liveness check passed. */
async function untilLivenessPassed(client: SignetClient, resetId: string) {
  for (let i = 0; i < 50; i++) {
    const { status } = await getScaFactorReset(client, { resetId });
    if (status !== "INITIATED" && status !== "PENDING_REVIEW") return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the reset's liveness check never passed");
}

/** A card of the customer's wallet, as the platform issues it. */
async function card(user: User) {
  const made = await stack.platform<{ id: string }>("POST", "/cards", {
    cardholderId: user.customerId,
    fundingSources: [user.accountId],
    form: "VIRTUAL",
  });
  expect(made.status).toBe(201);
  return made.body.id;
}

/**
 * Each sensitive action: what it needs first (made while the sign-in is fresh), then the call,
 * which checks its own success.
 */
const cases: Record<Sensitive, (user: User) => Promise<() => Promise<void>>> = {
  exportWallet: async (u) => async () => {
    expect((await exportWallet(u.client, { accountId: u.accountId })).split(" ").length).toBe(12);
  },
  addPasskey: async (u) => async () => {
    const passkey = await addPasskey(u.client, {
      accountId: u.accountId,
      nickname: "Phone",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser(`p${unique()}`),
    });
    expect(passkey.type).toBe("PASSKEY");
  },
  addCredential: async (u) => async () => {
    const oauth = await addCredential(u.client, {
      accountId: u.accountId,
      type: "OAUTH",
      oidcToken: sandboxIdToken({ sub: `google-${unique()}` }),
    });
    expect(oauth.type).toBe("OAUTH");
  },
  revokeCredential: async (u) => {
    const oauth = await addCredential(u.client, {
      accountId: u.accountId,
      type: "OAUTH",
      oidcToken: sandboxIdToken({ sub: `google-${unique()}` }),
    });
    return async () => {
      await revokeCredential(u.client, {
        accountId: u.accountId,
        credentialId: oauth.id,
        type: "OAUTH",
      });
      const left = await listCredentials(u.client, { accountId: u.accountId });
      expect(left.map((c) => c.id)).toEqual([u.emailCredentialId]);
    };
  },
  changeContact: async (u) => async () => {
    const outcome = await changeContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email: `moved-${unique()}@example.com`,
    });
    expect(outcome.status).toBe("APPLIED");
  },
  updateCustomerContact: async (u) => async () => {
    const email = `updated-${unique()}@example.com`;
    await updateCustomerContact(u.client, {
      customerId: u.customerId,
      accountId: u.accountId,
      email,
    });
    const credentials = await listCredentials(u.client, { accountId: u.accountId });
    expect(credentials.find((c) => c.id === u.emailCredentialId)?.nickname).toBe(email);
  },
  createDelegatedKey: async (u) => {
    const cardId = await card(u);
    return async () => {
      const key = await createDelegatedKey(u.client, {
        accountId: u.accountId,
        cardId,
        nickname: "Card key",
      });
      expect(key.status).toBe("ACTIVE");
    };
  },
  revokeDelegatedKey: async (u) => {
    const key = await createDelegatedKey(u.client, {
      accountId: u.accountId,
      cardId: await card(u),
      nickname: "Card key",
    });
    return async () => {
      await revokeDelegatedKey(u.client, { delegatedKeyId: key.id });
      expect((await getDelegatedKey(u.client, { delegatedKeyId: key.id })).status).toBe("REVOKED");
    };
  },
  enrollScaTotp: async (u) => async () => {
    const { recoveryCodes } = await enrollScaTotp(u.client, {
      onSecret: ({ totpUri }) => ({ code: appCode(totpUri) }),
    });
    expect(recoveryCodes.length).toBeGreaterThan(0);
  },
  enrollScaPasskey: async (u) => async () => {
    expect(await enrollScaPasskey(u.client)).toMatchObject({ factor: "PASSKEY" });
  },
  deleteScaFactor: async (u) => {
    const factor = await enrollScaPasskey(u.client);
    return async () => {
      await deleteScaFactor(u.client, { credentialId: factor.credentialId! });
    };
  },
  startScaFactorReset: async (u) => async () => {
    const start = await startScaFactorReset(u.client, { factor: "SMS_OTP" });
    expect(start.resetId).toEqual(expect.any(String));
  },
  completeScaFactorReset: async (u) => {
    const { resetId } = await startScaFactorReset(u.client, { factor: "SMS_OTP" });
    expect(await untilLivenessPassed(u.client, resetId)).toBe("LIVENESS_PASSED");
    return async () => {
      await completeScaFactorReset(u.client, {
        resetId,
        factor: "SMS_OTP",
        mobile: { countryCode: "+49", number: `15${unique().slice(-9)}` },
      });
      expect(await getScaFactorReset(u.client, { resetId })).toMatchObject({
        status: "COMPLETED",
      });
    };
  },
  trustBeneficiary: async (u) => {
    const { externalAccountId } = await stack.walletQuote(u, 100_000);
    return async () => {
      const trusted = await trustBeneficiary(u.client, {
        externalAccountId,
        onChallenge: () => SMS,
      });
      expect(trusted).toEqual({ trusted: true });
    };
  },
};

/** Runs `call` and returns what it threw (failing the test when it did not throw). */
async function refusal(call: () => Promise<void>): Promise<SignetError> {
  const error = await call().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!isSignetError(error)) throw new Error(`expected a SignetError, got ${String(error)}`);
  return error;
}

describe("step-up: every sensitive action", () => {
  it("the preset is exactly the rows marked sensitive, and this table covers each", () => {
    const marked = Object.entries(actionTable)
      .filter(([, row]) => (row as { sensitive?: true }).sensitive)
      .map(([name]) => name);
    expect([...SENSITIVE_ACTIONS].sort()).toEqual(marked.sort());
    expect(marked.length).toBeGreaterThan(10);
    expect(Object.keys(cases).sort()).toEqual([...SENSITIVE_ACTIONS].sort());
  });

  it.each(SENSITIVE_ACTIONS.map((action) => [action]))(
    "%s: a stale session is refused before anything is sent, and passes after stepUp",
    async (action) => {
      const user = await customer();
      const call = await cases[action](user);
      user.age();
      await stack.clearRequests();
      const refused = await refusal(call);
      expect(refused.code).toBe("STEP_UP_REQUIRED");
      expect(refused.details).toMatchObject({ action, maxAgeMs: MAX_AGE_MS });
      expect(refused.details).toHaveProperty("verifiedAt");
      expectDocumentedDetails(refused);
      // Nothing reached the service: no challenge asked for, nothing signed or sent.
      expect(await stack.requests()).toEqual([]);

      const session = await stepUp(user.client, {
        accountId: user.accountId,
        onCode: () => "000000",
      });
      expect(session.credentialId).toBe(user.emailCredentialId);
      expect(
        (await getStepUpStatus(user.client, { accountId: user.accountId, action })).required,
      ).toBe(false);
      await call();
      // The log the refusal left empty is the one every call fills.
      expect((await stack.requests()).length).toBeGreaterThan(0);
    },
  );
});

describe("step-up: when it asks and when it does not", () => {
  it("a fresh sign-in passes without asking", async () => {
    const user = await customer();
    expect(await getStepUpStatus(user.client, { accountId: user.accountId })).toMatchObject({
      required: false,
      maxAgeMs: MAX_AGE_MS,
    });
    await (await cases.exportWallet(user))();
  });

  it("off by default: a stale session exports as before", async () => {
    const user = await customer(null);
    user.age();
    expect((await getStepUpStatus(user.client, { accountId: user.accountId })).required).toBe(
      false,
    );
    await (await cases.exportWallet(user))();
  });

  it("an action the option does not name runs on a stale session; one it names does not", async () => {
    const user = await customer({ actions: ["addCredential"], maxAgeMs: MAX_AGE_MS });
    user.age();
    await (await cases.exportWallet(user))();
    const refused = await refusal(await cases.addCredential(user));
    expect(refused).toMatchObject({
      code: "STEP_UP_REQUIRED",
      details: { action: "addCredential" },
    });
  });

  it("a refresh keeps the time of the sign-in: still refused after it", async () => {
    const user = await customer();
    const before = await refreshSession(user.client, { accountId: user.accountId });
    user.age();
    const refreshed = await refreshSession(user.client, { accountId: user.accountId });
    expect(refreshed.id).not.toBe(before.id);
    expect(refreshed.verifiedAt).toBe(before.verifiedAt);
    const refused = await refusal(await cases.exportWallet(user));
    expect(refused).toMatchObject({
      code: "STEP_UP_REQUIRED",
      details: { verifiedAt: before.verifiedAt },
    });
  });

  it("an OAuth sign-in is no verification: refused, and a passkey stepUp lets it through", async () => {
    const user = await customer();
    const passkey = await addPasskey(user.client, {
      accountId: user.accountId,
      nickname: "Laptop",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser(`o${unique()}`),
    });
    const sub = `google-${unique()}`;
    const oauth = await addCredential(user.client, {
      accountId: user.accountId,
      type: "OAUTH",
      oidcToken: sandboxIdToken({ sub }),
    });
    user.age();
    const signedIn = await signInWithOAuth(user.client, {
      credentialId: oauth.id,
      getIdToken: async ({ nonce }) => sandboxIdToken({ sub, nonce }),
    });
    expect(signedIn.verifiedAt).toBeUndefined();
    expect((await refusal(await cases.exportWallet(user))).code).toBe("STEP_UP_REQUIRED");
    // The app chooses the passkey ceremony by leaving out `onCode`.
    const signCount = user.authenticator.credentials[0]!.signCount;
    const verified = await stepUp(user.client, {
      accountId: user.accountId,
      credentialId: passkey.id,
    });
    expect(verified.credentialId).toBe(passkey.id);
    expect(user.authenticator.credentials[0]!.signCount).toBe(signCount + 1);
    await (await cases.exportWallet(user))();
  });

  it("a passkey sign-in records its time; it lapses with the clock", async () => {
    const user = await customer();
    const passkey = await addPasskey(user.client, {
      accountId: user.accountId,
      nickname: "Key",
      challenge: registrationChallenge(),
      rp,
      user: passkeyUser(`k${unique()}`),
    });
    user.age();
    const session = await signInWithPasskey(user.client, { credentialId: passkey.id });
    expect(Date.parse(session.verifiedAt!)).toBeGreaterThan(Date.now());
    await (await cases.exportWallet(user))();
    user.age();
    const status = await getStepUpStatus(user.client, {
      accountId: user.accountId,
      action: "exportWallet",
    });
    expect(status).toMatchObject({ required: true, verifiedAt: session.verifiedAt });
  });

  it("stepUp keeps the user signed in: the superseded session of that credential ends, its key with it", async () => {
    const user = await customer();
    const [first] = user.client.sessions.getSnapshot()[user.accountId]!;
    user.age();
    const session = await stepUp(user.client, {
      accountId: user.accountId,
      onCode: () => "000000",
    });
    const held = user.client.sessions.getSnapshot()[user.accountId]!;
    expect(held.map((s) => s.id)).toEqual([session.id]);
    expect(held[0]!.id).not.toBe(first!.id);
  });

  it("a misspelt action or a bad maximum age fails at creation", () => {
    for (const stepUpOption of [
      { actions: ["exportWalet" as StepUpAction] },
      { actions: ["signInWithPasskey" as StepUpAction] },
      { actions: "sensitive" as const, maxAgeMs: 0 },
      { actions: "all" as never },
    ])
      expect(() => createClient({ relayUrl: stack.relayUrl, stepUp: stepUpOption })).toThrowError(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
  });
});
