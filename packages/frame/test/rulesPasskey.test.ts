// The frame's passkey and delegated-key rules (src/page/rulesPasskey.ts): the registration options
// a page may ask the frame to create a passkey with, and the two signatures of a delegated key's
// creation, the first confirmed with a tap that shows the card and the key, the second bound by
// the same check to the key the user approved and taken once.
import { describe, expect, it } from "vitest";
import { DELEGATED_KEY_CREATE } from "../../core/src/actions/createDelegatedKey.js";
import { ruleFor } from "../src/page/rules.js";
import { DELEGATED_KEY_CREATE_ROUTE, readRegistrationOptions } from "../src/page/rulesPasskey.js";
import { activity, verdict } from "./support/ruleInput.js";

const options = {
  rp: { id: "localhost", name: "Demo" },
  user: { id: "dXNlcg", name: "ada", displayName: "Ada" },
  challenge: "Y2hhbGxlbmdlLWNoYWxsZW5nZQ",
  pubKeyCredParams: [{ type: "public-key", alg: -7 }],
  timeout: 60_000,
  authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
  attestation: "none",
};

describe("readRegistrationOptions", () => {
  it("reads core's registration options into a fresh object, nothing else", () => {
    const read = readRegistrationOptions(
      JSON.stringify({ ...options, extensions: { largeBlob: { support: "required" } } }),
    );
    expect(read).toEqual(options);
  });

  it("keeps the credentials to exclude, by id", () => {
    const excludeCredentials = [{ id: "Y3JlZC0x", type: "public-key", transports: ["usb"] }];
    expect(
      readRegistrationOptions(JSON.stringify({ ...options, excludeCredentials }))
        ?.excludeCredentials,
    ).toEqual([{ id: "Y3JlZC0x", type: "public-key" }]);
    expect(
      readRegistrationOptions(JSON.stringify({ ...options, excludeCredentials: [{ id: "+" }] })),
    ).toBeUndefined();
  });

  it.each([
    ["not JSON", "{"],
    ["no challenge", JSON.stringify({ ...options, challenge: undefined })],
    ["a short challenge", JSON.stringify({ ...options, challenge: "abc" })],
    [
      "a challenge that is no base64url",
      JSON.stringify({ ...options, challenge: "a+b/".repeat(8) }),
    ],
    [
      "no ES256",
      JSON.stringify({ ...options, pubKeyCredParams: [{ type: "public-key", alg: -257 }] }),
    ],
    [
      "user verification not required",
      JSON.stringify({ ...options, authenticatorSelection: { userVerification: "preferred" } }),
    ],
    ["no relying party name", JSON.stringify({ ...options, rp: { id: "localhost" } })],
    ["no user", JSON.stringify({ ...options, user: undefined })],
  ])("refuses %s", (_name, json) => {
    expect(readRegistrationOptions(json)).toBeUndefined();
  });
});

describe("a delegated key (POST /auth/delegated-keys)", () => {
  const found = ruleFor("POST", "/auth/delegated-keys")!;
  const delegated = `02${"11".repeat(32)}`;
  const identity = (publicKey: string) =>
    activity("CREATE_USERS_V3", {
      users: [
        {
          apiKeys: [{ apiKeyName: "Card key", curveType: "API_KEY_CURVE_P256", publicKey }],
          authenticators: [],
          oauthProviders: [],
          userName: "Delegated key of Card:1",
          userTags: [],
        },
      ],
    });
  const policies = (publicKey: string) =>
    activity("CREATE_POLICIES", {
      policies: [
        {
          condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'",
          consensus: "approvers.any(user, user.id == 'u1')",
          effect: "EFFECT_ALLOW",
          notes: `Card key: Card:1 funded by InternalAccount:1 (${publicKey})`,
          policyName: "Card key: signing",
        },
      ],
    });
  const body = { cardId: "Card:1", internalAccountId: "InternalAccount:1", nickname: "Card key" };
  const input = (payload: string, overrides: Record<string, unknown> = {}) => ({
    key: { publicKey: `03${"22".repeat(32)}`, publicKeyUncompressed: "" },
    storedAccountId: "InternalAccount:1",
    ids: [],
    body,
    payload,
    isFreshKey: () => false,
    isExportKey: () => false,
    isSessionDecryptionKey: () => false,
    stampedByFreshKey: false,
    registration: () => undefined,
    ...overrides,
  });
  const build = (payload: string, overrides: Record<string, unknown> = {}) => {
    const built = found.rule.build(input(payload, overrides) as never);
    if (typeof built === "string") throw new Error(`expected a check, got ${built}`);
    return built;
  };

  it("is core's route", () => {
    expect(DELEGATED_KEY_CREATE_ROUTE).toEqual({
      method: DELEGATED_KEY_CREATE.method,
      path: DELEGATED_KEY_CREATE.path,
    });
  });

  it("confirms the identity with a tap showing the card and the key, then binds the policies to that key once", async () => {
    const first = build(identity(delegated));
    expect(first.gesture).toBe(true);
    expect(first.rows).toEqual([
      { label: "Card", value: "Card:1" },
      { label: "Key name", value: "Card key" },
      { label: "Delegated key", value: delegated },
      expect.objectContaining({ label: "It may" }),
    ]);
    expect(await verdict(first.check, identity(delegated))).toBe("signed");
    // Before the first is stamped (a tap the user has not made), a policies payload is a first
    // signature, and refused as one.
    expect(await verdict(build(policies(delegated)).check, policies(delegated))).toBe("type");
    first.stamped?.();
    const second = build(policies(delegated));
    expect(second.gesture).toBe(false);
    expect(await verdict(second.check, policies(`02${"33".repeat(32)}`))).toBe(
      "parameters.policies.0.notes",
    );
    expect(await verdict(second.check, policies(delegated))).toBe("signed");
    second.stamped?.();
    // Taken once: another policies payload asks for a first signature again, and is refused.
    expect(await verdict(build(policies(delegated)).check, policies(delegated))).toBe("type");
  });

  it("gives one second signature to two policy requests made at once", async () => {
    const first = build(identity(delegated));
    expect(await verdict(first.check, identity(delegated))).toBe("signed");
    first.stamped?.();
    // Both built before either is stamped: the second is a first signature (a tap), and refused.
    const one = build(policies(delegated));
    const other = build(policies(delegated));
    expect(one.gesture).toBe(false);
    expect(other.gesture).toBe(true);
    expect(await verdict(other.check, policies(delegated))).toBe("type");
    expect(await verdict(one.check, policies(delegated))).toBe("signed");
  });

  it("refuses another account, another card's identity, or an identity that can sign in", async () => {
    expect(
      found.rule.build(input(identity(delegated), { storedAccountId: undefined }) as never),
    ).toBe("key");
    expect(
      found.rule.build(
        input(identity(delegated), {
          body: { ...body, internalAccountId: "InternalAccount:2" },
        }) as never,
      ),
    ).toBe("key");
    const withEmail = activity("CREATE_USERS_V3", {
      users: [
        {
          apiKeys: [{ curveType: "API_KEY_CURVE_P256", publicKey: delegated }],
          userEmail: "thief@example.com",
        },
      ],
    });
    expect(await verdict(build(withEmail).check, withEmail)).not.toBe("signed");
    const otherCard = identity(delegated).replace("Card:1", "Card:2");
    expect(await verdict(build(otherCard).check, otherCard)).not.toBe("signed");
  });
});
