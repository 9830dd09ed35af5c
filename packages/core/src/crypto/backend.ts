// docs/architecture.md "@signet/core" layer 1: the seam between the protocol code (stamps, bundles) and a
// crypto implementation (WebCrypto in browsers and Node, noble on React Native / Hermes).

/**
 * A stored form of a signing key. WebCrypto keys stay `CryptoKey` objects (IndexedDB keeps
 * them by structured clone, non-extractable included); noble keys are a hex scalar, which is
 * what string stores such as `expo-secure-store` hold.
 */
export type SigningKeyRecord =
  | {
      readonly type: "webcrypto";
      /** The ECDSA P-256 private key, usually non-extractable. */
      readonly privateKey: CryptoKey;
      /** Compressed public key, 66 lowercase hex. */
      readonly publicKey: string;
      /**
       * The public key as an ECDSA P-256 `verify` `CryptoKey`, kept by generated keys so that a
       * restored key's first signature is checked against `publicKey` without importing it.
       * Optional: records without it (older ones) restore through an import.
       */
      readonly verifyKey?: CryptoKey;
    }
  | {
      readonly type: "scalar";
      /** The 32-byte private scalar as 64 lowercase hex. Secret. */
      readonly privateKey: string;
      /** Compressed public key, 66 lowercase hex. */
      readonly publicKey: string;
    }
  | {
      /**
       * A key held elsewhere (a signer frame of another origin, `@signet/frame`): only the crypto
       * API that made it can use it; WebCrypto and noble refuse it with `KEY_INVALID`.
       */
      readonly type: "handle";
      /** An opaque reference the holder gave; no secret. */
      readonly handle: string;
      /** Absent: the private key never leaves its holder. */
      readonly privateKey?: undefined;
      /** Compressed public key, 66 lowercase hex. */
      readonly publicKey: string;
    };

/**
 * A P-256 signing key held by a crypto backend.
 *
 * @example
 * ```ts
 * const key = await generateSigningKey();
 * key.publicKey; // "02…" (66 hex)
 * const der = await key.sign(new TextEncoder().encode("hello"));
 * ```
 */
export interface SigningKey {
  /** Compressed public key: 66 lowercase hex (`02`/`03` ‖ X). */
  readonly publicKey: string;
  /** Uncompressed public key: 130 lowercase hex (`04` ‖ X ‖ Y). */
  readonly publicKeyUncompressed: string;
  /** Whether the private half can leave the backend (`false` for default WebCrypto keys). */
  readonly extractable: boolean;
  /** ECDSA P-256 with SHA-256 over `message`; resolves to an ASN.1 DER signature. */
  sign(message: Uint8Array): Promise<Uint8Array>;
  /** The form a `KeyStore` keeps. For `scalar` records this carries the secret: store it only. */
  toRecord(): SigningKeyRecord;
}

/** What an HPKE open needs (RFC 9180 §6.1, single shot, base mode). */
export type HpkeOpenParameters = {
  /** The sender's encapsulated key, 65 bytes uncompressed. */
  enc: Uint8Array;
  ciphertext: Uint8Array;
  info: Uint8Array;
  aad: Uint8Array;
};

/**
 * A P-256 decryption (HPKE recipient) key.
 *
 * @example
 * ```ts
 * const key = await generateDecryptionKey();
 * await exportWallet({ clientPublicKey: key.publicKeyUncompressed });
 * ```
 */
export interface DecryptionKey {
  /** Uncompressed public key: 130 lowercase hex. */
  readonly publicKeyUncompressed: string;
  /**
   * HPKE base-mode single-shot open with DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
   * @throws {SignetError} `DECRYPTION_FAILED` (wrong key, tampered data), `POINT_INVALID` (bad `enc`).
   */
  hpkeOpen(parameters: HpkeOpenParameters): Promise<Uint8Array>;
}

/** What an HPKE seal needs (RFC 9180 §6.1, single shot, base mode). */
export type HpkeSealParameters = {
  /** The recipient's public key, 65 bytes uncompressed. */
  recipientPublicKey: Uint8Array;
  plaintext: Uint8Array;
  info: Uint8Array;
  /** Additional data; a function because the service's AAD contains `enc`, known only after encapsulation. */
  aad: Uint8Array | ((enc: Uint8Array) => Uint8Array);
};

/** Options for generating a signing key. */
export type GenerateSigningKeyOptions = {
  /**
   * Let the private key be exported (WebCrypto). Default `false`: a non-extractable key cannot
   * be read by script, even by the page that made it. Noble keys are always extractable.
   */
  extractable?: boolean | undefined;
};

/**
 * The primitives Signet's protocol code runs on. `createWebCryptoBackend()` (browser and Node)
 * and `createNobleBackend()` (React Native) implement it; a custom backend (a hardware keystore,
 * a test double) can too.
 */
export interface CryptoBackend {
  /** A short name for logs and errors: `"webcrypto"`, `"noble"`. */
  readonly name: string;
  generateSigningKey(options?: GenerateSigningKeyOptions): Promise<SigningKey>;
  /** Imports a checked 32-byte scalar. */
  importSigningKey(scalar: Uint8Array, options?: GenerateSigningKeyOptions): Promise<SigningKey>;
  /**
   * Turns a stored record back into a usable key whose public key is proven to be its private
   * key's: at once, or (a private key that cannot be read) by checking its first signature before
   * `sign` returns it; a mismatch is `KEY_INVALID` either way.
   */
  restoreSigningKey(record: SigningKeyRecord): Promise<SigningKey>;
  generateDecryptionKey(): Promise<DecryptionKey>;
  /** Imports a checked 32-byte scalar. */
  importDecryptionKey(scalar: Uint8Array): Promise<DecryptionKey>;
  /**
   * ECDSA P-256 SHA-256 verification of a 64-byte P1363 `r ‖ s` signature; high-S accepted.
   * Resolves `false` for any signature that does not verify; `publicKey` is 65 bytes, validated.
   */
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean>;
  /** HPKE seal with a fresh ephemeral key. */
  hpkeSeal(parameters: HpkeSealParameters): Promise<{ enc: Uint8Array; ciphertext: Uint8Array }>;
  sha256(data: Uint8Array): Promise<Uint8Array>;
  randomBytes(length: number): Uint8Array;
  /**
   * Starts loading the code that rarer operations need (HPKE, export), so that no request waits
   * for it later. Optional; never throws.
   */
  preload?(): void;
}
