// Wire shapes of the service as they travel through the relay (docs/protocol.md,
// "Resources and their fields"; docs/protocol.md §3). Clients ignore unknown fields, so every
// shape is open, and enum-like strings stay `string` next to the known values.

/** Credential types of an Embedded Wallet. */
export type CredentialType = "EMAIL_OTP" | "SMS_OTP" | "OAUTH" | "PASSKEY";

/** A credential (`AuthMethod`). */
export type AuthMethodJson = {
  id: string;
  accountId: string;
  type: CredentialType | (string & {});
  nickname: string;
  /** PASSKEY only: the WebAuthn credential id, base64url. */
  credentialId?: string;
  /** OTP types: on challenge and on registration. */
  otpEncryptionTargetBundle?: string;
  createdAt: string;
  updatedAt: string;
};

/** A session (`AuthSession`). It does not name the credential that issued it. */
export type AuthSessionJson = {
  id: string;
  accountId: string;
  type: CredentialType | (string & {});
  nickname: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  /** Legacy flow only (uncompressed `clientPublicKey`). */
  encryptedSessionSigningKey?: string;
};

/** The passkey `/challenge` answer (`PasskeyAuthChallenge`). */
export type PasskeyAuthChallengeJson = AuthMethodJson & {
  credentialId: string;
  /** 64 lowercase hex: SHA-256 of a session-creation body the client never sees. */
  challenge: string;
  requestId: string;
  expiresAt: string;
};

export type DelegatedKeyStatus = "PENDING" | "ACTIVE" | "REVOKED";

/** A delegated signing key of a card funding source. */
export type DelegatedKeyJson = {
  id: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  /** Compressed public key, 66 hex. */
  publicKey: string;
  nickname: string;
  status: DelegatedKeyStatus | (string & {});
  createdAt: string;
  updatedAt: string;
};

export type CurrencyJson = { code: string; name?: string; symbol?: string; decimals: number };

export type PaymentInstructionJson = {
  instructionsNotes?: string;
  accountOrWalletInfo: { accountType: string; payloadToSign?: string; [field: string]: unknown };
};

/** A quote, as created and executed. */
export type QuoteJson = {
  id: string;
  status: string;
  createdAt?: string;
  expiresAt?: string;
  source?: { sourceType?: string; accountId?: string; customerId?: string };
  destination?: { destinationType?: string; accountId?: string };
  sendingCurrency?: CurrencyJson;
  receivingCurrency?: CurrencyJson;
  totalSendingAmount?: number;
  totalReceivingAmount?: number;
  feesIncluded?: number;
  transactionId?: string;
  paymentInstructions?: PaymentInstructionJson[];
};

/** A transaction; only the fields Signet reads are named. */
export type TransactionJson = { id: string; status: string; [field: string]: unknown };

/** A customer; only the fields Signet reads or changes are named. */
export type CustomerJson = {
  id: string;
  email?: string;
  phoneNumber?: string;
  [field: string]: unknown;
};

/** An internal account. */
export type InternalAccountJson = {
  id: string;
  customerId?: string;
  type: string;
  status: string;
  balance?: { amount: number; currency: CurrencyJson };
  [field: string]: unknown;
};
