// Every query's key and options in one place (wagmi's `…QueryOptions` shape), and the one table
// of what each mutation's action changes, from which the queries it refetches are derived.
import {
  type CallOptions,
  type GetDelegatedKeyParameters,
  type GetDelegatedKeyReturnType,
  type GetQuoteParameters,
  type GetQuoteReturnType,
  getDelegatedKey,
  getQuote,
  type ListCredentialsParameters,
  type ListCredentialsReturnType,
  type ListDelegatedKeysParameters,
  type ListDelegatedKeysReturnType,
  type ListInternalAccountsParameters,
  type ListInternalAccountsReturnType,
  type ListScaFactorsParameters,
  type ListScaFactorsReturnType,
  type ListSessionsParameters,
  type ListSessionsReturnType,
  type ListTransactionsParameters,
  type ListTransactionsReturnType,
  listCredentials,
  listDelegatedKeys,
  listInternalAccounts,
  listScaFactors,
  listSessions,
  listTransactions,
  type SignetClient,
  type WaitForTransactionParameters,
  type WaitForTransactionReturnType,
  waitForTransaction,
} from "@signet/core";

/** A query's parameters as its key holds them: the action's, without `signal` and `onEvent`. */
export type QueryKeyParameters<TParameters> = Omit<TParameters, keyof CallOptions>;

/** A query's key: the core action's name, then its parameters. */
export type SignetQueryKey<TName extends string, TParameters> = readonly [
  TName,
  QueryKeyParameters<TParameters>,
];

/**
 * What a `…QueryOptions` function returns: the key and the function that fetches it, in the shape
 * TanStack Query's `useQuery`, `prefetchQuery` and `invalidateQueries` take.
 */
export type SignetQueryOptions<TName extends string, TParameters, TData> = {
  queryKey: SignetQueryKey<TName, TParameters>;
  queryFn: (context: { signal: AbortSignal }) => Promise<TData>;
};

const keyOf =
  <TName extends string>(name: TName) =>
  <TParameters extends CallOptions>(
    parameters: TParameters,
  ): SignetQueryKey<TName, TParameters> => {
    const { signal: _signal, onEvent: _onEvent, retry: _retry, ...rest } = parameters;
    return [name, rest] as const;
  };

const optionsOf =
  <TName extends string, TParameters extends CallOptions, TData>(
    key: (parameters: TParameters) => SignetQueryKey<TName, TParameters>,
    action: (client: SignetClient, parameters: TParameters) => Promise<TData>,
  ) =>
  (
    client: SignetClient,
    parameters: TParameters,
  ): SignetQueryOptions<TName, TParameters, TData> => ({
    queryKey: key(parameters),
    queryFn: ({ signal }) => action(client, { ...parameters, signal }),
  });

/** `["listCredentials", parameters]`: the key of `useCredentials`. */
export const credentialsQueryKey: (
  parameters: ListCredentialsParameters,
) => SignetQueryKey<"listCredentials", ListCredentialsParameters> =
  /* @__PURE__ */ keyOf("listCredentials");
/** Key and fetch of `useCredentials` (`listCredentials`). */
export const credentialsQueryOptions: (
  client: SignetClient,
  parameters: ListCredentialsParameters,
) => SignetQueryOptions<"listCredentials", ListCredentialsParameters, ListCredentialsReturnType> =
  /* @__PURE__ */ optionsOf(credentialsQueryKey, listCredentials);

/** `["listSessions", parameters]`: the key of `useSessions`. */
export const sessionsQueryKey: (
  parameters: ListSessionsParameters,
) => SignetQueryKey<"listSessions", ListSessionsParameters> = /* @__PURE__ */ keyOf("listSessions");
/** Key and fetch of `useSessions` (`listSessions`). */
export const sessionsQueryOptions: (
  client: SignetClient,
  parameters: ListSessionsParameters,
) => SignetQueryOptions<"listSessions", ListSessionsParameters, ListSessionsReturnType> =
  /* @__PURE__ */ optionsOf(sessionsQueryKey, listSessions);

