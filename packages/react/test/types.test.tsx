// The hooks' public types, checked by `tsc -p tsconfig.test.json` (pnpm typecheck): results narrow
// on `status` and each `is…` flag as TanStack Query v5's do, `useSession` narrows on "signedIn",
// `select` and `skipToken` type `data`, and which queries each mutation refetches follows from
// the one table of what its action changes. The `@ts-expect-error` lines prove the narrowing is
// needed (the field is optional before it). Also the query keys' hashing and matching at run time.
import type {
  AddPasskeyReturnType,
  ExecuteQuoteErrorType,
  ExportWalletErrorType,
  GetQuoteErrorType,
  KnownErrorCode,
  ListCredentialsReturnType,
  ListInternalAccountsErrorType,
  ListInternalAccountsReturnType,
  Session,
  UpdateCustomerContactErrorType,
  VerifyOtpErrorType,
  WaitForTransactionReturnType,
} from "@signet/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  credentialsQueryKey,
  credentialsQueryOptions,
  hashKey,
  type InvalidatedBy,
  internalAccountsQueryKey,
  invalidatedBy,
  mutationChanges,
  queryReads,
  type SignetMutationName,
  type SignetQueryName,
  skipToken,
  transactionQueryKey,
  type UnexpectedErrorType,
  type UseInternalAccountsReturnType,
  type UseMutationReturnType,
  type UseQueryReturnType,
  type useAddPasskey,
  type useAuthorizeQuote,
  type useCredentials,
  type useExportWallet,
  type useInternalAccounts,
  type useSession,
  type useTransaction,
  type useUpdateCustomerContact,
} from "../src/index.js";
import { matchesKey } from "../src/queryKey.js";

// Type-only: the values below do not exist at run time; `compiled` bodies are checked by tsc and
// never called.
const compiled = (_check: () => void): void => undefined;
declare const accounts: UseInternalAccountsReturnType;
declare const addPasskey: ReturnType<typeof useAddPasskey>;
declare const exportWallet: ReturnType<typeof useExportWallet>;
declare const contact: ReturnType<typeof useUpdateCustomerContact>;
declare const session: ReturnType<typeof useSession>;
declare const sca: ReturnType<typeof useAuthorizeQuote>;
declare const useCredentialsHook: typeof useCredentials;
declare const useTransactionHook: typeof useTransaction;
declare const useInternalAccountsHook: typeof useInternalAccounts;

describe("query results narrow like TanStack Query v5's", () => {
  it("isError gives `error`, isSuccess and status 'success' give `data`", () =>
    compiled(() => {
      // @ts-expect-error before narrowing, error may be null
      void (() => accounts.error.code);
      if (accounts.isError) {
        expectTypeOf(accounts.error).toEqualTypeOf<
          ListInternalAccountsErrorType | UnexpectedErrorType
        >();
        expectTypeOf(accounts.error.code).toEqualTypeOf<
          ListInternalAccountsErrorType["code"] | "UNEXPECTED_ERROR"
        >();
      }
      // @ts-expect-error before narrowing, data may be undefined
      void (() => accounts.data.length);
      if (accounts.isSuccess) {
        expectTypeOf(accounts.data).toEqualTypeOf<ListInternalAccountsReturnType>();
        expectTypeOf(accounts.error).toBeNull();
      }
      if (accounts.status === "success") expectTypeOf(accounts.data).not.toBeUndefined();
      if (accounts.isPending) {
        expectTypeOf(accounts.data).toBeUndefined();
        expectTypeOf(accounts.error).toBeNull();
      }
      if (accounts.status === "error")
        expectTypeOf(accounts.data).toEqualTypeOf<ListInternalAccountsReturnType | undefined>();
      expectTypeOf(accounts.refetch).returns.resolves.toBeVoid();
      // A hook's result as the hook returns it, with and without `select`.
      expectTypeOf(useInternalAccountsHook({})).toEqualTypeOf<UseInternalAccountsReturnType>();
      expectTypeOf(useInternalAccountsHook({ select: (list) => list.length })).toEqualTypeOf<
        UseInternalAccountsReturnType<number>
      >();
      expectTypeOf(accounts.isFetching).toBeBoolean();
    }));

  it("select types `data`; skipToken stands for the parameters", () =>
    compiled(() => {
      const count = useCredentialsHook({ accountId: "a", select: (list) => list.length });
      if (count.isSuccess) expectTypeOf(count.data).toEqualTypeOf<number>();
      const types = useCredentialsHook(skipToken, {
        select: (list: ListCredentialsReturnType) => list.map((c) => c.type),
      });
      if (types.isSuccess)
        expectTypeOf(types.data).toEqualTypeOf<ListCredentialsReturnType[number]["type"][]>();
      const plain = useCredentialsHook({ accountId: "a", staleTime: 5_000, retry: 2 });
      if (plain.isSuccess) expectTypeOf(plain.data).toEqualTypeOf<ListCredentialsReturnType>();
      const id: string | undefined = undefined as string | undefined;
      const tx = useTransactionHook(id ? { transactionId: id } : skipToken);
      if (tx.isSuccess) expectTypeOf(tx.data).toEqualTypeOf<WaitForTransactionReturnType>();
      expectTypeOf(tx.isPending && tx.data).toEqualTypeOf<false | undefined>();
      // `retry`'s function sees the action's error union.
      useCredentialsHook({
        accountId: "a",
        retry: (failureCount, error) => {
          expectTypeOf(failureCount).toBeNumber();
          return error.code === "NETWORK";
        },
      });
      // @ts-expect-error the parameters are still the action's
      useCredentialsHook({ accountID: "a" });
    }));
});

