// WebAuthn Level 3 JSON serialisations (https://www.w3.org/TR/webauthn-3/#sctn-parseCreationOptionsFromJSON),
// the wire shapes a `WebAuthnProvider` takes and returns. base64url strings, no padding.

export type Base64UrlString = string;

export type AuthenticatorTransportJSON =
  | "ble"
  | "cable"
  | "hybrid"
  | "internal"
  | "nfc"
  | "smart-card"
  | "usb";

export type PublicKeyCredentialDescriptorJSON = {
  id: Base64UrlString;
  type: "public-key";
  transports?: AuthenticatorTransportJSON[];
};

/** Options for `navigator.credentials.create()`, JSON-serialised. */
export type RegistrationOptionsJSON = {
  rp: { id?: string; name: string };
  user: { id: Base64UrlString; name: string; displayName: string };
  challenge: Base64UrlString;
  pubKeyCredParams: { type: "public-key"; alg: number }[];
  timeout?: number;
  excludeCredentials?: PublicKeyCredentialDescriptorJSON[];
  authenticatorSelection?: {
    authenticatorAttachment?: "platform" | "cross-platform";
    residentKey?: "discouraged" | "preferred" | "required";
    requireResidentKey?: boolean;
    userVerification?: "discouraged" | "preferred" | "required";
  };
  attestation?: "none" | "indirect" | "direct" | "enterprise";
};

/** Options for `navigator.credentials.get()`, JSON-serialised. */
export type AuthenticationOptionsJSON = {
  challenge: Base64UrlString;
  timeout?: number;
  rpId?: string;
  allowCredentials?: PublicKeyCredentialDescriptorJSON[];
  userVerification?: "discouraged" | "preferred" | "required";
};

/** The result of a registration ceremony, JSON-serialised. */
export type RegistrationResponseJSON = {
  id: Base64UrlString;
  rawId: Base64UrlString;
  type: "public-key";
  response: {
    clientDataJSON: Base64UrlString;
    attestationObject: Base64UrlString;
    transports?: string[];
  };
  authenticatorAttachment?: string | null;
  clientExtensionResults?: Record<string, unknown>;
};

/** The result of an authentication ceremony, JSON-serialised. */
export type AuthenticationResponseJSON = {
  id: Base64UrlString;
  rawId: Base64UrlString;
  type: "public-key";
  response: {
    clientDataJSON: Base64UrlString;
    authenticatorData: Base64UrlString;
    signature: Base64UrlString;
    userHandle?: Base64UrlString | null;
  };
  authenticatorAttachment?: string | null;
  clientExtensionResults?: Record<string, unknown>;
};

/**
 * The WebAuthn seam of a Signet client. The browser default runs `navigator.credentials`
 * (`createBrowserWebAuthn`); React Native passes an adapter over `react-native-passkeys`;
 * Node tests pass a software authenticator.
 *
 * Implementations throw `SignetError` with a `WEBAUTHN_*` code (see `toWebAuthnError`).
 */
export type WebAuthnProvider = {
  register(options: RegistrationOptionsJSON): Promise<RegistrationResponseJSON>;
  authenticate(
    options: AuthenticationOptionsJSON,
    extras?: AuthenticateExtras,
  ): Promise<AuthenticationResponseJSON>;
  /**
   * Starts loading whatever the ceremonies need, so that a later tap opens the prompt without
   * waiting (iOS Safari drops the prompt after slow asynchronous work). Optional; never throws.
   */
  preload?(): void;
};

/** How an authentication ceremony is shown. */
export type AuthenticateExtras = {
  /**
   * Offer the passkey in the browser's autofill (WebAuthn conditional mediation) instead of a
   * modal prompt. The page needs an `<input autocomplete="username webauthn">`.
   */
  autofill?: boolean | undefined;
};
