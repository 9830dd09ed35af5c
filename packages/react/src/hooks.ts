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
  type CreateDelegatedKeyErrorType,
  type CreateDelegatedKeyParameters,
  type CreateDelegatedKeyReturnType,
  createDelegatedKey,
  type ExecuteQuoteErrorType,
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  type ExportWalletErrorType,
  type ExportWalletParameters,
  type ExportWalletReturnType,
  executeQuote,
  exportWallet,
  type GetDelegatedKeyErrorType,
  type GetDelegatedKeyParameters,
  type GetDelegatedKeyReturnType,
  type GetQuoteErrorType,
  type GetQuoteParameters,
  type GetQuoteReturnType,
  getDelegatedKey,
  getQuote,
  type ListCredentialsErrorType,
  type ListCredentialsParameters,
  type ListCredentialsReturnType,
  type ListDelegatedKeysErrorType,
  type ListDelegatedKeysParameters,
  type ListDelegatedKeysReturnType,
  type ListInternalAccountsErrorType,
  type ListInternalAccountsParameters,
  type ListInternalAccountsReturnType,
  type ListSessionsErrorType,
  type ListSessionsParameters,
  type ListSessionsReturnType,
  listCredentials,
  listDelegatedKeys,
  listInternalAccounts,
  listSessions,
  type PreparePasskeySignInErrorType,
  type PreparePasskeySignInParameters,
  type PreparePasskeySignInReturnType,
  preparePasskeySignIn,
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
  refreshSession,
  requestOtp,
  revokeCredential,
  revokeDelegatedKey,
  revokeSession,
  type SignInWithOAuthErrorType,
  type SignInWithOAuthParameters,
  type SignInWithOAuthReturnType,
  type SignInWithPasskeyErrorType,
  type SignInWithPasskeyParameters,
  type SignInWithPasskeyReturnType,
  type SignOutErrorType,
  type SignOutParameters,
  type SignOutReturnType,
  signInWithOAuth,
  signInWithPasskey,
  signOut,
  type UpdateCustomerContactErrorType,
  type UpdateCustomerContactParameters,
  type UpdateCustomerContactReturnType,
  updateCustomerContact,
  type VerifyOtpErrorType,
  type VerifyOtpParameters,
  type VerifyOtpReturnType,
  verifyOtp,
  type WaitForTransactionErrorType,
  type WaitForTransactionParameters,
  type WaitForTransactionReturnType,
  waitForTransaction,
} from "@signet/core";
import { type UseMutationReturnType, useSignetMutation } from "./mutation.js";
import { type QueryOptions, type UseQueryReturnType, useSignetQuery } from "./query.js";