describe("mutation results narrow like TanStack Query v5's", () => {
  it("isSuccess gives `data`, isError gives the action's error union", () =>
    compiled(() => {
      // @ts-expect-error before narrowing, data may be undefined
      void (() => addPasskey.data.id);
      expectTypeOf(addPasskey.isSuccess && addPasskey.data.id).toEqualTypeOf<false | string>();
      if (addPasskey.isSuccess) {
        expectTypeOf(addPasskey.data).toEqualTypeOf<AddPasskeyReturnType>();
        expectTypeOf(addPasskey.variables).not.toBeUndefined();
      }
      // @ts-expect-error before narrowing, error may be null
      void (() => exportWallet.error.code);
      if (exportWallet.isError) {
        expectTypeOf(exportWallet.error).toEqualTypeOf<
          ExportWalletErrorType | UnexpectedErrorType
        >();
        expectTypeOf(exportWallet.data).toBeUndefined();
      }
      if (exportWallet.status === "idle") {
        expectTypeOf(exportWallet.variables).toBeUndefined();
        expectTypeOf(exportWallet.error).toBeNull();
      }
      if (exportWallet.isPending) expectTypeOf(exportWallet.variables.accountId).toBeString();
      // SCA's result keeps its own fields on every branch.
      if (sca.isSuccess) expectTypeOf(sca.data.transactionId).not.toBeNever();
      expectTypeOf(sca.pendingChallenge).not.toBeNever();
    }));

  it("PAYLOAD_MISMATCH is in the error union of every signed mutation", () =>
    compiled(() => {
      if (contact.isError && contact.error.code === "PAYLOAD_MISMATCH")
        expectTypeOf(contact.error.code).toEqualTypeOf<"PAYLOAD_MISMATCH">();
      expectTypeOf<"PAYLOAD_MISMATCH">().toExtend<UpdateCustomerContactErrorType["code"]>();
      expectTypeOf<"PAYLOAD_MISMATCH">().toExtend<ExportWalletErrorType["code"]>();
    }));

  it("useSession's 'signedIn' has the session and its expiry", () =>
    compiled(() => {
      // @ts-expect-error before narrowing, there may be no session
      void (() => session.session.id);
      if (session.status === "signedIn") {
        expectTypeOf(session.session).toEqualTypeOf<Session>();
        expectTypeOf(session.expiresAt).toBeString();
        expectTypeOf(session.accountId).toBeString();
      }
      if (session.status === "signedOut") expectTypeOf(session.session).toBeUndefined();
    }));
});