/** `["listDelegatedKeys", parameters]`: the key of `useDelegatedKeys`. */
export const delegatedKeysQueryKey: (
  parameters: ListDelegatedKeysParameters,
) => SignetQueryKey<"listDelegatedKeys", ListDelegatedKeysParameters> =
  /* @__PURE__ */ keyOf("listDelegatedKeys");
/** Key and fetch of `useDelegatedKeys` (`listDelegatedKeys`). */
export const delegatedKeysQueryOptions: (
  client: SignetClient,
  parameters: ListDelegatedKeysParameters,
) => SignetQueryOptions<
  "listDelegatedKeys",
  ListDelegatedKeysParameters,
  ListDelegatedKeysReturnType
> = /* @__PURE__ */ optionsOf(delegatedKeysQueryKey, listDelegatedKeys);

/** `["getDelegatedKey", parameters]`: the key of `useDelegatedKey`. */
export const delegatedKeyQueryKey: (
  parameters: GetDelegatedKeyParameters,
) => SignetQueryKey<"getDelegatedKey", GetDelegatedKeyParameters> =
  /* @__PURE__ */ keyOf("getDelegatedKey");
/** Key and fetch of `useDelegatedKey` (`getDelegatedKey`). */
export const delegatedKeyQueryOptions: (
  client: SignetClient,
  parameters: GetDelegatedKeyParameters,
) => SignetQueryOptions<"getDelegatedKey", GetDelegatedKeyParameters, GetDelegatedKeyReturnType> =
  /* @__PURE__ */ optionsOf(delegatedKeyQueryKey, getDelegatedKey);

/** `["listInternalAccounts", parameters]`: the key of `useInternalAccounts`. */
export const internalAccountsQueryKey: (
  parameters: ListInternalAccountsParameters,
) => SignetQueryKey<"listInternalAccounts", ListInternalAccountsParameters> =
  /* @__PURE__ */ keyOf("listInternalAccounts");
/** Key and fetch of `useInternalAccounts` (`listInternalAccounts`). */
export const internalAccountsQueryOptions: (
  client: SignetClient,
  parameters: ListInternalAccountsParameters,
) => SignetQueryOptions<
  "listInternalAccounts",
  ListInternalAccountsParameters,
  ListInternalAccountsReturnType
> = /* @__PURE__ */ optionsOf(internalAccountsQueryKey, listInternalAccounts);

/** `["getQuote", parameters]`: the key of `useQuote`. */
export const quoteQueryKey: (
  parameters: GetQuoteParameters,
) => SignetQueryKey<"getQuote", GetQuoteParameters> = /* @__PURE__ */ keyOf("getQuote");
/** Key and fetch of `useQuote` (`getQuote`). */
export const quoteQueryOptions: (
  client: SignetClient,
  parameters: GetQuoteParameters,
) => SignetQueryOptions<"getQuote", GetQuoteParameters, GetQuoteReturnType> =
  /* @__PURE__ */ optionsOf(quoteQueryKey, getQuote);

/** `["waitForTransaction", parameters]`: the key of `useTransaction`. */
export const transactionQueryKey: (
  parameters: WaitForTransactionParameters,
) => SignetQueryKey<"waitForTransaction", WaitForTransactionParameters> =
  /* @__PURE__ */ keyOf("waitForTransaction");
/** Key and fetch of `useTransaction` (`waitForTransaction`). */
export const transactionQueryOptions: (
  client: SignetClient,
  parameters: WaitForTransactionParameters,
) => SignetQueryOptions<
  "waitForTransaction",
  WaitForTransactionParameters,
  WaitForTransactionReturnType
> = /* @__PURE__ */ optionsOf(transactionQueryKey, waitForTransaction);

/** `["listTransactions", parameters]`: the key of `useTransactions`. */
export const transactionsQueryKey: (
  parameters: ListTransactionsParameters,
) => SignetQueryKey<"listTransactions", ListTransactionsParameters> =
  /* @__PURE__ */ keyOf("listTransactions");
/** Key and fetch of `useTransactions` (`listTransactions`, one page). */
export const transactionsQueryOptions: (
  client: SignetClient,
  parameters: ListTransactionsParameters,
) => SignetQueryOptions<
  "listTransactions",
  ListTransactionsParameters,
  ListTransactionsReturnType
