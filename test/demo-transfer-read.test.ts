// The demo's rule for offering "Sign and send" (apps/demo/src/send/transferRead.ts), on the
// service's own Quote example (the vendored corpus) and on payloads a compromised backend could
// pass off as the quote's: a payload the device cannot read as a transfer of this quote is never
// offered for signing, and the documented one is.
import type { QuoteJson } from "@signet/core";
import { describe, expect, it } from "vitest";
import { isTransfer, payloadMatches, summarise } from "../apps/demo/src/send/transferRead.js";
import { loadCorpus } from "../packages/test/src/corpus.js";

const corpus = loadCorpus();
const documented = corpus.entries.find(
  (e) => e.id === "openapi/PaymentEmbeddedWalletInfo/payloadToSign",
)?.quote as unknown as QuoteJson;
const privacyPayload = corpus.entries.find(
  (e) => e.id === "openapi/updateInternalAccount/challenge",
)?.challenges[0]?.payloadToSign as string;

const hex = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("hex");

/** The quote with another payload in its wallet instruction. */
function carrying(payloadToSign: string, quote: QuoteJson = documented): QuoteJson {
  return {
    ...quote,
    paymentInstructions: [
      {
        accountOrWalletInfo: { accountType: "EMBEDDED_WALLET", payloadToSign },
      },
    ],
  } as QuoteJson;
}

/** A transfer whose transaction is readable (hex of UTF-8 JSON), as the emulator writes it. */
const readableTransfer = (
  transaction: Record<string, unknown>,
  type = "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
) =>
  JSON.stringify({
    organizationId: "org_abc123",
    parameters: {
      signWith: "wallet_abc123def456",
      type: "TRANSACTION_TYPE_ETHEREUM",
      unsignedTransaction: hex(transaction),
    },
    timestampMs: "1746736509954",
    type,
  });

const ownTransaction = {
  quoteId: documented.id,
  amount: String(documented.totalSendingAmount),
  currency: documented.sendingCurrency?.code,
  destination: documented.destination?.accountId,
};

describe("the demo offers 'Sign and send' only for a transfer of the quote shown", () => {
  it("the service's documented quote (an opaque transaction) is offered", () => {
    expect(documented).toBeDefined();
    expect(isTransfer(summarise(documented))).toBe(true);
    expect(payloadMatches(documented)).toBe(true);
  });

  it("a readable transfer naming this quote, its amount, currency and payee is offered", () => {
    expect(payloadMatches(carrying(readableTransfer(ownTransaction)))).toBe(true);
    // Amounts as a number are the same amount.
    expect(
      payloadMatches(
        carrying(readableTransfer({ ...ownTransaction, amount: documented.totalSendingAmount })),
      ),
    ).toBe(true);
  });

  it("a wallet privacy change's payload (the documented raw payload) is not a transfer: never offered", () => {
    const quote = carrying(privacyPayload);
    const summary = summarise(quote);
    expect(summary?.activityType).toBe("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2");
    expect(isTransfer(summary)).toBe(false);
    expect(payloadMatches(quote)).toBe(false);
  });

  it("a raw payload whose bytes read as a privacy change (nothing for Amount, To, Quote) is not offered", () => {
    const raw = JSON.stringify({
      organizationId: "org_abc123",
      parameters: {
        encoding: "PAYLOAD_ENCODING_HEXADECIMAL",
        hashFunction: "HASH_FUNCTION_NO_OP",
        payload: hex({ internalAccountId: documented.source?.accountId, privateEnabled: true }),
        signWith: "sp1q...",
      },
      timestampMs: "1775681700000",
      type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
    });
    const quote = carrying(raw);
    expect(summarise(quote)?.readable).toBe(true);
    expect(payloadMatches(quote)).toBe(false);
  });

  it("a readable transfer that names no quote, another quote, amount, currency or payee is not offered", () => {
    const { quoteId: _, ...noQuote } = ownTransaction;
    for (const transaction of [
      noQuote,
      { ...ownTransaction, quoteId: "Quote:019542f5-b3e7-1d02-0000-00000000dead" },
      { ...ownTransaction, amount: "300000000" },
      { ...ownTransaction, currency: "EUR" },
      { ...ownTransaction, destination: "ExternalAccount:00000000-0000-4000-8000-000000000bad" },
    ])
      expect(payloadMatches(carrying(readableTransfer(transaction)))).toBe(false);
  });

  it("the transfer's fields under another activity type are not a transfer", () => {
    const quote = carrying(readableTransfer(ownTransaction, "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"));
    expect(payloadMatches(quote)).toBe(false);
  });

  it("a quote without a wallet instruction offers nothing to sign", () => {
    const quote = { ...documented, paymentInstructions: [] } as QuoteJson;
    expect(summarise(quote)).toBeUndefined();
    expect(payloadMatches(quote)).toBe(false);
  });
});
