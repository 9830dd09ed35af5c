// @vitest-environment happy-dom
// @signet/react's two codes carry no details (codes.ts): a hook outside the provider, and
// something that is not a SignetError thrown inside a hook's call.

import type { SignetError } from "@signet/core";
import { renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../../test/src/errorDetails.js";
import { useClient } from "../src/index.js";
import { asSignetError } from "../src/queryCache.js";

describe("@signet/react's codes", () => {
  it("PROVIDER_MISSING: a hook outside <SignetProvider>", () => {
    let error: unknown;
    try {
      renderHook(() => useClient());
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "PROVIDER_MISSING" });
    expectDocumentedDetails(error as SignetError);
  });

  it("UNEXPECTED_ERROR: what a hook's call threw that is not a SignetError, as the cause", () => {
    const thrown = new TypeError("an app callback failed");
    const error = asSignetError(thrown);
    expect(error).toMatchObject({ code: "UNEXPECTED_ERROR", cause: thrown });
    expectDocumentedDetails(error);
  });
});
