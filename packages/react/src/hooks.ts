"use client";
// One thin hook per @signet/core action: mutations for what changes state, queries for reads.
// Each is a few lines over the action; the logic lives in core.
import {
  type AddCredentialErrorType,
  type AddCredentialParameters,
  type AddCredentialReturnType,
  type AddPasskeyErrorType,
  type AddPasskeyParameters,
  type AddPasskeyReturnType,
  addCredential,
  addPasskey,
  type ConfirmContactVerificationErrorType,
  type ConfirmContactVerificationParameters,
  type ConfirmContactVerificationReturnType,
  type CreateDelegatedKeyErrorType,
  type CreateDelegatedKeyParameters,
  type CreateDelegatedKeyReturnType,
  confirmContactVerification,
  createDelegatedKey,
  type DeleteScaFactorErrorType,
  type DeleteScaFactorParameters,
  type DeleteScaFactorReturnType,
  deleteScaFactor,
  type EnrollScaPasskeyErrorType,
  type EnrollScaPasskeyParameters,
  type EnrollScaPasskeyReturnType,
  type ExportWalletErrorType,
  type ExportWalletParameters,
  type ExportWalletReturnType,
  enrollScaPasskey,
  exportWallet,
  type GetDelegatedKeyErrorType,
  type GetDelegatedKeyParameters,
  type GetDelegatedKeyReturnType,
  type GetQuoteErrorType,
  type GetQuoteParameters,
  type GetQuoteReturnType,
  type ListCredentialsErrorType,
  type ListCredentialsParameters,
  type ListCredentialsReturnType,
  type ListDelegatedKeysErrorType,
  type ListDelegatedKeysParameters,
  type ListDelegatedKeysReturnType,
  type ListInternalAccountsErrorType,
  type ListInternalAccountsParameters,
  type ListInternalAccountsReturnType,
  type ListScaFactorsErrorType,
  type ListScaFactorsParameters,
  type ListScaFactorsReturnType,
  type ListSessionsErrorType,
  type ListSessionsParameters,
  type ListSessionsReturnType,
  type ListTransactionsErrorType,
  type ListTransactionsParameters,
  type ListTransactionsReturnType,
  type PreparePasskeySignInErrorType,
  type PreparePasskeySignInParameters,
  type PreparePasskeySignInReturnType,
  preparePasskeySignIn,
  type RecordSecurityEventErrorType,
  type RecordSecurityEventParameters,
  type RecordSecurityEventReturnType,
  type RefreshSessionErrorType,
  type RefreshSessionParameters,
  type RefreshSessionReturnType,
  type RequestOtpErrorType,
  type RequestOtpParameters,
  type RequestOtpReturnType,
  type RevokeCredentialErrorType,
  type RevokeCredentialParameters,
  type RevokeCredentialReturnType,
  type RevokeDelegatedKeyErrorType,
  type RevokeDelegatedKeyParameters,
  type RevokeDelegatedKeyReturnType,
  type RevokeSessionErrorType,
  type RevokeSessionParameters,
  type RevokeSessionReturnType,
  recordSecurityEvent,
  refreshSession,
  requestOtp,
  revokeCredential,
  revokeDelegatedKey,
  revokeSession,
  type ScaLoginErrorType,
  type ScaLoginParameters,
  type ScaLoginReturnType,
  type SignInWithOAuthErrorType,
  type SignInWithOAuthParameters,
  type SignInWithOAuthReturnType,
  type SignInWithPasskeyErrorType,
  type SignInWithPasskeyParameters,
  type SignInWithPasskeyReturnType,
  type SignOutErrorType,
  type SignOutParameters,
  type SignOutReturnType,
  type StartContactVerificationErrorType,
  type StartContactVerificationParameters,
  type StartContactVerificationReturnType,
  scaLogin,
  signInWithOAuth,
  signInWithPasskey,
  signOut,
  startContactVerification,
  type UpdateCustomerContactErrorType,
  type UpdateCustomerContactParameters,
  type UpdateCustomerContactReturnType,
  type UpdateWalletPrivacyErrorType,
  type UpdateWalletPrivacyParameters,
  type UpdateWalletPrivacyReturnType,
  updateCustomerContact,
  updateWalletPrivacy,
  type VerifyOtpErrorType,
  type VerifyOtpParameters,
  type VerifyOtpReturnType,
  verifyOtp,
  type WaitForTransactionErrorType,
  type WaitForTransactionParameters,
  type WaitForTransactionReturnType,
} from "@signet/core";
import { type UseMutationReturnType, useSignetMutation } from "./mutation.js";
import {
  credentialsQueryOptions,
  delegatedKeyQueryOptions,
  delegatedKeysQueryOptions,
  internalAccountsQueryOptions,
  quoteQueryOptions,
  scaFactorsQueryOptions,
  sessionsQueryOptions,
  transactionQueryOptions,
  transactionsQueryOptions,
} from "./queries.js";
import {
  type QueryOptions,
  type QueryParameters,
  type UseQueryReturnType,
  useSignetQuery,
} from "./query.js";

