// The emulator's in-memory records. Times are epoch milliseconds of the emulator clock;
// JSON shapes are produced by each resource file.
import type { P256KeyPair } from "./crypto/index.js";

/** A currency object as the service writes it. */
export type Currency = { code: string; name: string; symbol?: string; decimals: number };

/** A customer; `fields` holds the validated customer fields as sent. */
export interface CustomerRecord {
  id: string;
  fields: Record<string, unknown>;
  /** The email and phone number as they were when verified (contact verification). */
  verified: { email?: string; phone?: string };
  createdAt: number;
  updatedAt: number;
}

/** An internal account (the emulator provisions `EMBEDDED_WALLET` accounts). */
export interface InternalAccountRecord {
  id: string;
  customerId: string;
  type: "EMBEDDED_WALLET";
  status: "ACTIVE" | "FROZEN";
  currency: Currency;
  /** Balance in the currency's smallest unit. */
  balance: number;
  /** The wallet's BIP-39 mnemonic, stable for the account's life (returned only by export). */
  mnemonic: string;
  /** Wallet privacy (`PATCH /internal-accounts/{id}`). */
  privateEnabled: boolean;
  createdAt: number;
  updatedAt: number;
}

/**
 * One of the platform's own internal accounts (`GET /platform/internal-accounts`): one per
 * currency, no customer, no wallet; kept apart from the wallets so that no wallet endpoint
 * ever sees one.
 */
export interface PlatformAccountRecord {
  id: string;
  customerId: undefined;
  type: "INTERNAL_FIAT" | "INTERNAL_CRYPTO";
  status: "ACTIVE";
  currency: Currency;
  /** Balance in the currency's smallest unit. */
  balance: number;
  createdAt: number;
  updatedAt: number;
}

/** Any account that holds a balance. */
export type BalanceAccount = InternalAccountRecord | PlatformAccountRecord;

/** An external account (the platform's own when `customerId` is `undefined`). */
export interface ExternalAccountRecord {
  id: string;
  customerId: string | undefined;
  currency: string;
  platformAccountId: string | undefined;
  ownershipType: string | undefined;
  defaultUmaDepositAccount: boolean | undefined;
  accountInfo: Record<string, unknown>;
  status: "ACTIVE";
  createdAt: number;
  updatedAt: number;
  /** A trusted beneficiary of its SCA customer: sends to it skip the per-transaction SCA. */
  trusted?: boolean;
  /** The trust or untrust started and not confirmed yet, with its SCA challenge. */
  trustChange?: { trusted: boolean; challenge: ScaChallengeRecord };
}

/** Credential types. */
export type CredentialType = "PASSKEY" | "OAUTH" | "EMAIL_OTP" | "SMS_OTP";

/** A registered credential (AuthMethod). */
export interface CredentialRecord {
  id: string;
  accountId: string;
  type: CredentialType;
  nickname: string;
  createdAt: number;
  updatedAt: number;
  /** PASSKEY: the WebAuthn credential. */
  passkey?: { credentialId: string; publicKey: Uint8Array; counter: number; transports?: string[] };
  /** OAUTH: the registered identity. */
  oauth?: { iss: string; aud: string; sub: string };
  /** OTP types: the current enclave target key; a new challenge replaces it and the old one dies. */
  otpTarget?: P256KeyPair | null;
}

