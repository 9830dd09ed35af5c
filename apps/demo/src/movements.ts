// Payments and deposits as the screens show them: read from the service's transactions, with
// their states in words.
import type { CurrencyJson, TransactionJson } from "@signet/core";

export type Money = { amount: number; currency: CurrencyJson | undefined };

/** A payment out of the wallet or money into it. */
export type Movement = {
  id: string;
  status: string;
  direction: "out" | "in";
  quoteId: string | undefined;
  sent: Money | undefined;
  received: Money | undefined;
  createdAt: string | undefined;
  settledAt: string | undefined;
};

const money = (value: unknown): Money | undefined => {
  if (typeof value !== "object" || value === null) return undefined;
  const { amount, currency } = value as { amount?: unknown; currency?: unknown };
  if (typeof amount !== "number") return undefined;
  return {
    amount,
    currency:
      typeof currency === "object" && currency !== null ? (currency as CurrencyJson) : undefined,
  };
};
const text = (value: unknown) => (typeof value === "string" ? value : undefined);

export function readMovement(tx: TransactionJson): Movement {
  return {
    id: tx.id,
    status: tx.status,
    direction: tx.direction === "CREDIT" || tx.type === "INCOMING" ? "in" : "out",
    quoteId: text(tx.quoteId),
    sent: money(tx.sentAmount),
    received: money(tx.receivedAmount),
    createdAt: text(tx.createdAt),
    settledAt: text(tx.settledAt),
  };
}

/** Newest first. */
export const newestFirst = (list: readonly TransactionJson[]): Movement[] =>
  list
    .map(readMovement)
    .sort((a, b) => String(b.createdAt ?? "").localeCompare(String(a.createdAt ?? "")));

/** The service's states, in words; anything new reads as "In progress", never as an enum. */
const STATES: Record<string, string> = {
  COMPLETED: "Completed",
  PROCESSING: "On its way",
  PENDING: "On its way",
  CREATED: "On its way",
  PENDING_AUTHORIZATION: "Waits for your confirmation",
  FAILED: "Failed",
  REJECTED: "Refused by the bank",
  REFUNDED: "Refunded",
  EXPIRED: "Expired",
};
export const stateInWords = (status: string) => STATES[status] ?? "In progress";

/** Whether the money is still moving (not settled or ended either way). */
export const isMoving = (status: string) =>
  status === "PROCESSING" || status === "PENDING" || status === "CREATED";

/** The demo's only payee: the bank account the demo server created for the customer. */
export const PAYEE = "Demo Payee (bank account ••6789)";