// Each mutation refetches the queries that read what its action changes: one table, in queries.ts.
/**
 * Sends a one-time code to an email or SMS credential (`requestOtp`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRequestOtp = (): UseMutationReturnType<
  RequestOtpParameters,
  RequestOtpReturnType,
  RequestOtpErrorType
> => useSignetMutation(requestOtp, "requestOtp");

/**
 * Signs in with the code the user typed (`verifyOtp`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useVerifyOtp = (): UseMutationReturnType<
  VerifyOtpParameters,
  VerifyOtpReturnType,
  VerifyOtpErrorType
> => useSignetMutation(verifyOtp, "verifyOtp");

/**
 * Fetches a passkey challenge ahead of the tap (`preparePasskeySignIn`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const usePreparePasskeySignIn = (): UseMutationReturnType<
  PreparePasskeySignInParameters,
  PreparePasskeySignInReturnType,
  PreparePasskeySignInErrorType
> => useSignetMutation(preparePasskeySignIn, "preparePasskeySignIn");

/**
 * Signs in with a passkey (`signInWithPasskey`), with `autofill: true` for browser autofill. Call `mutate` directly in the tap's event handler: the prompt opens in the same task (iOS Safari drops it otherwise).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useSignInWithPasskey = (): UseMutationReturnType<
  SignInWithPasskeyParameters,
  SignInWithPasskeyReturnType,
  SignInWithPasskeyErrorType
> => useSignetMutation(signInWithPasskey, "signInWithPasskey");

/**
 * Signs in with an OIDC token bound to a fresh key (`signInWithOAuth`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useSignInWithOAuth = (): UseMutationReturnType<
  SignInWithOAuthParameters,
  SignInWithOAuthReturnType,
  SignInWithOAuthErrorType
> => useSignetMutation(signInWithOAuth, "signInWithOAuth");

/**
 * Registers a passkey on the account (`addPasskey`). Call `mutate` directly in the tap's event handler.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useAddPasskey = (): UseMutationReturnType<
  AddPasskeyParameters,
  AddPasskeyReturnType,
  AddPasskeyErrorType
> => useSignetMutation(addPasskey, "addPasskey");

/**
 * Adds an EMAIL_OTP, SMS_OTP or OAUTH credential (`addCredential`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useAddCredential = (): UseMutationReturnType<
  AddCredentialParameters,
  AddCredentialReturnType,
  AddCredentialErrorType
> => useSignetMutation(addCredential, "addCredential");

/**
 * Revokes a credential, signed by a session of another one (`revokeCredential`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRevokeCredential = (): UseMutationReturnType<
  RevokeCredentialParameters,
  RevokeCredentialReturnType,
  RevokeCredentialErrorType
> => useSignetMutation(revokeCredential, "revokeCredential");

/**
 * Replaces the session with a new one before it expires (`refreshSession`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRefreshSession = (): UseMutationReturnType<
  RefreshSessionParameters,
  RefreshSessionReturnType,
  RefreshSessionErrorType
> => useSignetMutation(refreshSession, "refreshSession");

/**
 * Ends a session of the account (`revokeSession`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRevokeSession = (): UseMutationReturnType<
  RevokeSessionParameters,
  RevokeSessionReturnType,
  RevokeSessionErrorType
> => useSignetMutation(revokeSession, "revokeSession");

/**
 * Ends this device's sessions of the account and deletes their keys (`signOut`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useSignOut = (): UseMutationReturnType<
  SignOutParameters,
  SignOutReturnType,
  SignOutErrorType
> => useSignetMutation(signOut, "signOut");

/**
 * Exports the wallet's mnemonic (`exportWallet`). Show it only behind an explicit confirmation; never store or log it.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useExportWallet = (): UseMutationReturnType<
  ExportWalletParameters,
  ExportWalletReturnType,
  ExportWalletErrorType
> => useSignetMutation(exportWallet, "exportWallet");

/**
 * Changes the customer's email or phone number (`updateCustomerContact`). The service renames
 * the tied EMAIL_OTP or SMS_OTP credential to the new contact, so `useCredentials` refetches.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useUpdateCustomerContact = (): UseMutationReturnType<
  UpdateCustomerContactParameters,
  UpdateCustomerContactReturnType,
  UpdateCustomerContactErrorType
> => useSignetMutation(updateCustomerContact, "updateCustomerContact");

/**
 * Creates a card's delegated signing key (`createDelegatedKey`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useCreateDelegatedKey = (): UseMutationReturnType<
  CreateDelegatedKeyParameters,
  CreateDelegatedKeyReturnType,
  CreateDelegatedKeyErrorType
> => useSignetMutation(createDelegatedKey, "createDelegatedKey");

/**
 * Revokes a delegated key (`revokeDelegatedKey`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRevokeDelegatedKey = (): UseMutationReturnType<
  RevokeDelegatedKeyParameters,
  RevokeDelegatedKeyReturnType,
  RevokeDelegatedKeyErrorType
> => useSignetMutation(revokeDelegatedKey, "revokeDelegatedKey");

/** What `useCredentials` returns (`data` is `select`'s result when given). */
export type UseCredentialsReturnType<TSelected = ListCredentialsReturnType> = UseQueryReturnType<
  TSelected,
  ListCredentialsErrorType
