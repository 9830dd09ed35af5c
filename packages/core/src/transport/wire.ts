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

/** Quote statuses (docs/protocol.md §9); a newer service may add more. */
export type QuoteStatus =
  | "PENDING"
  | "PENDING_AUTHORIZATION"
  | "PROCESSING"
  | "COMPLETED"
  | "FAILED"
  | "EXPIRED";

/** Transaction statuses (docs/protocol.md §9); a newer service may add more. */
export type TransactionStatus =
  | "CREATED"
  | "PENDING"
  | "PENDING_AUTHORIZATION"
  | "PROCESSING"
  | "COMPLETED"
  | "REJECTED"
  | "FAILED"
  | "REFUNDED"
  | "EXPIRED";

/** A Strong Customer Authentication factor. `TOTP` never answers a per-payment challenge. */
export type ScaFactor = "SMS_OTP" | "TOTP" | "PASSKEY";

/**
 * The Strong Customer Authentication challenge to satisfy now (docs/protocol.md §9). A payment
 * can need several in a row; each has its own `id`.
 */
export type ScaChallengeJson = {
  /** `ScaChallenge:<uuid>`, for logs and correlation only. */
  id: string;
  expiresAt: string;
  factor: ScaFactor | (string & {});
  availableFactors: (ScaFactor | (string & {}))[];
  /**
   * What this step authorizes (`CURRENCY_CONVERSION`, `PAYOUT`, `TRANSFER`, more may come): a
   * label for the screen, never a branch in program logic.
   */
  purpose?: string | null;
  /** PASSKEY only: WebAuthn request options, handed to the authenticator as they are. */
  passkeyAssertionOptions?: Record<string, unknown> | null;
  /** The origins a passkey ceremony may run on, when the service names them. */
  passkeyAllowedOrigins?: string[] | null;
};

/** A quote, as created and executed. */
export type QuoteJson = {
  id: string;
  status: QuoteStatus | (string & {});
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
  /** Present while the quote is `PENDING_AUTHORIZATION` (docs/protocol.md §9). */
  scaChallenge?: ScaChallengeJson;
};

/** A quote that waits for the customer's Strong Customer Authentication (docs/protocol.md §9). */
export type PendingAuthorizationQuoteJson = QuoteJson & {
  status: "PENDING_AUTHORIZATION";
  scaChallenge: ScaChallengeJson;
};

/** A quote whose transfer has started (or ended): no authorization is pending. */
export type ExecutedQuoteJson = QuoteJson & {
  status: Exclude<QuoteStatus, "PENDING_AUTHORIZATION">;
  scaChallenge?: undefined;
};

/** A transaction; only the fields Signet reads are named. */
export type TransactionJson = {
  id: string;
  status: TransactionStatus | (string & {});
  [field: string]: unknown;
};

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