/** A wallet session: its public key signs stamps until `expiresAt` or revocation. */
export interface SessionRecord {
  id: string;
  accountId: string;
  /** The AuthMethod that issued it. */
  credentialId: string;
  type: CredentialType;
  nickname: string;
  /** Compressed lowercase hex. */
  publicKey: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** A signed-retry request waiting for its stamped retry. */
export interface PendingRequest {
  id: string;
  method: string;
  path: string;
  body: Uint8Array;
  operation: string;
  payloadToSign: string;
  expiresAt: number;
  consumed: boolean;
  /** Per-operation state carried from the leg that issued the challenge. */
  data: unknown;
  /**
   * A signed send passed its checks and was answered PROCESSING: the operation is submitted and
   * not settled (the service's #853 calls an OTP credential add in that state "in flight").
   */
  submitted?: boolean;
  /**
   * The operation settled by itself after a PROCESSING answer (the emulator's webhooks on): the
   * answer the next verified re-send collects.
   */
  settled?: { status: number; headers: [string, string][]; body: Uint8Array };
  /** The stamp of the signed send answered PROCESSING: a re-send is byte-identical, stamp included. */
  stamp?: string;
}

/** A contact change (the service's #853): one field, its new value, its state. */
export interface ContactChangeRecord {
  id: string;
  customerId: string;
  type: "EMAIL" | "PHONE";
  value: string;
  status: "AWAITING_SIGNATURE" | "PROCESSING" | "APPLIED" | "FAILED" | "EXPIRED" | "CANCELLED";
  /** Kept after the submit (PROCESSING), shown only while AWAITING_SIGNATURE. */
  payloadToSign?: string;
  expiresAt?: number;
  failureReason?: string;
  /** The tied OTP credentials bound at create, and their wallets (whose sessions may stamp). */
  credentialIds: string[];
  accountIds: string[];
  createdAt: number;
  updatedAt: number;
}

/** A passkey sign-in challenge issued by `/challenge`, answered on `/verify`. */
export interface PasskeyChallengeRecord {
  requestId: string;
  credentialId: string;
  clientPublicKey: string;
  challenge: string;
  expiresAt: number;
  consumed: boolean;
}

/** SCA factors (docs/protocol.md §9). */
export type ScaFactor = "SMS_OTP" | "TOTP" | "PASSKEY";

/** The Strong Customer Authentication challenge a quote waits on now. */
export interface ScaChallengeRecord {
  id: string;
  factor: "SMS_OTP" | "PASSKEY";
  availableFactors: ScaFactor[];
  /** Omitted when the payment takes a single authorization. */
  purpose: string | undefined;
  expiresAt: number;
  /** PASSKEY: the WebAuthn challenge (base64url) and the customer's passkeys it allows. */
  passkey?: { challenge: string; credentialIds: string[] };
  /** Emulator times of recent resends (rate limited). */
  resends: number[];
  /** Refused proofs for this challenge. */
  failures: number;
}

/** The authorizations a quote still needs, in order, and the challenge of the current one. */
export interface ScaProgress {
  /** Purposes still to authorize after the current challenge. */
  remaining: string[];
  challenge: ScaChallengeRecord;
  /** The `endUserIpAddress` of each accepted authorization, as sent (or `null`). */
  endUserIpAddresses: (string | null)[];
}

/**
 * How a quote is funded (docs/protocol.md §12): `WALLET` executes with a wallet stamp,
 * `PLATFORM` (a platform internal account) executes without one, `INSTRUCTIONS` (an external
 * account or real-time funding) waits `PENDING` for the funds its payment instructions ask for
 * (`POST /sandbox/send` in the sandbox).
 */
export type QuoteFunding = "WALLET" | "PLATFORM" | "INSTRUCTIONS";

/** A quote. */
export interface QuoteRecord {
  id: string;
  status: "PENDING" | "PENDING_AUTHORIZATION" | "PROCESSING" | "COMPLETED";
  /** The customer it is for (for a platform-only movement, the platform's organization id). */
  customerId: string;
  funding: QuoteFunding;
  /** The source as the Quote states it (`ACCOUNT` with `accountId`, or `REALTIME_FUNDING`). */
  source: Record<string, unknown>;
  /** The account debited at execute or funded by instructions (an InternalAccount or ExternalAccount id), or `""` for real-time funding. */
  sourceAccountId: string;
  destination: { destinationType: "ACCOUNT"; accountId: string };
  sendingCurrency: Currency;
  receivingCurrency: Currency;
  totalSendingAmount: number;
  totalReceivingAmount: number;
  exchangeRate: number;
  description: string | undefined;
  /** `""` unless the source is a wallet. */
  payloadToSign: string;
  createdAt: number;
  expiresAt: number;
  transactionId: string | undefined;
  /** Terminal execute answers by `Idempotency-Key` (replayed verbatim), with the stamp's key. */
  executions: Map<
    string,
    { status: number; body: unknown; signedBy: string; scaFactor: "SMS_OTP" | "PASSKEY" }
  >;
  /** The key of the execute that succeeded, or `""` when it had none. */
  executedWithKey: string | undefined;
  /** The factor the execute asked for (its body's `scaFactor`, default `SMS_OTP`). */
  scaFactor: "SMS_OTP" | "PASSKEY";
  /** Set while the quote is `PENDING_AUTHORIZATION`; kept (challenge done) afterwards. */
  sca: ScaProgress | undefined;
}

/** A money movement. */
export interface TransactionRecord {
  id: string;
  type: "OUTGOING" | "INCOMING";
  customerId: string;
  quoteId: string | undefined;
  sourceAccountId: string | undefined;
  /** The Transaction's `source` when it is not `{ sourceType: "ACCOUNT", accountId: sourceAccountId }`. */
  source?: Record<string, unknown>;
  destinationAccountId: string;
  currency: Currency;
  amount: number;
  receivedCurrency: Currency;
  receivedAmount: number;
  createdAt: number;
  settlesAt: number;
  /** Whether settlement has been applied (the destination credited). */
  settled: boolean;
  /** Held until the customer's SCA authorizations release it (`settlesAt` is set then). */
  pendingAuthorization: boolean;
  description: string | undefined;
}

/** A card and its ordered funding sources. */
export interface CardRecord {
  id: string;
  cardholderId: string;
  state: "ACTIVE" | "FROZEN" | "CLOSED";
  currency: string;
  fundingSources: { id: string; internalAccountId: string }[];
  maxSpendPerTransaction: number | null;
  maxSpendPerDay: number | null;
  platformCardId: string | undefined;
  createdAt: number;
  updatedAt: number;
}

/** A delegated signing key of a card funding source. */
export interface DelegatedKeyRecord {
  id: string;
  cardId: string;
  fundingSourceId: string;
  accountId: string;
  publicKey: string;
  nickname: string;
  status: "PENDING" | "ACTIVE" | "REVOKED";
  createdAt: number;
  updatedAt: number;
}

/** Everything the emulator remembers; `reset` replaces it with a fresh one. */
export interface EmulatorState {
  customers: Map<string, CustomerRecord>;
  accounts: Map<string, InternalAccountRecord>;
  /** The platform's accounts, made on first use (their ids derive from the organization id). */
  platformAccounts: Map<string, PlatformAccountRecord>;
  externalAccounts: Map<string, ExternalAccountRecord>;
  credentials: Map<string, CredentialRecord>;
  sessions: Map<string, SessionRecord>;
  pending: Map<string, PendingRequest>;
  passkeyChallenges: Map<string, PasskeyChallengeRecord>;
  quotes: Map<string, QuoteRecord>;
  transactions: Map<string, TransactionRecord>;
  cards: Map<string, CardRecord>;
  delegatedKeys: Map<string, DelegatedKeyRecord>;
  /** Emulator times of recent OTP challenge issues, per credential. */
  challengeIssues: Map<string, number[]>;
  /** Emulator times of recent failed OTP verifies, per credential. */
  otpFailures: Map<string, number[]>;
  /** Failed SCA proofs and login events per customer, and the lock they lead to. */
  scaLogins: Map<string, ScaLockRecord>;
  /** The SCA factors each customer enrolled (TOTP, one passkey), by customer. */
  scaFactors: Map<string, ScaFactorsRecord>;
  /** A passkey enrolment started and not confirmed yet, by customer. */
  scaEnrollments: Map<string, { challenge: string; expiresAt: number }>;
  /** SCA factor resets (`/sca/factors/reset`), by reset id. */
  scaResets: Map<string, ScaResetRecord>;
  /** When each customer started a factor reset (the service allows 5 per 24 hours). */
  scaResetStarts: Map<string, number[]>;
  /** The SCA login started and not completed yet, by customer. */
  scaLoginStarts: Map<string, ScaLoginStartRecord>;
  /** When each customer's SCA session ends (emulator time), by customer. */
  scaSessions: Map<string, number>;
  /** Contact verification codes sent and not confirmed yet, by `<customerId> email|phone`. */
  contactCodes: Map<string, number>;
  /** Contact changes (#853), by id. */
  contactChanges: Map<string, ContactChangeRecord>;
}

/** A factor reset (TwoFactorResetStatus): the factor, when it started, ends and completed. */
export interface ScaResetRecord {
  id: string;
  customerId: string;
  factor: ScaFactor;
  startedAt: number;
  expiresAt: number;
  /** When the liveness review passes (emulator time), or `undefined` once rejected. */
  passesAt: number;
  completedAt: number | undefined;
}

/** A customer's failed SCA attempts and lock (docs/protocol.md §13). */
export interface ScaLockRecord {
  failedAttempts: number;
  lockedUntil: number | undefined;
  suspended: boolean;
}

/** A customer's enrolled SCA factors beside the implicit SMS_OTP. */
export interface ScaFactorsRecord {
  /** The enrolled TOTP factor's shared secret (RFC 6238), once confirmed. */
  totp: { secret: Uint8Array } | undefined;
  passkey:
    | {
        credentialId: string;
        publicKey: Uint8Array;
        counter: number;
        transports?: string[];
        name?: string;
      }
    | undefined;
}

/** A started SCA login. */
export interface ScaLoginStartRecord {
  factor: ScaFactor;
  challengeId: string | undefined;
  /** PASSKEY: the WebAuthn challenge (base64url). */
  passkeyChallenge: string | undefined;
  expiresAt: number;
}

/** An empty state. */
export function createState(): EmulatorState {
  return {
    customers: new Map(),
    accounts: new Map(),
    platformAccounts: new Map(),
    externalAccounts: new Map(),
    credentials: new Map(),
    sessions: new Map(),
    pending: new Map(),
    passkeyChallenges: new Map(),
    quotes: new Map(),
    transactions: new Map(),
    cards: new Map(),
    delegatedKeys: new Map(),
    challengeIssues: new Map(),
    otpFailures: new Map(),
    scaLogins: new Map(),
    scaFactors: new Map(),
    scaEnrollments: new Map(),
    scaLoginStarts: new Map(),
    scaResets: new Map(),
    scaResetStarts: new Map(),
    scaSessions: new Map(),
    contactCodes: new Map(),
    contactChanges: new Map(),
  };
}
