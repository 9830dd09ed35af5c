// The per-action error unions (catalog/errorCodes.ts, from the rows' `errors`) checked at run time: the generated per-
// operation codes are the OpenAPI's, each row knows every request the table of actions lists,
// and every code the emulator (which plays the service) can answer on an action's route is in
// that action's union. The type tests (types.test.ts) check the unions themselves.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, it } from "vitest";
import { ALLOWED_DEVIATIONS } from "../../../test/src/openapi.js";
import { operationErrorTables } from "../../../test/src/operationErrorCodes.js";
import type { ServiceErrorCode } from "../errors/errors.js";
import {
  ERROR_SCHEMA_CODES,
  OPERATION_ERROR_SCHEMAS,
  type ServiceOperation,
} from "../transport/operationErrorCodes.js";
import { RELAY_ERROR_STATUS } from "../transport/protocol.js";
import { actionErrors, actionTable } from "./actionTable.js";
import type { ActionErrorRow } from "./errorCodes.js";

// `ServiceErrorCode` at run time; the type test below holds the two equal.
const SERVICE = {
  INVALID_INPUT: true,
  UNAUTHORIZED: true,
  INVALID_SIGNATURE: true,
  WALLET_SIGNATURE_MISSING: true,
  WALLET_SIGNATURE_MALFORMED: true,
  WALLET_SIGNATURE_BODY_MISMATCH: true,
  WALLET_SIGNATURE_INVALID: true,
  REQUEST_ID_MISSING: true,
  FORBIDDEN: true,
  USER_NOT_READY: true,
  VELOCITY_LIMIT_EXCEEDED: true,
  RATE_LIMITED: true,
  DAILY_VOLUME_LIMIT_EXCEEDED: true,
  REFERENCE_NOT_FOUND: true,
  QUOTE_NOT_FOUND: true,
  TRANSACTION_NOT_FOUND: true,
  USER_NOT_FOUND: true,
  CUSTOMER_DELETED: true,
  CONFLICT: true,
  SCA_SESSION_REQUIRED: true,
  PASSKEY_ALREADY_ENROLLED: true,
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: true,
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: true,
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: true,
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: true,
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: true,
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: true,
  SMS_OTP_PHONE_ALREADY_EXISTS: true,
  SMS_OTP_CREDENTIAL_SET_CHANGED: true,
  SMS_OTP_CREDENTIAL_SYNC_FAILED: true,
  CONTACT_CHANGE_PENDING: true,
  CONTACT_CHANGE_NOT_AWAITING_SIGNATURE: true,
  AUTH_CREDENTIAL_OPERATION_IN_FLIGHT: true,
  INSUFFICIENT_FUNDS: true,
  QUOTE_REQUEST_FAILED: true,
  TRANSACTION_SIZE_LIMIT_EXCEEDED: true,
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: true,
  ACCOUNT_LOCKED: true,
  END_USER_TERMS_NOT_ACCEPTED: true,
  INVALID_STATE_TRANSITION: true,
  NOT_IMPLEMENTED: true,
  GRID_SWITCH_ERROR: true,
  INTERNAL_ERROR: true,
} as const satisfies Record<ServiceErrorCode, true>;
const isService = (code: string) => Object.hasOwn(SERVICE, code);

/**
 * Spec codes the emulator answers only on operations no action calls, so no action's union needs
 * them (ServiceErrorCode keeps to what a wallet path answers).
 */
const PLATFORM_ONLY: Record<string, string> = {
  SELF_PAYMENT: "POST /quotes (quote creation, the platform's backend): resources/quotes/create.ts",
  AMOUNT_OUT_OF_RANGE:
    "POST /quotes (quote creation, the platform's backend): resources/quotes/create.ts",
  INVALID_CURRENCY:
    "POST /quotes (quote creation, the platform's backend): resources/quotes/create.ts",
  BENEFICIARY_TRUSTED:
    "DELETE /customers/external-accounts/{externalAccountId} (the platform's backend; no action deletes an account): resources/accounts/external.ts",
};

// Each action's codes, as its row lists them (the generator matched the operations to the OpenAPI).
const rows = actionErrors as Record<string, ActionErrorRow>;
const codesOf = (operation: ServiceOperation): string[] =>
  OPERATION_ERROR_SCHEMAS[operation].flatMap((schema) => [...ERROR_SCHEMA_CODES[schema]]);

/** What the action's union holds at run time, as `ActionErrorCode` builds it. */
function unionOf(row: ActionErrorRow): Set<string> {
  return new Set<string>([
    ...row.operations.flatMap(codesOf).filter(isService),
    ...(row.undocumented ?? []),
    ...(row.relay ? Object.keys(RELAY_ERROR_STATUS) : []),
    ...row.client,
  ]);
}

