// Test-only fakes of the React Native native modules the adapters wrap, written from each
// library's documented API (its exported functions, option objects, constants and the errors its
// native side rejects with) and the platform behaviour behind it (keychain accessibility classes,
// device lock, restore to a new device). Pure JavaScript, no Node built-ins: the Hermes suite
// bundles them in place of the real modules.

/** The device the fakes run on: lock state, passcode, platform. */
export type FakeDevice = {
  platform: "ios" | "android";
  locked: boolean;
  passcodeSet: boolean;
  /** Android: whether the Keystore has secure hardware (TEE/StrongBox). */
  secureHardware: boolean;
};

export const createFakeDevice = (overrides: Partial<FakeDevice> = {}): FakeDevice => ({
  platform: "ios",
  locked: false,
  passcodeSet: true,
  secureHardware: true,
  ...overrides,
});

/** An error as an Expo module rejects: `code` plus message (expo-modules-core's CodedError). */
function codedError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

type Accessibility =
  | "whenUnlocked"
  | "afterFirstUnlock"
  | "always"
  | "whenPasscodeSetThisDeviceOnly"
  | "whenUnlockedThisDeviceOnly"
  | "afterFirstUnlockThisDeviceOnly"
  | "alwaysThisDeviceOnly";

type Item = { value: string; accessibility: Accessibility; synced: boolean };

/** One keychain: items readable per their accessibility class (iOS kSecAttrAccessible). */
function createKeychainCore(device: FakeDevice) {
  const items = new Map<string, Item>();
  const readable = (item: Item) => {
    if (!device.locked) return true;
    return (
      item.accessibility.startsWith("afterFirstUnlock") || item.accessibility.startsWith("always")
    );
  };
  return {
    items,
    read(id: string): string | null {
      const item = items.get(id);
      if (item === undefined) return null;
      // errSecInteractionNotAllowed: the item exists but its class forbids reading now.
      if (!readable(item)) throw codedError("ERR_KEYCHAIN", "User interaction is not allowed.");
      return item.value;
    },
    write(id: string, value: string, accessibility: Accessibility, synced = false) {
      if (accessibility === "whenPasscodeSetThisDeviceOnly" && !device.passcodeSet) {
        throw codedError("ERR_KEYCHAIN", "A passcode is required to store this item.");
      }
      if (
        device.locked &&
        !accessibility.startsWith("afterFirstUnlock") &&
        !accessibility.startsWith("always")
      ) {
        throw codedError("ERR_KEYCHAIN", "User interaction is not allowed.");
      }
      items.set(id, { value, accessibility, synced });
    },
    remove(id: string) {
      items.delete(id);
    },
    /** The passcode is removed: WHEN_PASSCODE_SET items are deleted by the system. */
    removePasscode() {
      device.passcodeSet = false;
      for (const [id, item] of items)
        if (item.accessibility === "whenPasscodeSetThisDeviceOnly") items.delete(id);
    },
    /** What a restore from backup onto a new device keeps: never a THIS_DEVICE_ONLY item. */
    migrated(): Map<string, Item> {
      return new Map(
        [...items].filter(([, item]) => !item.accessibility.endsWith("ThisDeviceOnly")),
      );
    },
  };
}

// expo-secure-store's constants come from the native module; distinct numbers stand in for them.
const EXPO_ACCESSIBLE: Record<string, Accessibility> = {
  0: "afterFirstUnlock",
  1: "afterFirstUnlockThisDeviceOnly",
  2: "always",
  3: "whenPasscodeSetThisDeviceOnly",
  4: "alwaysThisDeviceOnly",
  5: "whenUnlocked",
  6: "whenUnlockedThisDeviceOnly",
};

type ExpoOptions = {
  keychainService?: string;
  keychainAccessible?: number;
  requireAuthentication?: boolean;
  authenticationPrompt?: string;
};

