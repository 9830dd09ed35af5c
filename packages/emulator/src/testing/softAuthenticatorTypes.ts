// The shapes of the software authenticator (./softAuthenticator.ts): WebAuthn's JSON
// serialisations, the credentials it holds, and its options.
import type { KeyObject } from "node:crypto";

/** base64url without padding, as every WebAuthn JSON field carries bytes. */
export type Base64UrlString = string;

/** A credential descriptor in `excludeCredentials` / `allowCredentials`. */
export type CredentialDescriptorJSON = {
  id: Base64UrlString;
  type: string;
  transports?: readonly string[];
};

/**
 * The fields of `PublicKeyCredentialCreationOptionsJSON` this authenticator reads. Both
 * SimpleWebAuthn's type and `@signet/core`'s `RegistrationOptionsJSON` are assignable to it.
 */
export type CreationOptionsJSON = {
  rp: { id?: string; name: string };
  user: { id: Base64UrlString; name: string; displayName: string };
  challenge: Base64UrlString;
  pubKeyCredParams: readonly { type: string; alg: number }[];
  excludeCredentials?: readonly CredentialDescriptorJSON[];
  authenticatorSelection?: { userVerification?: string; residentKey?: string };
};

/** The fields of `PublicKeyCredentialRequestOptionsJSON` this authenticator reads. */
export type RequestOptionsJSON = {
  challenge: Base64UrlString;
  rpId?: string;
  allowCredentials?: readonly CredentialDescriptorJSON[];
  userVerification?: string;
};

/** `RegistrationResponseJSON`, as `@simplewebauthn/browser`'s `startRegistration()` returns it. */
export type SoftRegistrationResponseJSON = {
  id: Base64UrlString;
  rawId: Base64UrlString;
  type: "public-key";
  response: {
    clientDataJSON: Base64UrlString;
    attestationObject: Base64UrlString;
    authenticatorData: Base64UrlString;
    transports: "internal"[];
    publicKeyAlgorithm: -7;
    publicKey: Base64UrlString;
  };
  authenticatorAttachment: "platform";
  clientExtensionResults: Record<string, never>;
};

/** `AuthenticationResponseJSON`, as `@simplewebauthn/browser`'s `startAuthentication()` returns it. */
export type SoftAuthenticationResponseJSON = {
  id: Base64UrlString;
  rawId: Base64UrlString;
  type: "public-key";
  response: {
    clientDataJSON: Base64UrlString;
    authenticatorData: Base64UrlString;
    signature: Base64UrlString;
    userHandle: Base64UrlString;
  };
  authenticatorAttachment: "platform";
  clientExtensionResults: Record<string, never>;
};

/** One credential held by the authenticator (a snapshot; mutate through the authenticator). */
export type SoftCredential = {
  /** Credential ID, base64url. */
  readonly id: Base64UrlString;
  readonly rpId: string;
  /** `user.id` from registration, base64url; returned as `userHandle` on assertion. */
  readonly userHandle: Base64UrlString;
  readonly userName: string;
  /** The COSE_Key (EC2, ES256, P-256) as a relying party stores it. */
  readonly publicKey: Uint8Array;
  /** The same key as uncompressed SEC1 bytes (`04 ‖ X ‖ Y`). */
  readonly publicKeyUncompressed: Uint8Array;
  readonly privateKey: KeyObject;
  /** The counter value of the last ceremony. */
  readonly signCount: number;
};

/** Per-ceremony deviations, for negative tests. */
export type CeremonyOverrides = {
  /** The origin written into clientDataJSON (no RP ID check against it is made). */
  origin?: string;
  /** The RP ID whose SHA-256 goes into authenticatorData (default: the requested RP ID). */
  rpIdHashOf?: string;
  userVerified?: boolean;
  userPresent?: boolean;
  /** Sets clientDataJSON `type` (default `webauthn.create` / `webauthn.get`). */
  clientDataType?: string;
  /** Forces the counter reported by this ceremony (the stored counter follows it). */
  signCount?: number;
};

export type SoftAuthenticatorOptions = {
  /** The RP ID used when the options name none. Default `"localhost"`. */
  rpId?: string;
  /** The origin of the "page" running the ceremonies. Default `"http://localhost:5173"`. */
  origin?: string;
  /** Whether ceremonies report user verification (flag UV). Default `true`. */
  userVerified?: boolean;
  /** Whether ceremonies report user presence (flag UP). Default `true`. */
  userPresent?: boolean;
  /** Backup eligibility / state (flags BE, BS), as a synced passkey has. Default `true` / `true`. */
  backupEligible?: boolean;
  backedUp?: boolean;
  /** `"increment"` (default): 0 at registration, +1 per assertion; `"zero"`: always 0, like iCloud Keychain. */
  signCount?: "increment" | "zero";
  /** 16 bytes. Default all zeros, as attestation "none" reports. */
  aaguid?: Uint8Array;
  /** Length of new credential IDs in bytes. Default 32. */
  credentialIdLength?: number;
};

/**
 * `@signet/core`'s `WebAuthnProvider` shape. Failures are `DOMException`s named as the browser
 * names them (`NotAllowedError`, `InvalidStateError`, `SecurityError`, `NotSupportedError`),
 * so that core's DOM-error mapping is exercised.
 */
export type SoftWebAuthnProvider = {
  register(options: CreationOptionsJSON): Promise<SoftRegistrationResponseJSON>;
  authenticate(options: RequestOptionsJSON): Promise<SoftAuthenticationResponseJSON>;
};

export type SoftAuthenticator = {
  readonly rpId: string;
  readonly origin: string;
  /** Runs `navigator.credentials.create()` for the options. */
  createCredential(
    options: CreationOptionsJSON,
    overrides?: CeremonyOverrides,
  ): Promise<SoftRegistrationResponseJSON>;
  /** Runs `navigator.credentials.get()` for the options. */
  getAssertion(
    options: RequestOptionsJSON,
    overrides?: CeremonyOverrides,
  ): Promise<SoftAuthenticationResponseJSON>;
  /** Snapshots of the credentials held, oldest first. */
  readonly credentials: readonly SoftCredential[];
  getCredential(id: Base64UrlString): SoftCredential | undefined;
  /** Forgets a credential (the user deleted the passkey). Returns whether it existed. */
  removeCredential(id: Base64UrlString): boolean;
  /** Makes the next ceremony fail with a `DOMException` of that name (default `NotAllowedError`: the user cancelled). */
  failNext(name?: string, message?: string): void;
  /** The same authenticator as a `WebAuthnProvider` for a Signet client. */
  readonly provider: SoftWebAuthnProvider;
};
