"use client";
// The hooks over @signet/core actions that are more than the plain mutation: the queries (the plain
// mutations are generated into actionHooks.ts from the rows).
// Each is a few lines over the action; the logic lives in core.
import type {
  GetDelegatedKeyErrorType,
  GetDelegatedKeyParameters,
  GetDelegatedKeyReturnType,
  GetQuoteErrorType,
  GetQuoteParameters,
  GetQuoteReturnType,
  ListCredentialsErrorType,
  ListCredentialsParameters,
  ListCredentialsReturnType,
  ListDelegatedKeysErrorType,
  ListDelegatedKeysParameters,
  ListDelegatedKeysReturnType,
  ListInternalAccountsErrorType,
  ListInternalAccountsParameters,
  ListInternalAccountsReturnType,
  ListScaFactorsErrorType,
  ListScaFactorsParameters,
  ListScaFactorsReturnType,
  ListSessionsErrorType,
  ListSessionsParameters,
  ListSessionsReturnType,
  ListTransactionsErrorType,
  ListTransactionsParameters,
  ListTransactionsReturnType,
  WaitForTransactionErrorType,
  WaitForTransactionParameters,
  WaitForTransactionReturnType,
} from "@signet/core";
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
