// Server rendering in plain Node (no DOM): the provider, useSession and every query hook render
// with react-dom/server; nothing browser-only runs at import or render, and no request is made.
import { readdirSync, readFileSync } from "node:fs";
import {
  createClient,
  type ExportWalletErrorType,
  type Session,
  type VerifyOtpErrorType,
} from "@signet/core";
import { renderToString } from "react-dom/server";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  SignetProvider,
  type UnexpectedErrorType,
  useCredentials,
  useDelegatedKey,
  useDelegatedKeys,
  type useExportWallet,
  useInternalAccounts,
  useQuote,
  useSession,
  useSessions,
  useTransaction,
  type useVerifyOtp,
} from "../src/index.js";

const ACCOUNT = "InternalAccount:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a10";

function Page() {
  const session = useSession({ accountId: ACCOUNT });
  const queries = [
    useCredentials({ accountId: ACCOUNT }),
    useSessions({ accountId: ACCOUNT }),
    useDelegatedKeys({ accountId: ACCOUNT }),
    useDelegatedKey({ delegatedKeyId: "DelegatedKey:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a11" }),
    useInternalAccounts({ customerId: "Customer:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a12" }),
    useQuote({ quoteId: "Quote:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a13" }),
    useTransaction({ transactionId: "Transaction:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a14" }),
  ];
  return (
    <p>
      {session.status}:{queries.map((q) => q.status).join(",")}
    </p>
  );
}

describe("server rendering", () => {
  it("renders the provider, useSession and every query hook without a DOM or a request", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    const requests: string[] = [];
    const client = createClient({
      relayUrl: "https://app.example/api/grid",
      fetch: async (input) => {
        requests.push(String(input));
        return new Response("{}");
      },
    });
    const html = renderToString(
      <SignetProvider client={client}>
        <Page />
      </SignetProvider>,
    );
    expect(html).toBe(`<p>loading<!-- -->:<!-- -->${Array(7).fill("pending").join(",")}</p>`);
    expect(requests).toEqual([]);
  });

  it('every hook module is a client module ("use client")', () => {
    const dir = new URL("../src/", import.meta.url);
    const modules = readdirSync(dir).filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".test.ts"));
    const hookModules = modules.filter((f) =>
      /\buse[A-Z]\w*\s*[=(]/.test(readFileSync(new URL(f, dir), "utf8")),
    );
    expect(hookModules.length).toBeGreaterThanOrEqual(4);
    for (const file of hookModules)
      expect(readFileSync(new URL(file, dir), "utf8").startsWith('"use client";'), file).toBe(true);
  });

  it("public types: data, variables and errors follow the core action's", () => {
    type Verify = ReturnType<typeof useVerifyOtp>;
    expectTypeOf<Verify["data"]>().toEqualTypeOf<Session | undefined>();
    expectTypeOf<Verify["error"]>().toEqualTypeOf<
      VerifyOtpErrorType | UnexpectedErrorType | null
    >();
    expectTypeOf<Parameters<Verify["mutate"]>[0]["otpCode"]>().toEqualTypeOf<string>();
    expectTypeOf<Verify["status"]>().toEqualTypeOf<"idle" | "pending" | "success" | "error">();
    type Export = ReturnType<typeof useExportWallet>;
    expectTypeOf<Awaited<ReturnType<Export["mutateAsync"]>>>().toEqualTypeOf<string>();
    expectTypeOf<Export["error"]>().toEqualTypeOf<
      ExportWalletErrorType | UnexpectedErrorType | null
    >();
    type Credentials = ReturnType<typeof useCredentials>;
    expectTypeOf<Credentials["status"]>().toEqualTypeOf<"pending" | "success" | "error">();
    expectTypeOf<Credentials["refetch"]>().returns.resolves.toBeVoid();
  });
});
