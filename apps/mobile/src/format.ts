// Amounts, times and states as people read them; shared by the screens.
import type { CurrencyJson } from "@signet/core";
import { useEffect, useState } from "react";

/** An amount in the currency's smallest unit: `$25.00 USDB`. */
export function formatMoney(
  amount: number | undefined,
  currency: CurrencyJson | undefined,
): string {
  if (amount === undefined) return "—";
  const decimals = currency?.decimals ?? 2;
  const value = (amount / 10 ** decimals).toFixed(Math.max(2, Math.min(decimals, 2)));
  return `${currency?.symbol ?? ""}${value} ${currency?.code ?? ""}`.trim();
}

/** The digits of a typed or pasted code (`"000 000"`, `"123-456"`), at most six. */
export const codeDigits = (typed: string) => typed.replace(/\D/g, "").slice(0, 6);

/** Whole seconds left until `until` (RFC 3339 or ms), rounded down, ticking. */
export function useSecondsLeft(until: string | number | undefined): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [until]);
  if (until === undefined) return undefined;
  const end = typeof until === "number" ? until : Date.parse(until);
  return Math.max(0, Math.floor((end - Math.max(now, Date.now() - 1000)) / 1000));
}

/** A short "when": `14:05`, or the date. */
export function when(iso: string | undefined): string {
  if (!iso) return "—";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "—";
  return at.toDateString() === new Date().toDateString()
    ? `today ${at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`
    : at.toLocaleString();
}

const STATES: Record<string, string> = {
  COMPLETED: "Completed",
  PROCESSING: "On its way",
  PENDING: "On its way",
  PENDING_AUTHORIZATION: "Waits for your confirmation",
  FAILED: "Failed",
  REJECTED: "Refused by the bank",
  REFUNDED: "Refunded",
  EXPIRED: "Expired",
};
export const stateInWords = (status: string) => STATES[status] ?? "In progress";

/** What each kind of sign-in method is called. */
export const METHOD_NAMES: Record<string, string> = {
  EMAIL_OTP: "Email code",
  SMS_OTP: "SMS code",
  PASSKEY: "Passkey",
  OAUTH: "Google login",
};
export const methodName = (type: string) => METHOD_NAMES[type] ?? "Another sign-in method";

/** The regions a new customer can pick, in words. */
export const REGION_NAMES: Record<string, string> = {
  US: "United States",
  DE: "Germany",
  FR: "France",
  NL: "Netherlands",
  IE: "Ireland",
  ES: "Spain",
};
