// The contact a user confirmed, checked as an argument: a contact change sends it, and adding an
// email or SMS credential checks the payload against it. Here, not in `arguments.ts`: only the
// wallet actions, which load on first use, check one.

import { assertArgument } from "../errors/errors.js";
import { shown } from "./fieldArguments.js";

/**
 * Checks an email address (`ada@example.com`).
 * @throws {SignetError} `INVALID_ARGUMENT`.
 */
export function assertEmail(value: unknown): asserts value is string {
  assertArgument(
    typeof value === "string" && /^[^\s@]+@[^\s@]+$/.test(value),
    "email",
    "an email address",
    typeof value,
  );
}

/**
 * Checks an E.164 phone number (`+14155550100`).
 * @throws {SignetError} `INVALID_ARGUMENT`.
 */
export function assertPhoneNumber(value: unknown): asserts value is string {
  assertArgument(
    typeof value === "string" && /^\+[1-9]\d{1,14}$/.test(value),
    "phoneNumber",
    "an E.164 number such as +14155550100",
    shown(value),
  );
}
