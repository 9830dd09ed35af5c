// The data Node embeds in the Hermes script (as `__SIGNET_HERMES_INPUT__`) for ./driver.ts.
export type HermesInput = {
  /**
   * `default`: the prelude installs `crypto.getRandomValues` and the driver uses the root exports;
   * `injected`: no global crypto, the driver passes a random source to `createNobleBackend`.
   */
  mode: "default" | "injected";
  /** Random bytes (hex) behind the prelude's `crypto.getRandomValues` (mode `default`). */
  randomHex: string;
  /** Random bytes (hex) for the source injected with `createNobleBackend({ randomBytes })`. */
  injectedRandomHex: string;
  payloads: string[];
  knownKey: { privateKey: string };
  signedTarget: { bundle: string; tampered: string; trustedKey: string };
  unsignedTarget: { bundle: string };
  otpCode: string;
  legacy: { bundle: string; recipientPrivateKey: string };
  exportBundle: { bundle: string; recipientPrivateKey: string; organizationId: string };
  nonceInput: string;
};
