// A new email or phone is proved by a code before the device signs the change. The demo sends
// nothing: its code is the sandbox's public one, like the sign-in code.
import { type DemoRoute, EMAIL, ok } from "../context.js";
import { DemoError, readJson } from "../http.js";

/** The code that proves a new email or phone in the demo (public, like the sandbox's). */
const CONTACT_CODE = "000000";

export const contactRoutes: Record<string, DemoRoute> = {
  "POST /api/demo/contact/start": {
    signedIn: true,
    handle: async ({ request, ctx, user }) => {
      const { email, phoneNumber } = await readJson(request);
      let value: string;
      if (typeof email === "string" && phoneNumber === undefined) {
        value = email.trim().toLowerCase();
        if (value.length > 254 || !EMAIL.test(value))
          throw new DemoError(400, "INVALID_EMAIL", "Enter an email address like ada@example.com.");
      } else if (typeof phoneNumber === "string" && email === undefined) {
        value = phoneNumber.replace(/[\s().-]/g, "");
        if (!/^\+[1-9][0-9]{6,14}$/.test(value))
          throw new DemoError(
            400,
            "INVALID_PHONE",
            "Enter the number with its country code, like +14155550123.",
          );
      } else throw new DemoError(400, "INVALID_CONTACT", "Send either email or phoneNumber.");
      ctx.contactChecks.set(user.accountId, {
        kind: typeof email === "string" ? "email" : "phoneNumber",
        value,
        attempts: 0,
        verified: false,
        expiresAt: Date.now() + 10 * 60_000,
      });
      return ok({ sentTo: value });
    },
  },
  "POST /api/demo/contact/verify": {
    signedIn: true,
    handle: async ({ request, ctx, user }) => {
      const { code } = await readJson(request);
      const check = ctx.contactChecks.get(user.accountId);
      if (!check || check.expiresAt <= Date.now())
        throw new DemoError(
          409,
          "NO_CODE_PENDING",
          "No code is waiting for this change, or it expired.",
        );
      if (check.attempts >= 5)
        throw new DemoError(429, "TOO_MANY_CODES", "Five wrong codes: this one is used up.");
      if (typeof code !== "string" || code.replace(/\s/g, "") !== CONTACT_CODE) {
        check.attempts++;
        throw new DemoError(400, "WRONG_CODE", "That code is not the one we sent.");
      }
      check.verified = true;
      // Proved: once the device has signed the change, this address signs in to this customer.
      if (check.kind === "email") ctx.directory.expect(user.customerId, check.value);
      return ok({ kind: check.kind, value: check.value });
    },
  },
};
