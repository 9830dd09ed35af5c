// toWebAuthnError on its own: the DOM names with no library diagnosis (a custom provider, a React
// Native adapter's plain errors), the codes no provider here can reach, and the context rules.
// test/webauthn/errors.test.ts runs the same table through @simplewebauthn/browser.
import { WebAuthnError } from "@simplewebauthn/browser";
import { describe, expect, it } from "vitest";
import { detailOf, SignetError } from "../errors/errors.js";
import { toWebAuthnError, type WebAuthnFailureContext } from "./errors.js";

const registration: WebAuthnFailureContext = {
  ceremony: "registration",
  options: {
    rp: { id: "localhost", name: "Demo" },
    user: { id: "AQI", name: "ada", displayName: "Ada" },
    challenge: "AAAA",
    pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    timeout: 60_000,
    authenticatorSelection: { residentKey: "required" },
  },
  hostname: "localhost",
};
const authentication: WebAuthnFailureContext = {
  ceremony: "authentication",
  options: { challenge: "AAAA", rpId: "localhost", timeout: 30_000 },
  hostname: "localhost",
};

describe("toWebAuthnError", () => {
  // [DOM name, context, expected code] for a bare DOMException (no library diagnosis).
  const table: [string, WebAuthnFailureContext | undefined, string][] = [
    ["NotAllowedError", undefined, "WEBAUTHN_CANCELLED"],
    ["NotAllowedError", { ...registration, elapsedMs: 1_000 }, "WEBAUTHN_CANCELLED"],
    ["NotAllowedError", { ...registration, elapsedMs: 60_000 }, "WEBAUTHN_TIMEOUT"],
    ["NotAllowedError", { ...authentication, elapsedMs: 30_100 }, "WEBAUTHN_TIMEOUT"],
    ["NotAllowedError", { ...authentication, elapsedMs: 29_000 }, "WEBAUTHN_CANCELLED"],
    [
      "NotAllowedError",
      { ...authentication, conditional: true, elapsedMs: 900_000 },
      "WEBAUTHN_CANCELLED",
    ],
    ["AbortError", registration, "WEBAUTHN_CANCELLED"],
    ["AbortError", undefined, "WEBAUTHN_CANCELLED"],
    ["InvalidStateError", registration, "WEBAUTHN_INVALID_STATE"],
    ["InvalidStateError", authentication, "WEBAUTHN_INVALID_STATE"],
    ["SecurityError", undefined, "WEBAUTHN_SECURITY"],
    ["SecurityError", registration, "WEBAUTHN_SECURITY"],
    ["SecurityError", { ...registration, hostname: "10.0.0.2" }, "WEBAUTHN_DOMAIN_INVALID"],
    ["SecurityError", { ...registration, hostname: "[::1]" }, "WEBAUTHN_DOMAIN_INVALID"],
    ["SecurityError", { ...authentication, hostname: "evil.test" }, "WEBAUTHN_RP_ID_INVALID"],
    // One label other than localhost is no domain; a host ending in "notlocalhost" is no subdomain.
    ["SecurityError", { ...authentication, hostname: "notlocalhost" }, "WEBAUTHN_DOMAIN_INVALID"],
    [
      "SecurityError",
      { ...authentication, hostname: "a.notlocalhost.test" },
      "WEBAUTHN_RP_ID_INVALID",
    ],
    [
      "SecurityError",
      { ...authentication, platform: "ios", hostname: undefined },
      "WEBAUTHN_RP_ID_INVALID",
    ],
    [
      "SecurityError",
      { ...registration, platform: "android", hostname: undefined },
      "WEBAUTHN_RP_ID_INVALID",
    ],
    ["ConstraintError", registration, "WEBAUTHN_UNSUPPORTED"],
    ["ConstraintError", undefined, "WEBAUTHN_UNSUPPORTED"],
    ["NotSupportedError", registration, "WEBAUTHN_UNSUPPORTED"],
    ["TypeError", registration, "WEBAUTHN_FAILED"],
    ["UnknownError", authentication, "WEBAUTHN_FAILED"],
    ["InvalidCharacterError", registration, "ENCODING_INVALID"],
    ["DataError", registration, "WEBAUTHN_FAILED"],
  ];

  it.each(table)("%s in %o is %s", (name, context, code) => {
    const thrown = new DOMException("browser text", name);
    const error = toWebAuthnError(thrown, context);
    expect(error.code).toBe(code);
    expect(error.cause).toBe(thrown);
    expect(error.retryable).toBe(code === "WEBAUTHN_TIMEOUT");
    expect(error.message).not.toContain("browser text");
    if (["NotAllowedError", "SecurityError", "InvalidStateError"].includes(name))
      expect(detailOf(error, "name")).toBe(name);
  });

  it("names the host, the RP id or the files to fix in a domain failure's message", () => {
    const security = new DOMException("", "SecurityError");
    expect(toWebAuthnError(security, { ...authentication, hostname: "evil.test" }).message).toBe(
      'The relying party id "localhost" does not cover "evil.test": use this site\'s domain',
    );
    for (const platform of ["ios", "android"] as const)
      expect(toWebAuthnError(security, { ...authentication, platform }).message).toBe(
        'This app is not associated with "localhost" (apple-app-site-association, assetlinks.json)',
      );
    expect(toWebAuthnError(security, { ...registration, hostname: "10.0.0.2" }).message).toBe(
      'Passkeys need a domain name, not "10.0.0.2"',
    );
  });

  it("keeps the library's code for the codes no provider here can reach", () => {
    const conditionalCreate = new WebAuthnError({
      message: "uv",
      code: "ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE",
      cause: new DOMException("uv", "ConstraintError"),
    });
    expect(toWebAuthnError(conditionalCreate, registration)).toMatchObject({
      code: "WEBAUTHN_UNSUPPORTED",
      cause: conditionalCreate,
      details: {
        webauthnCode: "ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE",
        name: "ConstraintError",
      },
    });
    const signal = new WebAuthnError({
      message: "bad",
      code: "ERROR_SIGNAL_INVALID_ARGUMENT",
      name: "TypeError",
      cause: new TypeError("bad"),
    });
    expect(toWebAuthnError(signal, authentication)).toMatchObject({
      code: "WEBAUTHN_FAILED",
      details: { webauthnCode: "ERROR_SIGNAL_INVALID_ARGUMENT" },
    });
  });

  it("looks through a wrapper's cause; a plain Error carrying a DOM name maps by that name", () => {
    const wrapped = new Error("wrapped", { cause: new DOMException("dup", "InvalidStateError") });
    expect(toWebAuthnError(wrapped, registration)).toMatchObject({
      code: "WEBAUTHN_INVALID_STATE",
      details: { name: "InvalidStateError", ceremony: "registration" },
      cause: wrapped,
    });
    const native = Object.assign(new Error("cancelled"), { name: "NotAllowedError" });
    expect(toWebAuthnError(native).code).toBe("WEBAUTHN_CANCELLED");
  });

  it("passes a SignetError through and never yields a code-less error", () => {
    const own = new SignetError("WEBAUTHN_UNSUPPORTED", "none");
    expect(toWebAuthnError(own, registration)).toBe(own);
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(toWebAuthnError(new DOMException("odd", name)).code).toBe("WEBAUTHN_FAILED");
      expect(toWebAuthnError(Object.assign(new Error("odd"), { name })).code).toBe(
        "WEBAUTHN_FAILED",
      );
    }
    // A `code` that is not the library's shape is not taken for its diagnosis.
    expect(toWebAuthnError(Object.assign(new Error("x"), { code: "EPERM" })).details).toEqual({});
    expect(toWebAuthnError("boom").code).toBe("WEBAUTHN_FAILED");
    expect(toWebAuthnError(undefined).code).toBe("WEBAUTHN_FAILED");
    expect(toWebAuthnError(null, authentication).code).toBe("WEBAUTHN_FAILED");
  });

  it("details carry what the mapping judged by (ceremony, names, RP id, host, time), never the options' challenge or user", () => {
    const error = toWebAuthnError(new DOMException("", "NotAllowedError"), {
      ...registration,
      elapsedMs: 61_000,
    });
    expect(error.code).toBe("WEBAUTHN_TIMEOUT");
    expect(error.details).toEqual({
      ceremony: "registration",
      name: "NotAllowedError",
      rpId: "localhost",
      hostname: "localhost",
      timeoutMs: 60_000,
      elapsedMs: 61_000,
    });
    expect(JSON.stringify(error)).not.toContain("AAAA");
    expect(JSON.stringify(error)).not.toContain("ada");
  });
});
