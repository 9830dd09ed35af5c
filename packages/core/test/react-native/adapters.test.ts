// The React Native adapters over faithful fakes of expo-secure-store, react-native-keychain and
// react-native-passkeys (./fakes.ts), alone and inside whole flows against the emulator.
import { createSoftAuthenticator } from "@signet/emulator/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  passkeyUser,
  registrationChallenge,
  signInWithEmail,
} from "../../../../test/support/signIn.js";
import { type Stack, startStack } from "../../../../test/support/stack.js";
import { createCryptoApi } from "../../src/crypto/api.js";
import { createNobleBackend } from "../../src/crypto/noble.js";
import {
  addPasskey,
  getSession,
  type KeyStore,
  SignetError,
  signInWithPasskey,
} from "../../src/index.js";
import { keychainKeyStore } from "../../src/react-native/keychain.js";
import { passkeysWebAuthn, toPasskeysError } from "../../src/react-native/passkeys.js";
import { secureStoreKeyStore } from "../../src/react-native/secureStore.js";
import {
  createFakeDevice,
  createFakeKeychain,
  createFakePasskeys,
  createFakeSecureStore,
  type FakePasskeyFailure,
} from "./fakes.js";

const noble = createCryptoApi(createNobleBackend());

async function codeOf(run: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await run();
    return "RESOLVED";
  } catch (error) {
    expect(error).toBeInstanceOf(SignetError);
    return (error as SignetError).code;
  }
}

/** Stores a fresh noble key under `id`, reads it back and restores it. */
async function roundTrip(store: KeyStore, id = "Session:1") {
  const key = await noble.generateSigningKey();
  await store.set(id, key.toRecord());
  const record = await store.get(id);
  const restored = record && (await noble.restoreSigningKey(record));
  expect(restored?.publicKey).toBe(key.publicKey);
  return key;
}