// `{AuthMethod}` in the table, `{id}` in the OpenAPI: both are one segment.
const shape = (operation: string) => operation.replace(/\{[^}]+\}/g, "{}");

function emulatorSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "testing" ? [] : emulatorSources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("per-action error codes", () => {
  it("the generated per-operation codes are the OpenAPI's (run the generator when this fails)", () => {
    // pnpm exec tsx packages/test/src/operationErrorCodes.ts
    const tables = operationErrorTables();
    expect(ERROR_SCHEMA_CODES).toEqual(tables.schemas);
    expect(OPERATION_ERROR_SCHEMAS).toEqual(tables.operations);
  });

  it("ServiceErrorCode holds only codes the OpenAPI lists, or a known deviation", () => {
    expectTypeOf<keyof typeof SERVICE>().toEqualTypeOf<ServiceErrorCode>();
    const documented = new Set<string>(Object.values(ERROR_SCHEMA_CODES).flat());
    const deviations = new Set(ALLOWED_DEVIATIONS.map((deviation) => deviation.code));
    const invented = Object.keys(SERVICE).filter(
      (code) => !documented.has(code) && !deviations.has(code),
    );
    expect(invented).toEqual([]);
  });

  it("has a row for every action of the table, naming every request it makes", () => {
    expect(Object.keys(rows).sort()).toEqual(Object.keys(actionTable).sort());
    for (const [name, action] of Object.entries(actionTable)) {
      const listed = new Set(rows[name]?.operations.map(shape));
      const missing = action.requests
        .map((request) => shape(`${request.method} ${request.path}`))
        .filter((operation) => !listed.has(operation));
      expect(missing, name).toEqual([]);
    }
  });

  it("every signed action can refuse a payload, and only a signed action can", () => {
    for (const [name, action] of Object.entries(actionTable)) {
      const signed = action.requests.some((request) => "signed" in request);
      const codes = unionOf(rows[name] as ActionErrorRow);
      if (signed) expect(codes.has("PAYLOAD_MISMATCH"), name).toBe(true);
      const bySession = action.requests.some(
        (request) => "signed" in request && request.signed.signer === "session",
      );
      expect(codes.has("NO_SESSION"), name).toBe(bySession);
    }
  });

  it("an answer the OpenAPI allows beyond its schema is in the action's union", () => {
    for (const deviation of ALLOWED_DEVIATIONS) {
      const operation = shape(`${deviation.method} ${deviation.path}`);
      for (const [name, row] of Object.entries(rows)) {
        if (!row.operations.some((op) => shape(op) === operation)) continue;
        expect(unionOf(row).has(deviation.code), `${name}: ${deviation.code}`).toBe(true);
      }
    }
  });

  it("every code the emulator can answer on an action's route is in that action's union", () => {
    // The stack's OpenAPI judge (test/support/stack.ts) holds each emulator answer to its
    // operation's documented codes; here each documented code the emulator's source can answer
    // must be in the union of every action calling that operation.
    const root = fileURLToPath(new URL("../../../emulator/src", import.meta.url));
    const text = emulatorSources(root)
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    // Codes in the places a code is written: `new ServiceError(status, "CODE"`, a helper's code
    // argument (`notFound(…, "USER_NOT_FOUND")`), `code: "CODE"` and `code === "CODE"`.
    const answered = new Set(
      [
        ...text.matchAll(/ServiceError\(\s*\d{3},\s*"([A-Z][A-Z0-9_]+)"/g),
        ...text.matchAll(/notFound\([^)]*"([A-Z][A-Z0-9_]+)"\)/g),
        ...text.matchAll(/\bcode(?::|\s*===)\s*"([A-Z][A-Z0-9_]+)"/g),
      ].map((match) => match[1] ?? ""),
    );
    // The helpers' defaults (http/errors.ts): notFound, invalidInput, requestIdRefused, rateLimited.
    for (const code of ["REFERENCE_NOT_FOUND", "INVALID_INPUT", "UNAUTHORIZED", "RATE_LIMITED"]) {
      expect(answered.has(code), code).toBe(true);
    }
    const outside: string[] = [];
    for (const [name, row] of Object.entries(rows)) {
      const union = unionOf(row);
      for (const operation of row.operations) {
        for (const code of codesOf(operation)) {
          if (!answered.has(code) || union.has(code) || code in PLATFORM_ONLY) continue;
          outside.push(`${name} (${operation}): ${code}`);
        }
      }
    }
    expect(outside).toEqual([]);
    for (const code of Object.keys(PLATFORM_ONLY)) expect(answered.has(code), code).toBe(true);
  });
});