/** A fake `expo-secure-store` module (SDK 50+ API). */
export function createFakeSecureStore(device: FakeDevice = createFakeDevice()) {
  const keychain = createKeychainCore(device);
  const calls: { fn: string; key: string; options: ExpoOptions | undefined }[] = [];
  let authenticate = true;
  // Documented: keys are non-empty and only [A-Za-z0-9._-]; values must be strings.
  const checkKey = (key: unknown) => {
    if (typeof key !== "string" || !/^[\w.-]+$/.test(key)) {
      throw new Error(
        'Invalid key provided to SecureStore. Keys must not be empty and contain only alphanumeric characters, ".", "-", and "_".',
      );
    }
  };
  const id = (key: string, options: ExpoOptions | undefined) =>
    `${options?.keychainService ?? "app"}:${options?.requireAuthentication ? "auth:" : ""}${key}`;
  const prompt = (options: ExpoOptions | undefined) => {
    if (options?.requireAuthentication && !authenticate)
      throw codedError("ERR_KEY_CHAIN_USER_CANCELLED", "User canceled the authentication");
  };
  return {
    AFTER_FIRST_UNLOCK: 0,
    AFTER_FIRST_UNLOCK_THIS_DEVICE_ONLY: 1,
    ALWAYS: 2,
    WHEN_PASSCODE_SET_THIS_DEVICE_ONLY: 3,
    ALWAYS_THIS_DEVICE_ONLY: 4,
    WHEN_UNLOCKED: 5,
    WHEN_UNLOCKED_THIS_DEVICE_ONLY: 6,
    async getItemAsync(key: string, options?: ExpoOptions): Promise<string | null> {
      calls.push({ fn: "getItemAsync", key, options });
      checkKey(key);
      prompt(options);
      return keychain.read(id(key, options));
    },
    async setItemAsync(key: string, value: string, options?: ExpoOptions): Promise<void> {
      calls.push({ fn: "setItemAsync", key, options });
      checkKey(key);
      if (typeof value !== "string") {
        throw new Error(
          "Invalid value provided to SecureStore. Values must be strings; consider JSON-encoding your values if they are serializable.",
        );
      }
      prompt(options);
      // The library's default class is WHEN_UNLOCKED.
      const accessibility = EXPO_ACCESSIBLE[String(options?.keychainAccessible ?? 5)];
      if (accessibility === undefined) throw new Error("Invalid keychainAccessible value");
      keychain.write(id(key, options), value, accessibility);
    },
    async deleteItemAsync(key: string, options?: ExpoOptions): Promise<void> {
      calls.push({ fn: "deleteItemAsync", key, options });
      checkKey(key);
      keychain.remove(id(key, options));
    },
    /** Test handle: what was stored, and the device's events. */
    fake: {
      calls,
      items: keychain.items,
      removePasscode: keychain.removePasscode,
      migrated: keychain.migrated,
      refuseAuthentication: () => {
        authenticate = false;
      },
    },
  };
}

type KeychainOptions = {
  service?: string;
  accessible?: string;
  cloudSync?: boolean;
  securityLevel?: string;
  accessControl?: string;
};

const KEYCHAIN_ACCESSIBLE = {
  WHEN_UNLOCKED: "AccessibleWhenUnlocked",
  AFTER_FIRST_UNLOCK: "AccessibleAfterFirstUnlock",
  ALWAYS: "AccessibleAlways",
  WHEN_PASSCODE_SET_THIS_DEVICE_ONLY: "AccessibleWhenPasscodeSetThisDeviceOnly",
  WHEN_UNLOCKED_THIS_DEVICE_ONLY: "AccessibleWhenUnlockedThisDeviceOnly",
  AFTER_FIRST_UNLOCK_THIS_DEVICE_ONLY: "AccessibleAfterFirstUnlockThisDeviceOnly",
} as const;

const KEYCHAIN_CLASS: Record<string, Accessibility> = {
  AccessibleWhenUnlocked: "whenUnlocked",
  AccessibleAfterFirstUnlock: "afterFirstUnlock",
  AccessibleAlways: "always",
  AccessibleWhenPasscodeSetThisDeviceOnly: "whenPasscodeSetThisDeviceOnly",
  AccessibleWhenUnlockedThisDeviceOnly: "whenUnlockedThisDeviceOnly",
  AccessibleAfterFirstUnlockThisDeviceOnly: "afterFirstUnlockThisDeviceOnly",
};

/** A fake `react-native-keychain` module (v9/v10 API: options objects, `false` when absent). */
export function createFakeKeychain(device: FakeDevice = createFakeDevice()) {
  const keychain = createKeychainCore(device);
  const usernames = new Map<string, string>();
  const calls: { fn: string; options: KeychainOptions | undefined }[] = [];
  // The default service is the app's bundle identifier.
  const serviceOf = (options: KeychainOptions | undefined) => options?.service ?? "com.example.app";
  const storage = () => (device.platform === "ios" ? "keychain" : "KeystoreAESGCM_NoAuth");
  return {
    ACCESSIBLE: KEYCHAIN_ACCESSIBLE,
    SECURITY_LEVEL: {
      ANY: "ANY",
      SECURE_SOFTWARE: "SECURE_SOFTWARE",
      SECURE_HARDWARE: "SECURE_HARDWARE",
    },
    async setGenericPassword(username: string, password: string, options?: KeychainOptions) {
      calls.push({ fn: "setGenericPassword", options });
      if (
        device.platform === "android" &&
        options?.securityLevel === "SECURE_HARDWARE" &&
        !device.secureHardware
      ) {
        throw codedError(
          "E_CRYPTO_FAILED",
          "Cannot generate keys with required security guarantees",
        );
      }
      // The library's default class is AFTER_FIRST_UNLOCK.
      const accessibility = KEYCHAIN_CLASS[options?.accessible ?? "AccessibleAfterFirstUnlock"];
      if (accessibility === undefined) throw codedError("E_INVALID_OPTION", "Invalid accessible");
      const service = serviceOf(options);
      keychain.write(service, password, accessibility, options?.cloudSync === true);
      usernames.set(service, username);
      return { service, storage: storage() };
    },
    async getGenericPassword(options?: KeychainOptions) {
      calls.push({ fn: "getGenericPassword", options });
      const service = serviceOf(options);
      const password = keychain.read(service);
      if (password === null) return false as const;
      return { username: usernames.get(service) ?? "", password, service, storage: storage() };
    },
    async resetGenericPassword(options?: KeychainOptions) {
      calls.push({ fn: "resetGenericPassword", options });
      keychain.remove(serviceOf(options));
      return true;
    },
    fake: {
      calls,
      items: keychain.items,
      removePasscode: keychain.removePasscode,
      migrated: keychain.migrated,
    },
  };
}

