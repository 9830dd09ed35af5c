// The data the Node driver embeds in each Hermes run (as `__SIGNET_HERMES_INPUT__`), read by the
// app and by the stand-ins of its native modules (./native).

/** One answered I/O call: a relay response or a native passkey result. */
export type IoAnswer = {
  kind: "fetch" | "passkey.create" | "passkey.get";
  /** The virtual time (ms) at which the answer arrived. */
  at: number;
  response: unknown;
};

/** What a keychain held across app restarts: `[id, item]` pairs of the fakes' keychain. */
export type PersistedItems = [string, { value: string; accessibility: string; synced: boolean }][];

export type FlowScenario = "otp" | "passkey" | "quote" | "refreshSwapped" | "refresh" | "noRandom";

export type FlowInput = {
  scenario: FlowScenario;
  /** Virtual time at app start. */
  startedAt: number;
  /** Seed of Math.random (jitter). */
  seed: number;
  /** Bytes (hex) behind react-native-get-random-values; empty: the app has no random source. */
  randomHex: string;
  /** Bytes (hex) behind expo-crypto's getRandomBytes. */
  expoRandomHex: string;
  io: IoAnswer[];
  /** The device's keychain contents at app start (what earlier runs of the app left). */
  keychain: PersistedItems;
  secureStore: PersistedItems;
  params: {
    relayUrl: string;
    customerId: string;
    accountId: string;
    emailCredentialId: string;
    trustedKeys: { otpTargetBundle: string[]; exportBundle: string[] };
    rpId: string;
    quoteId?: string;
    passkey?: {
      challenge: string;
      rp: { id: string; name: string };
      user: { id: string; name: string; displayName: string };
    };
  };
};

export const input = (globalThis as unknown as { __SIGNET_HERMES_INPUT__: FlowInput })
  .__SIGNET_HERMES_INPUT__;

/** Asks the driver (see ../flow-prelude.js); resolves with the recorded answer on replay. */
export const io = (
  globalThis as unknown as {
    __signetIo: (kind: IoAnswer["kind"], request: unknown) => Promise<unknown>;
  }
).__signetIo;

/** A random source handing out `hex` once, byte by byte; running out throws. */
export function pool(hex: string): (length: number) => Uint8Array {
  let offset = 0;
  return (length) => {
    if (offset + length * 2 > hex.length) throw new Error("the injected random pool ran out");
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++, offset += 2)
      out[i] = parseInt(hex.slice(offset, offset + 2), 16);
    return out;
  };
}