>;

/**
 * The account's credentials (`listCredentials`); refetched after credential changes and a contact update.
 * Pass `skipToken` instead of the parameters to wait; options (`enabled`, `select`, `staleTime`,
 * `retry`) go with the parameters or in the second argument.
 */
export const useCredentials = <TSelected = ListCredentialsReturnType>(
  parameters: QueryParameters<
    ListCredentialsParameters,
    ListCredentialsReturnType,
    ListCredentialsErrorType,
    TSelected
  >,
  options?: QueryOptions<ListCredentialsReturnType, ListCredentialsErrorType, TSelected>,
): UseCredentialsReturnType<TSelected> =>
  useSignetQuery("useCredentials", credentialsQueryOptions, parameters, options);

/** What `useSessions` returns (`data` is `select`'s result when given). */
export type UseSessionsReturnType<TSelected = ListSessionsReturnType> = UseQueryReturnType<
  TSelected,
  ListSessionsErrorType
>;

/**
 * The account's active sessions (`listSessions`); refetched after sign-in, refresh, revoke and sign-out.
 * Pass `skipToken` instead of the parameters to wait; options (`enabled`, `select`, `staleTime`,
 * `retry`) go with the parameters or in the second argument.
 */
export const useSessions = <TSelected = ListSessionsReturnType>(
  parameters: QueryParameters<
    ListSessionsParameters,
    ListSessionsReturnType,
    ListSessionsErrorType,
    TSelected
  >,
  options?: QueryOptions<ListSessionsReturnType, ListSessionsErrorType, TSelected>,
): UseSessionsReturnType<TSelected> =>
  useSignetQuery("useSessions", sessionsQueryOptions, parameters, options);

/** What `useDelegatedKeys` returns (`data` is `select`'s result when given). */
export type UseDelegatedKeysReturnType<TSelected = ListDelegatedKeysReturnType> =
  UseQueryReturnType<TSelected, ListDelegatedKeysErrorType>;

/**
 * The account's delegated keys (`listDelegatedKeys`).
 * Pass `skipToken` instead of the parameters to wait; options (`enabled`, `select`, `staleTime`,
 * `retry`) go with the parameters or in the second argument.
 */