describe("expo-secure-store key store", () => {
  it("keeps records readable only on this device while unlocked, on every call", async () => {
    const module = createFakeSecureStore();
    const store = secureStoreKeyStore(module);
    expect(store.persistence).toBe("secure-store");
    await roundTrip(store);
    expect(await store.list()).toEqual(["Session:1"]);
    expect(module.fake.calls.length).toBeGreaterThan(0);
    for (const call of module.fake.calls)
      expect(call.options?.keychainAccessible).toBe(module.WHEN_UNLOCKED_THIS_DEVICE_ONLY);
    for (const item of module.fake.items.values())
      expect(item.accessibility).toBe("whenUnlockedThisDeviceOnly");
    // A backup restored on a new device carries none of them.
    expect(module.fake.migrated().size).toBe(0);
    await store.delete("Session:1");
    expect(await store.get("Session:1")).toBeUndefined();
    expect(await store.list()).toEqual([]);
  });

  it("reports a locked device as KEY_STORAGE_UNAVAILABLE, never a crash or a key in the message", async () => {
    const device = createFakeDevice();
    const module = createFakeSecureStore(device);
    const store = secureStoreKeyStore(module);
    const key = await roundTrip(store);
    device.locked = true;
    const error = await store.get("Session:1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignetError);
    expect((error as SignetError).code).toBe("KEY_STORAGE_UNAVAILABLE");
    const privateKey = (key.toRecord() as { privateKey: string }).privateKey;
    expect(JSON.stringify(error)).not.toContain(privateKey);
    expect(String((error as Error).message)).not.toContain(privateKey);
  });

  it("with whenPasscodeSetThisDeviceOnly, keys go when the passcode goes", async () => {
    const module = createFakeSecureStore();
    const store = secureStoreKeyStore(module, { accessible: "whenPasscodeSetThisDeviceOnly" });
    await roundTrip(store);
    for (const call of module.fake.calls)
      expect(call.options?.keychainAccessible).toBe(module.WHEN_PASSCODE_SET_THIS_DEVICE_ONLY);
    module.fake.removePasscode();
    expect(await store.get("Session:1")).toBeUndefined();
  });

  it("passes the service and authentication options on every call; a refused prompt is typed", async () => {
    const module = createFakeSecureStore();
    const store = secureStoreKeyStore(module, {
      keychainService: "signet-wallet",
      requireAuthentication: true,
      authenticationPrompt: "Unlock your wallet",
      prefix: "app.",
    });
    await roundTrip(store);
    for (const call of module.fake.calls) {
      expect(call.key.startsWith("app.")).toBe(true);
      expect(call.options).toMatchObject({
        keychainService: "signet-wallet",
        requireAuthentication: true,
        authenticationPrompt: "Unlock your wallet",
      });
    }
    module.fake.refuseAuthentication();
    expect(await codeOf(() => store.get("Session:1"))).toBe("KEY_STORAGE_UNAVAILABLE");
  });

  it("refuses weaker classes, a module without constants and a missing module", async () => {
    const module = createFakeSecureStore();
    for (const accessible of ["always", "afterFirstUnlock", "whenUnlocked", 6])
      expect(await codeOf(() => secureStoreKeyStore(module, { accessible } as never))).toBe(
        "INVALID_ARGUMENT",
      );
    const { WHEN_UNLOCKED_THIS_DEVICE_ONLY: _, ...withoutConstant } = module;
    expect(await codeOf(() => secureStoreKeyStore(withoutConstant as never))).toBe(
      "KEY_STORAGE_UNAVAILABLE",
    );
    expect(await codeOf(() => secureStoreKeyStore({} as never))).toBe("KEY_STORAGE_UNAVAILABLE");
    expect(await codeOf(() => secureStoreKeyStore(undefined as never))).toBe(
      "KEY_STORAGE_UNAVAILABLE",
    );
  });
});

describe("react-native-keychain key store", () => {
  it("one item per key, this device only, never synced, readable only while unlocked", async () => {
    const device = createFakeDevice();
    const module = createFakeKeychain(device);
    const store = keychainKeyStore(module);
    await roundTrip(store);
    await roundTrip(store, "Session:2");
    expect((await store.list()).sort()).toEqual(["Session:1", "Session:2"]);
    const writes = module.fake.calls.filter((c) => c.fn === "setGenericPassword");
    expect(writes.length).toBeGreaterThan(0);
    for (const { options } of writes) {
      expect(options).toMatchObject({
        accessible: module.ACCESSIBLE.WHEN_UNLOCKED_THIS_DEVICE_ONLY,
        cloudSync: false,
      });
      expect(options?.service?.startsWith("signet.")).toBe(true);
    }
    for (const item of module.fake.items.values()) {
      expect(item.accessibility).toBe("whenUnlockedThisDeviceOnly");
      expect(item.synced).toBe(false);
    }
    expect(module.fake.migrated().size).toBe(0);
    device.locked = true;
    expect(await codeOf(() => store.get("Session:1"))).toBe("KEY_STORAGE_UNAVAILABLE");
    device.locked = false;
    await store.delete("Session:1");
    expect(await store.get("Session:1")).toBeUndefined();
    expect(await store.list()).toEqual(["Session:2"]);
  });

  it("Android: requireSecureHardware asks for SECURE_HARDWARE and fails typed without it", async () => {
    const withHardware = createFakeKeychain(createFakeDevice({ platform: "android" }));
    await roundTrip(keychainKeyStore(withHardware, { requireSecureHardware: true }));
    for (const call of withHardware.fake.calls.filter((c) => c.fn === "setGenericPassword"))
      expect(call.options?.securityLevel).toBe("SECURE_HARDWARE");
    const without = createFakeKeychain(
      createFakeDevice({ platform: "android", secureHardware: false }),
    );
    const store = keychainKeyStore(without, { requireSecureHardware: true });
    const key = await noble.generateSigningKey();
    expect(await codeOf(() => store.set("Session:1", key.toRecord()))).toBe(
      "KEY_STORAGE_UNAVAILABLE",
    );
    expect(await store.list()).toEqual([]);
  });

  it("a keychain that answers false to a write is KEY_STORAGE_UNAVAILABLE", async () => {
    const module = createFakeKeychain();
    const store = keychainKeyStore({ ...module, setGenericPassword: async () => false as const });
    const key = await noble.generateSigningKey();
    expect(await codeOf(() => store.set("Session:1", key.toRecord()))).toBe(
      "KEY_STORAGE_UNAVAILABLE",
    );
  });

  it("refuses weaker classes and a module without its constants", async () => {
    const module = createFakeKeychain();
    expect(await codeOf(() => keychainKeyStore(module, { accessible: "always" as never }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(() => keychainKeyStore({ ...module, ACCESSIBLE: {} as never }))).toBe(
      "KEY_STORAGE_UNAVAILABLE",
    );
    expect(
      await codeOf(() =>
        keychainKeyStore({ ...module, SECURITY_LEVEL: undefined }, { requireSecureHardware: true }),
      ),
    ).toBe("KEY_STORAGE_UNAVAILABLE");
    expect(await codeOf(() => keychainKeyStore({} as never))).toBe("KEY_STORAGE_UNAVAILABLE");
  });
});

describe("react-native-passkeys provider", () => {
  const softHost = () => {
    const authenticator = createSoftAuthenticator({
      rpId: "localhost",
      origin: "http://localhost:5173",
    });
    return {
      authenticator,
      host: {
        create: (request: Record<string, unknown>) =>
          authenticator.createCredential(request as never),
        get: (request: Record<string, unknown>) => authenticator.getAssertion(request as never),
      },
    };
  };

  it("maps every documented iOS and Android failure to a Signet code", async () => {
    const cases: [platform: "ios" | "android", FakePasskeyFailure, string][] = [
      ["ios", "cancel", "WEBAUTHN_CANCELLED"],
      ["ios", "notConfigured", "WEBAUTHN_RP_ID_INVALID"],
      ["ios", "pending", "WEBAUTHN_FAILED"],
      ["ios", "unknown", "WEBAUTHN_FAILED"],
      ["ios", "null", "WEBAUTHN_FAILED"],
      ["android", "cancel", "WEBAUTHN_CANCELLED"],
      ["android", "noCredentials", "WEBAUTHN_FAILED"],
      ["android", "interrupted", "WEBAUTHN_FAILED"],
      ["android", "notConfigured", "WEBAUTHN_UNSUPPORTED"],
      ["android", "domNotAllowed", "WEBAUTHN_CANCELLED"],
      ["android", "domInvalidState", "WEBAUTHN_INVALID_STATE"],
      ["android", "domSecurity", "WEBAUTHN_RP_ID_INVALID"],
      ["android", "unknown", "WEBAUTHN_FAILED"],
    ];
    const { host } = softHost();
    for (const [platform, failure, code] of cases) {
      const module = createFakePasskeys(host, createFakeDevice({ platform }));
      const provider = passkeysWebAuthn(module, { rpId: "localhost" });
      module.fake.failNext(failure);
      const error = await provider
        .authenticate({ challenge: "AAAA", rpId: "localhost" })
        .catch((e: unknown) => e);
      expect(error, `${platform} ${failure}`).toBeInstanceOf(SignetError);
      expect((error as SignetError).code, `${platform} ${failure}`).toBe(code);
      if (failure !== "null") expect((error as SignetError).cause).toBeDefined();
      module.fake.failNext(failure);
      const onCreate = await codeOf(() =>
        provider.register({
          rp: { id: "localhost", name: "Signet" },
          user: { id: "dXNlcg", name: "user", displayName: "User" },
          challenge: "AAAA",
          pubKeyCredParams: [{ type: "public-key", alg: -7 }],
        }),
      );
      expect(onCreate, `${platform} ${failure} on create`).toBe(code);
    }
  });

  it("maps the native codes it knows and leaves the rest to the WebAuthn names", () => {
    const coded = (code: string, message = "") => Object.assign(new Error(message), { code });
    expect(toPasskeysError(coded("ERR_NOT_SUPPORTED")).code).toBe("WEBAUTHN_UNSUPPORTED");
    expect(toPasskeysError(coded("ERR_BIOMETRIC")).code).toBe("WEBAUTHN_UNSUPPORTED");
    expect(toPasskeysError(coded("ERR_INVALID_CHALLENGE")).code).toBe("ENCODING_INVALID");
    expect(toPasskeysError(coded("ERR_USER_CANCELLED")).details).toEqual({
      name: "NotAllowedError",
      native: "ERR_USER_CANCELLED",
    });
    // Read with the ceremony's context by toWebAuthnError's rules: a dismissal once the timeout
    // has passed is a timeout, on either platform.
    const options = { challenge: "AAAA", rpId: "app.example", timeout: 5_000 };
    for (const native of [coded("ERR_USER_CANCELLED"), new Error("UserCancelled")]) {
      const late = toPasskeysError(native, {
        ceremony: "authentication",
        options,
        elapsedMs: 5_000,
      });
      expect(late).toMatchObject({ code: "WEBAUTHN_TIMEOUT", retryable: true });
      const early = toPasskeysError(native, {
        ceremony: "authentication",
        options,
        elapsedMs: 900,
      });
      expect(early.code).toBe("WEBAUTHN_CANCELLED");
    }
    const unassociated = toPasskeysError(coded("ERR_NOT_CONFIGURED"), {
      ceremony: "registration",
      options: { ...options, rp: { id: "app.example", name: "App" } } as never,
    });
    expect(unassociated.message).toMatch(/"app\.example" \(apple-app-site-association/);
    // On web the library calls navigator.credentials: DOMExceptions by name.
    expect(toPasskeysError(new DOMException("x", "NotAllowedError")).code).toBe(
      "WEBAUTHN_CANCELLED",
    );
    expect(toPasskeysError(new Error("?")).code).toBe("WEBAUTHN_FAILED");
    expect(toPasskeysError(null).code).toBe("WEBAUTHN_FAILED");
    const passthrough = new SignetError("ABORTED", "x");
    expect(toPasskeysError(passthrough)).toBe(passthrough);
  });

  it("fills the relying party id the native APIs need, and refuses to guess one", async () => {
    const challenge = "A".repeat(43);
    const { host } = softHost();
    const module = createFakePasskeys(host);
    const withRpId = passkeysWebAuthn(module, { rpId: "localhost" });
    const registration = await withRpId.register({
      rp: { name: "Signet" },
      user: { id: "dXNlcg", name: "user", displayName: "User" },
      challenge,
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    });
    expect(registration).toMatchObject({ id: expect.any(String), type: "public-key" });
    expect(registration.response.attestationObject).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((module.fake.requests[0]?.request.rp as { id?: string } | undefined)?.id).toBe(
      "localhost",
    );
    const assertion = await withRpId.authenticate({ challenge });
    expect(module.fake.requests[1]?.request.rpId).toBe("localhost");
    expect(assertion.response.signature).toMatch(/^[A-Za-z0-9_-]+$/);

    const withoutRpId = passkeysWebAuthn(module);
    expect(await codeOf(() => withoutRpId.authenticate({ challenge: "AAAA" }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await codeOf(() => passkeysWebAuthn(module, { rpId: "" }))).toBe("INVALID_ARGUMENT");
  });

  it("refuses an unsupported device, autofill and a malformed native answer", async () => {
    const { host } = softHost();
    const module = createFakePasskeys(host);
    const provider = passkeysWebAuthn(module, { rpId: "localhost" });
    expect(
      await codeOf(() => provider.authenticate({ challenge: "AAAA" }, { autofill: true })),
    ).toBe("WEBAUTHN_UNSUPPORTED");
    module.fake.setSupported(false);
    expect(await codeOf(() => provider.authenticate({ challenge: "AAAA" }))).toBe(
      "WEBAUTHN_UNSUPPORTED",
    );
    const throwing = passkeysWebAuthn(
      {
        ...module,
        isSupported: () => {
          throw new Error("The package 'react-native-passkeys' doesn't seem to be linked");
        },
      },
      { rpId: "localhost" },
    );
    expect(await codeOf(() => throwing.authenticate({ challenge: "AAAA" }))).toBe(
      "WEBAUTHN_UNSUPPORTED",
    );
    const garbled = passkeysWebAuthn(
      { isSupported: () => true, create: async () => ({ id: 1 }), get: async () => "nope" },
      { rpId: "localhost" },
    );
    expect(await codeOf(() => garbled.authenticate({ challenge: "AAAA" }))).toBe("WEBAUTHN_FAILED");
    expect(
      await codeOf(() =>
        garbled.register({
          rp: { id: "localhost", name: "x" },
          user: { id: "dXNlcg", name: "u", displayName: "u" },
          challenge: "AAAA",
          pubKeyCredParams: [{ type: "public-key", alg: -7 }],
        }),
      ),
    ).toBe("WEBAUTHN_FAILED");
  });
});

describe("the adapters in whole flows: core → relay → emulator", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  for (const [name, makeStore] of [
    ["expo-secure-store", () => secureStoreKeyStore(createFakeSecureStore())],
    ["react-native-keychain", () => keychainKeyStore(createFakeKeychain())],
  ] as const) {
    it(`${name}: an OTP session's key lives in the store and a new client restores it`, async () => {
      const { customerId, accountId, emailCredentialId } = await stack.signUp();
      const keyStore = makeStore();
      const { client } = stack.client(customerId, { keyStore, crypto: noble });
      const session = await signInWithEmail(client, emailCredentialId);
      expect(await keyStore.list()).not.toEqual([]);
      expect(await client.persistence()).toBe("secure-store");
      // An app restart: a new client over the same store finds the session and its key.
      const { client: restarted } = stack.client(customerId, { keyStore, crypto: noble });
      expect((await getSession(restarted, { accountId }))?.id).toBe(session.id);
    });
  }

  it("react-native-passkeys: a passkey added and signed in with through the adapter", async () => {
    const { customerId, accountId, emailCredentialId } = await stack.signUp();
    const authenticator = createSoftAuthenticator({
      rpId: "localhost",
      origin: "http://localhost:5173",
    });
    const module = createFakePasskeys({
      create: (request) => authenticator.createCredential(request as never),
      get: (request) => authenticator.getAssertion(request as never),
    });
    const webauthn = passkeysWebAuthn(module, { rpId: "localhost" });
    const { client } = stack.client(customerId, { webauthn, crypto: noble });
    await signInWithEmail(client, emailCredentialId);
    const passkey = await addPasskey(client, {
      accountId,
      nickname: "Phone",
      challenge: registrationChallenge(),
      rp: { id: "localhost", name: "Signet test" },
      user: passkeyUser("rn"),
    });
    const session = await signInWithPasskey(client, { credentialId: passkey.id });
    expect(session.credentialId).toBe(passkey.id);
    module.fake.failNext("cancel");
    expect(await codeOf(() => signInWithPasskey(client, { credentialId: passkey.id }))).toBe(
      "WEBAUTHN_CANCELLED",
    );
  });
});