describe("query keys and invalidation", () => {
  it("the table: each mutation refetches the queries that read what its action changes", () => {
    expectTypeOf<InvalidatedBy<"updateCustomerContact">>().toEqualTypeOf<"listCredentials">();
    expectTypeOf<InvalidatedBy<"revokeCredential">>().toEqualTypeOf<
      "listCredentials" | "listSessions"
    >();
    expectTypeOf<InvalidatedBy<"executeQuote">>().toEqualTypeOf<
      "getQuote" | "listInternalAccounts" | "waitForTransaction" | "listTransactions"
    >();
    expectTypeOf<InvalidatedBy<"revokeDelegatedKey">>().toEqualTypeOf<
      "listDelegatedKeys" | "getDelegatedKey"
    >();
    expectTypeOf<InvalidatedBy<"exportWallet">>().toBeNever();
    expectTypeOf<InvalidatedBy<"requestOtp">>().toBeNever();
    expectTypeOf<SignetMutationName>().toExtend<string>();
    expect(invalidatedBy("enrollScaPasskey")).toEqual(["listScaFactors"]);
    expect(invalidatedBy("updateWalletPrivacy")).toEqual(["listInternalAccounts"]);
    expect(invalidatedBy("updateCustomerContact")).toEqual(["listCredentials"]);
    expect(invalidatedBy("authorizeQuote").sort()).toEqual([
      "getQuote",
      "listInternalAccounts",
      "listTransactions",
      "waitForTransaction",
    ]);
    expect(invalidatedBy("signOut")).toEqual(["listSessions"]);
    expect(invalidatedBy("exportWallet")).toEqual([]);
    // Every resource a mutation names is read by a query (which mutations there are is the table
    // of actions', checked in actionTable.test.ts).
    const read = new Set(Object.values(queryReads));
    for (const changed of Object.values(mutationChanges))
      for (const resource of changed) expect(read.has(resource)).toBe(true);
    expectTypeOf<keyof typeof queryReads>().toEqualTypeOf<SignetQueryName>();
  });

  it("keys are [action, parameters] without signal or onEvent; options carry the fetch", () => {
    const key = credentialsQueryKey({ accountId: "a", signal: new AbortController().signal });
    expect(key).toEqual(["listCredentials", { accountId: "a" }]);
    expectTypeOf(key[0]).toEqualTypeOf<"listCredentials">();
    expectTypeOf(key[1]).toHaveProperty("accountId");
    expectTypeOf(key[1]).not.toHaveProperty("signal");
    const options = credentialsQueryOptions(
      undefined as unknown as Parameters<typeof credentialsQueryOptions>[0],
      { accountId: "a" },
    );
    expect(options.queryKey).toEqual(key);
    expectTypeOf(options.queryFn).returns.resolves.toEqualTypeOf<ListCredentialsReturnType>();
  });

  it("the hash keeps nested fields and ignores the order of object keys", () => {
    const a = hashKey(["q", { b: 1, a: { y: [1, { d: 2, c: 3 }], x: "x" } }]);
    const b = hashKey(["q", { a: { x: "x", y: [1, { c: 3, d: 2 }] }, b: 1 }]);
    expect(a).toBe(b);
    // The previous key (`JSON.stringify(p, Object.keys(p).sort())`) dropped `x` and `y` here.
    expect(hashKey(["q", { a: { x: 1 } }])).not.toBe(hashKey(["q", { a: { x: 2 } }]));
    expect(hashKey(["q", { a: { x: 1 } }])).not.toBe(hashKey(["q", { a: {} }]));
    expect(hashKey(["q", { a: undefined, b: 1 }])).toBe(hashKey(["q", { b: 1 }]));
    expect(
      hashKey(transactionQueryKey({ transactionId: "t", pollingInterval: (n) => n * 100 })),
    ).toBe(hashKey(transactionQueryKey({ transactionId: "t" })));
  });

  it("a key matches a filter it starts with, objects by the fields the filter names", () => {
    const key = internalAccountsQueryKey({ customerId: "c", type: "EMBEDDED_WALLET" });
    expect(matchesKey(key, [])).toBe(true);
    expect(matchesKey(key, ["listInternalAccounts"])).toBe(true);
    expect(matchesKey(key, ["listInternalAccounts", { customerId: "c" }])).toBe(true);
    expect(matchesKey(key, ["listInternalAccounts", { customerId: "d" }])).toBe(false);
    expect(matchesKey(key, ["listCredentials"])).toBe(false);
    expect(matchesKey(["q", { a: { b: 1, c: 2 } }], ["q", { a: { b: 1 } }])).toBe(true);
    expect(matchesKey(["q", { a: { b: 1 } }], ["q", { a: { b: 2 } }])).toBe(false);
  });
});

describe("errors in hooks", () => {
  it("react's own codes are in core's one set, and a hook's error narrows details with code", () => {
    expectTypeOf<"PROVIDER_MISSING" | "UNEXPECTED_ERROR">().toExtend<KnownErrorCode>();
    const wait = (error: ExecuteQuoteErrorType | null) => {
      if (error === null) return 0;
      // @ts-expect-error: details are typed only once the code is known
      const unknownWait: number | undefined = error.details.retryAfterMs;
      if (error.code === "RATE_LIMITED") {
        // @ts-expect-error: details are closed: RATE_LIMITED carries no such field
        void error.details.somethingElse;
        // @ts-expect-error: nor another code's (SESSION_EXPIRED's)
        void error.details.sessionId;
        return error.details.retryAfterMs ?? 1_000;
      }
      if (error.code === "SESSION_EXPIRED") return error.details.sessionId.length;
      return unknownWait;
    };
    expectTypeOf(wait).returns.toEqualTypeOf<number | undefined>();
  });

  it("a hook's error is its action's error type or UNEXPECTED_ERROR (something else thrown), and nothing more", () => {
    type Failed = Extract<
      UseMutationReturnType<{ n: 1 }, string, VerifyOtpErrorType>,
      { isError: true }
    >;
    expectTypeOf<Failed["error"]>().toEqualTypeOf<VerifyOtpErrorType | UnexpectedErrorType>();
    const code = (failed: Failed) => failed.error.code;
    expectTypeOf<ReturnType<typeof code>>().toExtend<KnownErrorCode>();
    expectTypeOf<"UNEXPECTED_ERROR">().toExtend<ReturnType<typeof code>>();
    expectTypeOf<"ACCOUNT_LOCKED">().not.toExtend<ReturnType<typeof code>>();
    type QueryFailed = Extract<UseQueryReturnType<string, GetQuoteErrorType>, { isError: true }>;
    expectTypeOf<QueryFailed["error"]>().toEqualTypeOf<GetQuoteErrorType | UnexpectedErrorType>();
  });
});
