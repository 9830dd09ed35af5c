import { describe, expect, it } from "vitest";
import { SignetError } from "../errors.js";
import { toWebAuthnError } from "./errors.js";

describe("toWebAuthnError", () => {
  it("maps DOMException names, looking through a wrapper's cause first", () => {
    expect(toWebAuthnError(new DOMException("no", "NotAllowedError")).code).toBe(
      "WEBAUTHN_CANCELLED",
    );
    const wrapped = new Error("wrapped", { cause: new DOMException("dup", "InvalidStateError") });
    expect(toWebAuthnError(wrapped)).toMatchObject({
      code: "WEBAUTHN_INVALID_STATE",
      details: { name: "InvalidStateError" },
      cause: wrapped,
    });
    // A React Native adapter may throw a plain Error carrying the DOM name.
    const native = Object.assign(new Error("cancelled"), { name: "NotAllowedError" });
    expect(toWebAuthnError(native).code).toBe("WEBAUTHN_CANCELLED");
  });

  it("passes a SignetError through and never yields a code-less error", () => {
    const own = new SignetError("WEBAUTHN_UNSUPPORTED", "none");
    expect(toWebAuthnError(own)).toBe(own);
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(toWebAuthnError(new DOMException("odd", name)).code).toBe("WEBAUTHN_FAILED");
      expect(toWebAuthnError(Object.assign(new Error("odd"), { name })).code).toBe(
        "WEBAUTHN_FAILED",
      );
    }
    expect(toWebAuthnError("boom").code).toBe("WEBAUTHN_FAILED");
    expect(toWebAuthnError(undefined).code).toBe("WEBAUTHN_FAILED");
  });
});
