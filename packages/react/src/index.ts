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
export { SignetProvider, type SignetProviderProps, useClient } from "./context.js";
export {
  useAddCredential,
  useAddPasskey,
  useCreateDelegatedKey,
  useCredentials,
  useDelegatedKey,
  useDelegatedKeys,
  useExecuteQuote,
  useExportWallet,
  useInternalAccounts,
  usePreparePasskeySignIn,
  useQuote,
  useRefreshSession,
  useRequestOtp,
  useRevokeCredential,
  useRevokeDelegatedKey,
  useRevokeSession,
  useSessions,
  useSignInWithOAuth,
  useSignInWithPasskey,
  useSignOut,
  useTransaction,
  useUpdateCustomerContact,
  useVerifyOtp,
} from "./hooks.js";
export type { UseMutationReturnType } from "./mutation.js";
export type { QueryOptions, UseQueryReturnType } from "./query.js";
export { type UseSessionParameters, type UseSessionReturnType, useSession } from "./session.js";
