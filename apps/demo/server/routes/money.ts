// Money: test funds, a quote to the demo payee, the customer's activity and the wallet's details
// for whoever pays into it. Funding and quotes check first that the device's wallet session still
// stands, so a device revoked elsewhere hears it before it prepares a payment it cannot sign.
import { type DemoRoute, ok, requireLiveSession } from "../context.js";
import { DemoError, readJson } from "../http.js";

const amountOf = (amount: unknown, message: string): number => {
  if (!Number.isSafeInteger(amount) || (amount as number) <= 0 || (amount as number) > 1e12)
    throw new DemoError(400, "INVALID_AMOUNT", message);
  return amount as number;
};

export const moneyRoutes: Record<string, DemoRoute> = {
  "POST /api/demo/fund": {
    signedIn: true,
    handle: async ({ request, ctx, user }) => {
      const body = await readJson(request);
      const amount = amountOf(
        body.amount,
        "Fund a positive whole amount in the wallet's smallest unit.",
      );
      await requireLiveSession(ctx, user, body.sessionId);
      await ctx.platform("POST", `/sandbox/internal-accounts/${user.accountId}/fund`, { amount });
      return ok({ funded: amount });
    },
  },
  "POST /api/demo/quote": {
    signedIn: true,
    handle: async ({ request, ctx, user }) => {
      const body = await readJson(request);
      const amount = amountOf(body.amount, "Enter an amount above zero.");
      const { scaFactor } = body;
      if (scaFactor !== undefined && scaFactor !== "SMS_OTP" && scaFactor !== "PASSKEY")
        throw new DemoError(400, "INVALID_SCA_FACTOR", "Pick an SMS code or a passkey.");
      await requireLiveSession(ctx, user, body.sessionId);
      let externalId = ctx.externalAccounts.get(user.accountId);
      if (!externalId) {
        const external = await ctx.platform<{ id: string }>(
          "POST",
          "/customers/external-accounts",
          {
            customerId: user.customerId,
            currency: "USD",
            accountInfo: {
              accountType: "USD_ACCOUNT",
              accountNumber: "000123456789",
              routingNumber: "021000021",
              bankAccountType: "CHECKING",
              beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Demo Payee" },
            },
          },
        );
        externalId = external.id;
        ctx.externalAccounts.set(user.accountId, externalId);
      }
      const quote = await ctx.platform<unknown>("POST", "/quotes", {
        source: { sourceType: "ACCOUNT", accountId: user.accountId },
        destination: { destinationType: "ACCOUNT", accountId: externalId },
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: amount,
        // How an EU customer prefers to confirm the payment (SCA); others are not asked.
        ...(scaFactor ? { scaFactor } : {}),
      });
      return ok(quote);
    },
  },
  "GET /api/demo/activity": {
    signedIn: true,
    handle: async ({ ctx, user }) => {
      // The customer's payments and deposits, read with the platform's credentials: newest
      // first, the fields the activity screen shows.
      const { data } = await ctx.platform<{ data: Array<Record<string, unknown>> }>(
        "GET",
        `/transactions?customerId=${encodeURIComponent(user.customerId)}`,
      );
      const items = data
        .map((tx) => ({
          id: tx.id,
          status: tx.status,
          direction: tx.direction,
          ...(tx.quoteId ? { quoteId: tx.quoteId } : {}),
          sentAmount: tx.sentAmount,
          receivedAmount: tx.receivedAmount,
          createdAt: tx.createdAt,
          ...(tx.settledAt ? { settledAt: tx.settledAt } : {}),
        }))
        .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
      return ok({ data: items });
    },
  },
  "GET /api/demo/receive": {
    signedIn: true,
    handle: async ({ ctx, user }) => {
      const [{ data }, contact] = await Promise.all([
        ctx.platform<{ data: Array<Record<string, unknown>> }>(
          "GET",
          `/customers/internal-accounts?customerId=${encodeURIComponent(user.customerId)}&type=EMBEDDED_WALLET`,
        ),
        ctx.platform<{ email?: string }>(
          "GET",
          `/customers/${encodeURIComponent(user.customerId)}`,
        ),
      ]);
      const wallet = data.find((a) => a.id === user.accountId) ?? data[0];
      return ok({
        accountId: user.accountId,
        customerId: user.customerId,
        holder: contact.email ?? "",
        ...(wallet?.balance
          ? { currency: (wallet.balance as { currency?: unknown }).currency }
          : {}),
        ...(wallet?.fundingPaymentInstructions
          ? { instructions: wallet.fundingPaymentInstructions }
          : {}),
      });
    },
  },
};