export const useDelegatedKeys = <TSelected = ListDelegatedKeysReturnType>(
  parameters: QueryParameters<
    ListDelegatedKeysParameters,
    ListDelegatedKeysReturnType,
    ListDelegatedKeysErrorType,
    TSelected
  >,
  options?: QueryOptions<ListDelegatedKeysReturnType, ListDelegatedKeysErrorType, TSelected>,
): UseDelegatedKeysReturnType<TSelected> =>
  useSignetQuery("useDelegatedKeys", delegatedKeysQueryOptions, parameters, options);

/** What `useDelegatedKey` returns (`data` is `select`'s result when given). */
export type UseDelegatedKeyReturnType<TSelected = GetDelegatedKeyReturnType> = UseQueryReturnType<
  TSelected,
  GetDelegatedKeyErrorType
>;

/**
 * One delegated key (`getDelegatedKey`).
 * Pass `skipToken` instead of the parameters to wait; options (`enabled`, `select`, `staleTime`,
 * `retry`) go with the parameters or in the second argument.
 */
export const useDelegatedKey = <TSelected = GetDelegatedKeyReturnType>(
  parameters: QueryParameters<
    GetDelegatedKeyParameters,
    GetDelegatedKeyReturnType,
    GetDelegatedKeyErrorType,
    TSelected
  >,
  options?: QueryOptions<GetDelegatedKeyReturnType, GetDelegatedKeyErrorType, TSelected>,
): UseDelegatedKeyReturnType<TSelected> =>
  useSignetQuery("useDelegatedKey", delegatedKeyQueryOptions, parameters, options);

/** What `useInternalAccounts` returns (`data` is `select`'s result when given). */
export type UseInternalAccountsReturnType<TSelected = ListInternalAccountsReturnType> =
  UseQueryReturnType<TSelected, ListInternalAccountsErrorType>;

/**
 * The customer's internal accounts with balances (`listInternalAccounts`); refetched after an execute.
 * Pass `skipToken` instead of the parameters to wait; options (`enabled`, `select`, `staleTime`,
 * `retry`) go with the parameters or in the second argument.
 */
export const useInternalAccounts = <TSelected = ListInternalAccountsReturnType>(
  parameters: QueryParameters<
    ListInternalAccountsParameters,
    ListInternalAccountsReturnType,
    ListInternalAccountsErrorType,
    TSelected
  >,
  options?: QueryOptions<ListInternalAccountsReturnType, ListInternalAccountsErrorType, TSelected>,
): UseInternalAccountsReturnType<TSelected> =>
  useSignetQuery("useInternalAccounts", internalAccountsQueryOptions, parameters, options);

/** What `useQuote` returns (`data` is `select`'s result when given). */
export type UseQuoteReturnType<TSelected = GetQuoteReturnType> = UseQueryReturnType<
  TSelected,
  GetQuoteErrorType
>;

/**
 * A quote (`getQuote`); refetched after it is executed.
 * Pass `skipToken` instead of the parameters to wait; options (`enabled`, `select`, `staleTime`,
 * `retry`) go with the parameters or in the second argument.
 */
export const useQuote = <TSelected = GetQuoteReturnType>(
  parameters: QueryParameters<GetQuoteParameters, GetQuoteReturnType, GetQuoteErrorType, TSelected>,
  options?: QueryOptions<GetQuoteReturnType, GetQuoteErrorType, TSelected>,
): UseQuoteReturnType<TSelected> =>
  useSignetQuery("useQuote", quoteQueryOptions, parameters, options);

/** What `useTransaction` returns (`data` is `select`'s result when given). */
export type UseTransactionReturnType<TSelected = WaitForTransactionReturnType> = UseQueryReturnType<
  TSelected,
  WaitForTransactionErrorType
>;

/**
 * A transaction, followed until it settles (`waitForTransaction`): `isFetching` while it is under way, `data` once terminal.
 * Pass `skipToken` instead of the parameters to wait; options (`enabled`, `select`, `staleTime`,
 * `retry`) go with the parameters or in the second argument.
 */
export const useTransaction = <TSelected = WaitForTransactionReturnType>(
  parameters: QueryParameters<
    WaitForTransactionParameters,
    WaitForTransactionReturnType,
    WaitForTransactionErrorType,
    TSelected
  >,
  options?: QueryOptions<WaitForTransactionReturnType, WaitForTransactionErrorType, TSelected>,
): UseTransactionReturnType<TSelected> =>
  useSignetQuery("useTransaction", transactionQueryOptions, parameters, options);

