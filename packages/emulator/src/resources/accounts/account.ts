// Internal accounts as the service holds them (docs/protocol.md §3): the currencies the emulator
// knows, a wallet's Spark address and funding instructions, the InternalAccount JSON, the
// platform's own accounts, and the wallet each customer gets. Each route on accounts is a module
// of its own beside this one (./index.ts lists them).

import { isoTime } from "../../clock.js";
import { generateMnemonic, sha256Hex } from "../../crypto/index.js";
import { notFound } from "../../http/errors.js";
import type { Runtime } from "../../runtime.js";
import type {
  BalanceAccount,
  Currency,
  InternalAccountRecord,
  PlatformAccountRecord,
} from "../../state.js";

/** The currencies the emulator knows, with a USD value per major unit (for quotes). */
export const CURRENCIES: Readonly<Record<string, Currency & { usdPerUnit: number }>> = {
  USDB: { code: "USDB", name: "USDB", symbol: "$", decimals: 6, usdPerUnit: 1 },
  USDC: { code: "USDC", name: "USD Coin", symbol: "$", decimals: 6, usdPerUnit: 1 },
  USD: { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2, usdPerUnit: 1 },
  EUR: { code: "EUR", name: "Euro", symbol: "€", decimals: 2, usdPerUnit: 1.08 },
  MXN: { code: "MXN", name: "Mexican Peso", symbol: "$", decimals: 2, usdPerUnit: 0.055 },
  BRL: { code: "BRL", name: "Brazilian Real", symbol: "R$", decimals: 2, usdPerUnit: 0.18 },
};

/** The currency object as it travels (without the emulator's rate). */
export function currencyJson(code: string): Currency {
  const c = CURRENCIES[code];
  if (!c) return { code, name: code, decimals: 2 };
  return {
    code: c.code,
    name: c.name,
    ...(c.symbol ? { symbol: c.symbol } : {}),
    decimals: c.decimals,
  };
}

/** The emulator's Spark address for an account or a quote (nothing watches it). */
export function sparkAddress(of: string): string {
  return `sprt1emu${sha256Hex(of).slice(0, 52)}`;
}

/**
 * Where to send `currency` to fund `of` (an account or a quote), as the service's
 * PaymentInstructions: a USD bank account (ACH or wire, with the reference to quote), or a
 * Spark address for the stablecoins. `undefined` for a currency the emulator has no rail for.
 */
export function fundingInstruction(
  of: string,
  currency: string,
  isPlatformAccount: boolean,
): Record<string, unknown> | undefined {
  const digest = sha256Hex(of);
  if (currency === "USD") {
    const reference = `EMU-${digest.slice(0, 10).toUpperCase()}`;
    return {
      instructionsNotes: `Include reference ${reference} in the memo (emulated; POST /sandbox/send stands for the transfer).`,
      isPlatformAccount,
      accountOrWalletInfo: {
        accountType: "USD_ACCOUNT",
        paymentRails: ["ACH", "WIRE"],
        accountNumber: String(BigInt(`0x${digest.slice(0, 12)}`) % 10_000_000_000n).padStart(
          10,
          "0",
        ),
        routingNumber: "021000021",
        bankName: "Emulated Bank",
        reference,
      },
    };
  }
  if (currency === "USDB" || currency === "USDC") {
    return {
      instructionsNotes: `Send ${currency} on Spark to this address (emulated; nothing is watched).`,
      isPlatformAccount,
      accountOrWalletInfo: {
        accountType: "SPARK_WALLET",
        assetType: currency,
        address: sparkAddress(of),
      },
    };
  }
  return undefined;
}

/** The InternalAccount JSON (a platform account has no `customerId`). */
export function internalAccountJson(account: BalanceAccount): Record<string, unknown> {
  const balance = { amount: account.balance, currency: account.currency };
  const body: Record<string, unknown> = { id: account.id };
  if (account.customerId !== undefined) body.customerId = account.customerId;
  const platform = account.customerId === undefined;
  const instruction =
    account.type === "EMBEDDED_WALLET"
      ? {
          instructionsNotes: "Send USDB on Spark to this address (emulated; nothing is watched).",
          accountOrWalletInfo: {
            accountType: "SPARK_WALLET",
            assetType: "USDB",
            address: sparkAddress(account.id),
          },
        }
      : fundingInstruction(account.id, account.currency.code, platform);
  return {
    ...body,
    type: account.type,
    status: account.status,
    balance,
    totalBalance: balance,
    fundingPaymentInstructions: instruction ? [instruction] : [],
    ...(account.type === "EMBEDDED_WALLET" ? { privateEnabled: account.privateEnabled } : {}),
    createdAt: isoTime(account.createdAt),
    updatedAt: isoTime(account.updatedAt),
  };
}

/** The platform's accounts: one per currency, fiat or crypto (docs/protocol.md §12). */
const PLATFORM_CURRENCIES: readonly [string, PlatformAccountRecord["type"]][] = [
  ["USD", "INTERNAL_FIAT"],
  ["EUR", "INTERNAL_FIAT"],
  ["MXN", "INTERNAL_FIAT"],
  ["BRL", "INTERNAL_FIAT"],
  ["USDC", "INTERNAL_CRYPTO"],
  ["USDB", "INTERNAL_CRYPTO"],
];

function uuidOf(text: string): string {
  const h = sha256Hex(text);
  const variant = ((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The platform's accounts, made on first use with a zero balance. Their ids derive from the
 * organization id, not the id sequence, so a seeded run's other ids do not move.
 */
export function platformAccounts(rt: Runtime): PlatformAccountRecord[] {
  const map = rt.state.platformAccounts;
  if (map.size === 0) {
    const now = rt.clock.now();
    for (const [code, type] of PLATFORM_CURRENCIES) {
      const id = `InternalAccount:${uuidOf(`signet-emulator:platform:${rt.keys.organizationId}:${code}`)}`;
      map.set(id, {
        id,
        customerId: undefined,
        type,
        status: "ACTIVE",
        currency: currencyJson(code),
        balance: 0,
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  return [...map.values()];
}

/** A wallet or platform account by id (`undefined` when neither). */
export function findBalanceAccount(rt: Runtime, accountId: string): BalanceAccount | undefined {
  if (rt.state.accounts.has(accountId)) return rt.state.accounts.get(accountId);
  platformAccounts(rt);
  return rt.state.platformAccounts.get(accountId);
}

/** Provisions an `EMBEDDED_WALLET` account in USDB with a stable mnemonic. */
export function provisionWallet(rt: Runtime, customerId: string): InternalAccountRecord {
  const now = rt.clock.now();
  const account: InternalAccountRecord = {
    id: rt.ids.next("InternalAccount"),
    customerId,
    type: "EMBEDDED_WALLET",
    status: "ACTIVE",
    currency: currencyJson("USDB"),
    balance: 0,
    mnemonic: generateMnemonic(rt.ids.entropy("mnemonic", 16)),
    privateEnabled: false,
    createdAt: now,
    updatedAt: now,
  };
  rt.state.accounts.set(account.id, account);
  return account;
}

/** An internal account by id, 404 otherwise. */
export function getAccount(rt: Runtime, accountId: string): InternalAccountRecord {
  const account = rt.state.accounts.get(accountId);
  if (!account) throw notFound("Internal account", accountId);
  return account;
}
