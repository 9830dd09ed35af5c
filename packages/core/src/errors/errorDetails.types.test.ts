// Type tests (checked by `pnpm typecheck`): each code's `details` is closed, so narrowing on the
// code gives exactly its fields, and a field it does not carry, its own made up or another code's,
// does not compile. Each `@ts-expect-error` fails the type check if the line ever compiles.
import { describe, expectTypeOf, it } from "vitest";
import type { ExecuteQuoteErrorType } from "../actions/executeQuote.js";
import type { ScaLoginErrorType } from "../actions/scaLogin.js";
import {
  isSignetError,
  type KnownErrorCode,
  SignetError,
  type SignetErrorDetails,
  type SignetErrorDetailsMap,
  type SignetErrorOf,
} from "./errors.js";

/** Whether `T` has an index signature (an open record lets any field be read). */
type HasIndexSignature<T> = string extends keyof T ? true : false;

describe("closed error details", () => {
  it('after `e.code === "RATE_LIMITED"`, a field it does not carry is a type error', () => {
    const read = (e: ExecuteQuoteErrorType) => {
      if (e.code === "RATE_LIMITED") {
        expectTypeOf(e.details.retryAfterMs).toEqualTypeOf<number | undefined>();
        // @ts-expect-error: RATE_LIMITED carries no such field
        void e.details.somethingElse;
        // @ts-expect-error: nor ACCOUNT_LOCKED's `lockedUntil`
        void e.details.lockedUntil;
        // @ts-expect-error: nor PAYLOAD_MISMATCH's `field`
        void e.details.field;
        return e.details.retryAfterSeconds;
      }
      return undefined;
    };
    expectTypeOf(read).returns.toEqualTypeOf<number | undefined>();
  });

  it("another code's field stays its own", () => {
    const read = (e: ScaLoginErrorType) => {
      if (e.code === "ACCOUNT_LOCKED") return e.details.lockedUntil;
      if (e.code === "SCA_LOGIN_FAILED") {
        // @ts-expect-error: the lockout's field is ACCOUNT_LOCKED's alone
        void e.details.lockedUntil;
        return e.details.status;
      }
      return undefined;
    };
    expectTypeOf(read).returns.toEqualTypeOf<string | null | undefined>();
  });

  it("isSignetError with a code narrows details the same way", () => {
    const read = (error: unknown) => {
      if (isSignetError(error, "QUOTE_EXPIRED")) {
        // @ts-expect-error: QUOTE_EXPIRED names its quote only
        void error.details.retryAfterMs;
        return error.details.quoteId;
      }
      return undefined;
    };
    expectTypeOf(read).returns.toEqualTypeOf<string | undefined>();
  });

  it("an error of any code lets no field be read until the code is known", () => {
    const read = (error: SignetError) => {
      // @ts-expect-error: which fields there are depends on the code
      void error.details.retryAfterMs;
      return error.code;
    };
    expectTypeOf(read).toBeFunction();
  });

  it("no known code's details has an index signature; an unknown code's has", () => {
    type Open = {
      [TCode in KnownErrorCode]: HasIndexSignature<SignetErrorDetailsMap[TCode]> extends true
        ? TCode
        : never;
    }[KnownErrorCode];
    expectTypeOf<Open>().toEqualTypeOf<never>();
    expectTypeOf<HasIndexSignature<SignetErrorDetails<"SOME_NEWER_CODE">>>().toEqualTypeOf<true>();
  });

  it("a union of codes narrows to each one's details", () => {
    const pick = (e: SignetErrorOf<"NETWORK" | "SESSION_EXPIRED">) =>
      e.code === "NETWORK" ? e.details.sent : e.details.sessionId;
    expectTypeOf(pick).returns.toEqualTypeOf<boolean | string | undefined>();
    // @ts-expect-error: a made-up field is refused when the error is made, too
    new SignetError("NETWORK", "down", { details: { sent: false, host: "relay" } });
  });
});