const NONE: readonly string[] = [];
// The queries each mutation changes are named by the core action that reads them.
/**
 * Sends a one-time code to an email or SMS credential (`requestOtp`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRequestOtp = (): UseMutationReturnType<
  RequestOtpParameters,
  RequestOtpReturnType,
  RequestOtpErrorType
> => useSignetMutation("useRequestOtp", requestOtp, NONE);

/**
 * Signs in with the code the user typed (`verifyOtp`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useVerifyOtp = (): UseMutationReturnType<
  VerifyOtpParameters,
  VerifyOtpReturnType,
  VerifyOtpErrorType
> => useSignetMutation("useVerifyOtp", verifyOtp, ["listSessions", "listCredentials"]);

/**
 * Fetches a passkey challenge ahead of the tap (`preparePasskeySignIn`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const usePreparePasskeySignIn = (): UseMutationReturnType<
  PreparePasskeySignInParameters,
  PreparePasskeySignInReturnType,
  PreparePasskeySignInErrorType
> => useSignetMutation("usePreparePasskeySignIn", preparePasskeySignIn, NONE);

/**
 * Signs in with a passkey (`signInWithPasskey`), with `autofill: true` for browser autofill. Call `mutate` directly in the tap's event handler: the prompt opens in the same task (iOS Safari drops it otherwise).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useSignInWithPasskey = (): UseMutationReturnType<
  SignInWithPasskeyParameters,
  SignInWithPasskeyReturnType,
  SignInWithPasskeyErrorType
> => useSignetMutation("useSignInWithPasskey", signInWithPasskey, ["listSessions"]);

/**
 * Signs in with an OIDC token bound to a fresh key (`signInWithOAuth`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useSignInWithOAuth = (): UseMutationReturnType<
  SignInWithOAuthParameters,
  SignInWithOAuthReturnType,
  SignInWithOAuthErrorType
> => useSignetMutation("useSignInWithOAuth", signInWithOAuth, ["listSessions"]);

/**
 * Registers a passkey on the account (`addPasskey`). Call `mutate` directly in the tap's event handler.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useAddPasskey = (): UseMutationReturnType<
  AddPasskeyParameters,
  AddPasskeyReturnType,
  AddPasskeyErrorType
> => useSignetMutation("useAddPasskey", addPasskey, ["listCredentials"]);

/**
 * Adds an EMAIL_OTP, SMS_OTP or OAUTH credential (`addCredential`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useAddCredential = (): UseMutationReturnType<
  AddCredentialParameters,
  AddCredentialReturnType,
  AddCredentialErrorType
> => useSignetMutation("useAddCredential", addCredential, ["listCredentials"]);

/**
 * Revokes a credential, signed by a session of another one (`revokeCredential`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRevokeCredential = (): UseMutationReturnType<
  RevokeCredentialParameters,
  RevokeCredentialReturnType,
  RevokeCredentialErrorType
> =>
  useSignetMutation("useRevokeCredential", revokeCredential, ["listCredentials", "listSessions"]);

/**
 * Replaces the session with a new one before it expires (`refreshSession`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRefreshSession = (): UseMutationReturnType<
  RefreshSessionParameters,
  RefreshSessionReturnType,
  RefreshSessionErrorType
> => useSignetMutation("useRefreshSession", refreshSession, ["listSessions"]);

/**
 * Ends a session of the account (`revokeSession`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRevokeSession = (): UseMutationReturnType<
  RevokeSessionParameters,
  RevokeSessionReturnType,
  RevokeSessionErrorType
> => useSignetMutation("useRevokeSession", revokeSession, ["listSessions"]);

/**
 * Ends this device's sessions of the account and deletes their keys (`signOut`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useSignOut = (): UseMutationReturnType<
  SignOutParameters,
  SignOutReturnType,
  SignOutErrorType
> => useSignetMutation("useSignOut", signOut, ["listSessions"]);

/**
 * Exports the wallet's mnemonic (`exportWallet`). Show it only behind an explicit confirmation; never store or log it.
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useExportWallet = (): UseMutationReturnType<
  ExportWalletParameters,
  ExportWalletReturnType,
  ExportWalletErrorType
> => useSignetMutation("useExportWallet", exportWallet, NONE);

/**
 * Executes a quote from the wallet, once (`executeQuote`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useExecuteQuote = (): UseMutationReturnType<
  ExecuteQuoteParameters,
  ExecuteQuoteReturnType,
  ExecuteQuoteErrorType
> =>
  useSignetMutation("useExecuteQuote", executeQuote, [
    "getQuote",
    "listInternalAccounts",
    "waitForTransaction",
  ]);

/**
 * Changes the customer's email or phone number (`updateCustomerContact`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useUpdateCustomerContact = (): UseMutationReturnType<
  UpdateCustomerContactParameters,
  UpdateCustomerContactReturnType,
  UpdateCustomerContactErrorType
> => useSignetMutation("useUpdateCustomerContact", updateCustomerContact, NONE);

/**
 * Creates a card's delegated signing key (`createDelegatedKey`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useCreateDelegatedKey = (): UseMutationReturnType<
  CreateDelegatedKeyParameters,
  CreateDelegatedKeyReturnType,
  CreateDelegatedKeyErrorType
> => useSignetMutation("useCreateDelegatedKey", createDelegatedKey, ["listDelegatedKeys"]);

/**
 * Revokes a delegated key (`revokeDelegatedKey`).
 *
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 */
export const useRevokeDelegatedKey = (): UseMutationReturnType<
  RevokeDelegatedKeyParameters,
  RevokeDelegatedKeyReturnType,
  RevokeDelegatedKeyErrorType
> =>
  useSignetMutation("useRevokeDelegatedKey", revokeDelegatedKey, [
    "listDelegatedKeys",
    "getDelegatedKey",
  ]);

/** The account's credentials (`listCredentials`); refetched after credential changes. */
export const useCredentials = (
  parameters: ListCredentialsParameters & QueryOptions,
): UseQueryReturnType<ListCredentialsReturnType, ListCredentialsErrorType> =>
  useSignetQuery("listCredentials", listCredentials, parameters);

/** The account's active sessions (`listSessions`); refetched after sign-in, refresh, revoke and sign-out. */
export const useSessions = (
  parameters: ListSessionsParameters & QueryOptions,
): UseQueryReturnType<ListSessionsReturnType, ListSessionsErrorType> =>
  useSignetQuery("listSessions", listSessions, parameters);

/** The account's delegated keys (`listDelegatedKeys`). */
export const useDelegatedKeys = (
  parameters: ListDelegatedKeysParameters & QueryOptions,
): UseQueryReturnType<ListDelegatedKeysReturnType, ListDelegatedKeysErrorType> =>
  useSignetQuery("listDelegatedKeys", listDelegatedKeys, parameters);

/** One delegated key (`getDelegatedKey`). */
export const useDelegatedKey = (
  parameters: GetDelegatedKeyParameters & QueryOptions,
): UseQueryReturnType<GetDelegatedKeyReturnType, GetDelegatedKeyErrorType> =>
  useSignetQuery("getDelegatedKey", getDelegatedKey, parameters);

/** The customer's internal accounts with balances (`listInternalAccounts`); refetched after an execute. */
export const useInternalAccounts = (
  parameters: ListInternalAccountsParameters & QueryOptions,
): UseQueryReturnType<ListInternalAccountsReturnType, ListInternalAccountsErrorType> =>
  useSignetQuery("listInternalAccounts", listInternalAccounts, parameters);

/** A quote (`getQuote`); refetched after it is executed. */
export const useQuote = (
  parameters: GetQuoteParameters & QueryOptions,
): UseQueryReturnType<GetQuoteReturnType, GetQuoteErrorType> =>
  useSignetQuery("getQuote", getQuote, parameters);

/** A transaction, followed until it settles (`waitForTransaction`): `isFetching` while it is under way, `data` once terminal. */
export const useTransaction = (
  parameters: WaitForTransactionParameters & QueryOptions,
): UseQueryReturnType<WaitForTransactionReturnType, WaitForTransactionErrorType> =>
  useSignetQuery("waitForTransaction", waitForTransaction, parameters);