/**
 * Turns the wallet's privacy on or off (`updateWalletPrivacy`, a signed retry); `useInternalAccounts` refetches.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useUpdateWalletPrivacy = (): UseMutationReturnType<
  UpdateWalletPrivacyParameters,
  UpdateWalletPrivacyReturnType,
  UpdateWalletPrivacyErrorType
> => useSignetMutation(updateWalletPrivacy, "updateWalletPrivacy");

/**
 * Enrolls a passkey as the customer's SCA factor (`enrollScaPasskey`), apart from the wallet's sign-in passkeys; `useScaFactors` refetches.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useEnrollScaPasskey = (): UseMutationReturnType<
  EnrollScaPasskeyParameters,
  EnrollScaPasskeyReturnType,
  EnrollScaPasskeyErrorType
> => useSignetMutation(enrollScaPasskey, "enrollScaPasskey");

/**
 * Deletes the customer's SCA passkey (`deleteScaFactor`); `useScaFactors` refetches.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useDeleteScaFactor = (): UseMutationReturnType<
  DeleteScaFactorParameters,
  DeleteScaFactorReturnType,
  DeleteScaFactorErrorType
> => useSignetMutation(deleteScaFactor, "deleteScaFactor");

/**
 * Opens the customer's SCA session (`scaLogin`); pass `onChallenge` as for `authorizeQuote`.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useScaLogin = (): UseMutationReturnType<
  ScaLoginParameters,
  ScaLoginReturnType,
  ScaLoginErrorType
> => useSignetMutation(scaLogin, "scaLogin");

/**
 * Records a security event of the app's own login (`recordSecurityEvent`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRecordSecurityEvent = (): UseMutationReturnType<
  RecordSecurityEventParameters,
  RecordSecurityEventReturnType,
  RecordSecurityEventErrorType
> => useSignetMutation(recordSecurityEvent, "recordSecurityEvent");

/**
 * Sends a code that verifies the customer's email or phone (`startContactVerification`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useStartContactVerification = (): UseMutationReturnType<
  StartContactVerificationParameters,
  StartContactVerificationReturnType,
  StartContactVerificationErrorType
> => useSignetMutation(startContactVerification, "startContactVerification");

/**
 * Confirms a contact verification code (`confirmContactVerification`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useConfirmContactVerification = (): UseMutationReturnType<
  ConfirmContactVerificationParameters,
  ConfirmContactVerificationReturnType,
  ConfirmContactVerificationErrorType
> => useSignetMutation(confirmContactVerification, "confirmContactVerification");

/** What `useTransactions` returns (`data` is `select`'s result when given). */
export type UseTransactionsReturnType<TSelected = ListTransactionsReturnType> = UseQueryReturnType<
  TSelected,
  ListTransactionsErrorType
>;

/**
 * A page of the customer's transactions (`listTransactions`); refetched after a payment. Pass
 * the page's `nextCursor` as `cursor` for the next.
 */
export const useTransactions = <TSelected = ListTransactionsReturnType>(
  parameters: QueryParameters<
    ListTransactionsParameters,
    ListTransactionsReturnType,
    ListTransactionsErrorType,
    TSelected
  >,
  options?: QueryOptions<ListTransactionsReturnType, ListTransactionsErrorType, TSelected>,
): UseTransactionsReturnType<TSelected> =>
  useSignetQuery("useTransactions", transactionsQueryOptions, parameters, options);

/** What `useScaFactors` returns (`data` is `select`'s result when given). */
export type UseScaFactorsReturnType<TSelected = ListScaFactorsReturnType> = UseQueryReturnType<
  TSelected,
  ListScaFactorsErrorType
>;

/** The customer's enrolled SCA factors (`listScaFactors`); refetched after an enrollment or deletion. */
export const useScaFactors = <TSelected = ListScaFactorsReturnType>(
  parameters: QueryParameters<
    ListScaFactorsParameters,
    ListScaFactorsReturnType,
    ListScaFactorsErrorType,
    TSelected
  >,
  options?: QueryOptions<ListScaFactorsReturnType, ListScaFactorsErrorType, TSelected>,
): UseScaFactorsReturnType<TSelected> =>
  useSignetQuery("useScaFactors", scaFactorsQueryOptions, parameters, options);
