/**
 * React hooks over @signet/core: a provider, useSession, a mutation hook per flow and query hooks.
 *
 * @module @signet/react
 */
// @signet/react: a provider and one hook per @signet/core flow, in TanStack Query's and wagmi's
// shapes. Every module is a client module; nothing browser-only runs at import or render.
export {
  type PendingScaChallenge,
  type UseAuthorizeQuoteReturnType,
  type UseAuthorizeQuoteVariables,
  useAuthorizeQuote,
} from "./authorize.js";
export {
  SignetProvider,
  type SignetProviderProps,
  useClient,
  useInvalidateQueries,
} from "./context.js";
export {
  type UseCredentialsReturnType,
  type UseDelegatedKeyReturnType,
  type UseDelegatedKeysReturnType,
  type UseInternalAccountsReturnType,
  type UseQuoteReturnType,
  type UseScaFactorsReturnType,
  type UseSessionsReturnType,
  type UseTransactionReturnType,
  type UseTransactionsReturnType,
  useAddCredential,
  useAddPasskey,
  useConfirmContactVerification,
  useCreateDelegatedKey,
  useCredentials,
  useDelegatedKey,
  useDelegatedKeys,
  useDeleteScaFactor,
  useEnrollScaPasskey,
  useExecuteQuote,
  useExportWallet,
  useInternalAccounts,
  usePreparePasskeySignIn,
  useQuote,
  useRecordSecurityEvent,
  useRefreshSession,
  useRequestOtp,
  useRevokeCredential,
  useRevokeDelegatedKey,
  useRevokeSession,
  useScaFactors,
  useScaLogin,
  useSessions,
  useSignInWithOAuth,
  useSignInWithPasskey,
  useSignOut,
  useStartContactVerification,
  useTransaction,
  useTransactions,
  useUpdateCustomerContact,
  useUpdateWalletPrivacy,
  useVerifyOtp,
} from "./hooks.js";
export type {
  MutationErrorResult,
  MutationIdleResult,
  MutationPendingResult,
  MutationSuccessResult,
  UseMutationReturnType,
} from "./mutation.js";
export {
  credentialsQueryKey,
  credentialsQueryOptions,
  delegatedKeyQueryKey,
  delegatedKeyQueryOptions,
  delegatedKeysQueryKey,
  delegatedKeysQueryOptions,
  type InvalidatedBy,
  internalAccountsQueryKey,
  internalAccountsQueryOptions,
  invalidatedBy,
  mutationChanges,
  type QueryKeyParameters,
  queryReads,
  quoteQueryKey,
  quoteQueryOptions,
  type SignetMutationName,
  type SignetQueryKey,
  type SignetQueryName,
  type SignetQueryOptions,
  type SignetResource,
  scaFactorsQueryKey,
  scaFactorsQueryOptions,
  sessionsQueryKey,
  sessionsQueryOptions,
  transactionQueryKey,
  transactionQueryOptions,
  transactionsQueryKey,
  transactionsQueryOptions,
} from "./queries.js";
export type {
  QueryErrorResult,
  QueryOptions,
  QueryParameters,
  QueryPendingResult,
  QuerySuccessResult,
  UseQueryReturnType,
} from "./query.js";
export type { UnexpectedErrorType } from "./queryCache.js";
export { hashKey, type QueryKey, type SkipToken, skipToken } from "./queryKey.js";
export {
  type SessionLoadingResult,
  type SessionSignedInResult,
  type SessionSignedOutResult,
  type UseSessionParameters,
  type UseSessionReturnType,
  useSession,
} from "./session.js";