> = /* @__PURE__ */ optionsOf(transactionsQueryKey, listTransactions);

/** `["listScaFactors", parameters]`: the key of `useScaFactors`. */
export const scaFactorsQueryKey: (
  parameters: ListScaFactorsParameters,
) => SignetQueryKey<"listScaFactors", ListScaFactorsParameters> =
  /* @__PURE__ */ keyOf("listScaFactors");
/** Key and fetch of `useScaFactors` (`listScaFactors`). */
export const scaFactorsQueryOptions: (
  client: SignetClient,
  parameters: ListScaFactorsParameters,
) => SignetQueryOptions<"listScaFactors", ListScaFactorsParameters, ListScaFactorsReturnType> =
  /* @__PURE__ */ optionsOf(scaFactorsQueryKey, listScaFactors);

// <catalog:invalidations>
// Generated by `node scripts/actions.mjs --write` from the action files' rows.
/** What each query's core action reads on the service (its row's `hook.reads`). */
export const queryReads = {
  listCredentials: "credentials",
  listSessions: "sessions",
  getQuote: "quotes",
  waitForTransaction: "transactions",
  listTransactions: "transactions",
  listScaFactors: "scaFactors",
  listDelegatedKeys: "delegatedKeys",
  getDelegatedKey: "delegatedKeys",
  listInternalAccounts: "balances",
} as const;

/** The name of a query: its core action's, the first element of its key. */
export type SignetQueryName = keyof typeof queryReads;
/** What the service keeps that a query reads and a mutation changes. */
export type SignetResource = (typeof queryReads)[SignetQueryName];

/**
 * What each mutation's core action changes on the service (its row's `hook.invalidates`). The
 * queries a successful call refetches follow from it ({@link InvalidatedBy}, {@link invalidatedBy}).
 */
export const mutationChanges = {
  requestOtp: [],
  verifyOtp: ["sessions", "credentials"],
  signInWithOAuth: ["sessions"],
  preparePasskeySignIn: [],
  signInWithPasskey: ["sessions"],
  addPasskey: ["credentials"],
  addCredential: ["credentials"],
  revokeCredential: ["credentials", "sessions"],
  refreshSession: ["sessions"],
  revokeSession: ["sessions"],
  signOut: ["sessions"],
  exportWallet: [],
  executeQuote: ["quotes", "balances", "transactions"],
  authorizeQuote: ["quotes", "balances", "transactions"],
  scaLogin: [],
  enrollScaPasskey: ["scaFactors"],
  deleteScaFactor: ["scaFactors"],
  recordSecurityEvent: [],
  updateWalletPrivacy: ["balances"],
  startContactVerification: [],
  confirmContactVerification: [],
  updateCustomerContact: ["credentials"],
  createDelegatedKey: ["delegatedKeys"],
  revokeDelegatedKey: ["delegatedKeys"],
  enrollScaTotp: ["scaFactors"],
  completeScaFactorReset: ["scaFactors"],
  startScaFactorReset: [],
  trustBeneficiary: [],
  untrustBeneficiary: [],
  changeContact: ["credentials"],
} as const satisfies Record<string, readonly SignetResource[]>;
// </catalog:invalidations>

/** The name of a mutation: its core action's. */
export type SignetMutationName = keyof typeof mutationChanges;

/** The queries a successful `TMutation` refetches: those that read what it changes. */
export type InvalidatedBy<TMutation extends SignetMutationName> = {
  [TQuery in SignetQueryName]: (typeof queryReads)[TQuery] extends (typeof mutationChanges)[TMutation][number]
    ? TQuery
    : never;
}[SignetQueryName];

/** The queries a successful `mutation` refetches, from {@link mutationChanges}. */
export const invalidatedBy = <TMutation extends SignetMutationName>(
  mutation: TMutation,
): InvalidatedBy<TMutation>[] =>
  (Object.keys(queryReads) as SignetQueryName[]).filter((query) =>
    (mutationChanges[mutation] as readonly SignetResource[]).includes(queryReads[query]),
  ) as InvalidatedBy<TMutation>[];