/** What the fake's platform authenticator does for a ceremony: answer with JSON, or fail. */
export type FakePasskeyHost = {
  create(request: Record<string, unknown>): Promise<unknown>;
  get(request: Record<string, unknown>): Promise<unknown>;
};

/** A failure as react-native-passkeys' native side reports it on each platform. */
export type FakePasskeyFailure =
  | "cancel"
  | "notConfigured"
  | "noCredentials"
  | "interrupted"
  | "domNotAllowed"
  | "domInvalidState"
  | "domSecurity"
  | "pending"
  | "unknown"
  | "null";

function passkeyFailure(
  platform: "ios" | "android",
  failure: FakePasskeyFailure,
  op: "create" | "get",
) {
  if (platform === "ios") {
    // Expo exceptions: code ERR_ + the Swift class name, message its description.
    const ios: Partial<Record<FakePasskeyFailure, [string, string]>> = {
      cancel: [
        "ERR_USER_CANCELLED",
        "The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1001.)",
      ],
      notConfigured: [
        "ERR_NOT_CONFIGURED",
        "Application with identifier is not associated with domain",
      ],
      pending: ["ERR_PENDING_PASSKEY_REQUEST", "There is already a pending passkey request"],
      unknown: ["ERR_UNKNOWN", "An unknown exception occured"],
    };
    const [code, message] = ios[failure] ?? [
      "ERR_PASSKEY_REQUEST_FAILED",
      "The passkey request request failed",
    ];
    return codedError(code, message);
  }
  // Android: promise.reject("Passkey Create" | "Passkey Get", <Credential Manager exception kind>).
  const android: Partial<Record<FakePasskeyFailure, string>> = {
    cancel: "UserCancelled",
    notConfigured: "NotConfigured",
    noCredentials: "NoCredentials",
    interrupted: "Interrupted",
    domNotAllowed: "DomError: NotAllowedError - The operation either timed out or was not allowed.",
    domInvalidState: "DomError: InvalidStateError - The credential already exists.",
    domSecurity: "DomError: SecurityError - The incoming request cannot be validated",
    unknown: "UnknownError",
  };
  return codedError(
    op === "create" ? "Passkey Create" : "Passkey Get",
    android[failure] ?? "UnknownError",
  );
}

/** A fake `react-native-passkeys` module: `isSupported`, `create`, `get`. */
export function createFakePasskeys(host: FakePasskeyHost, device: FakeDevice = createFakeDevice()) {
  const failures: FakePasskeyFailure[] = [];
  const requests: { op: "create" | "get"; request: Record<string, unknown> }[] = [];
  let supported = true;
  const run = async (op: "create" | "get", request: Record<string, unknown>) => {
    requests.push({ op, request });
    // The native records require these (iOS reads rp.id / rpId unconditionally).
    const rpId = op === "create" ? (request.rp as { id?: unknown } | undefined)?.id : request.rpId;
    if (device.platform === "ios" && typeof rpId !== "string") {
      throw codedError("ERR_UNKNOWN", "Unexpectedly found nil while unwrapping an Optional value");
    }
    const failure = failures.shift();
    if (failure === "null") return null;
    if (failure !== undefined) throw passkeyFailure(device.platform, failure, op);
    return op === "create" ? host.create(request) : host.get(request);
  };
  return {
    isSupported: () => supported,
    isAutoFillAvalilable: () => false,
    create: (request: Record<string, unknown>) => run("create", request),
    get: (request: Record<string, unknown>) => run("get", request),
    fake: {
      requests,
      failNext: (failure: FakePasskeyFailure) => failures.push(failure),
      setSupported: (value: boolean) => {
        supported = value;
      },
    },
  };
}
