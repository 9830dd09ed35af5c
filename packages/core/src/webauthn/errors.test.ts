// toWebAuthnError on its own: the DOM names with no library diagnosis (a custom provider, a React
// Native adapter's plain errors), the codes no provider here can reach, and the context rules.
// test/webauthn/errors.test.ts runs the same table through @simplewebauthn/browser.
import { WebAuthnError } from "@simplewebauthn/browser";
import { describe, expect, it } from "vitest";
import { SignetError } from "../errors.js";
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
  platform: "web",
};
const authentication: WebAuthnFailureContext = {
  ceremony: "authentication",
  options: { challenge: "AAAA", rpId: "localhost", timeout: 30_000 },
  hostname: "localhost",
  platform: "web",
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
    expect(error.retryable).toBe(code === "WEBAUTHN_TIMEOUT" || name === "UnknownError");
    expect(error.message).not.toContain("browser text");
    if (["NotAllowedError", "SecurityError", "UnknownError"].includes(name))
      expect(error.details?.name).toBe(name);
  });

  it("names the file, the host or the RP id to fix in a domain failure's message", () => {
    expect(
      toWebAuthnError(new DOMException("", "SecurityError"), {
        ...authentication,
        hostname: "evil.test",
      }).message,
    ).toBe(
      'The relying party id "localhost" is neither "evil.test" nor a parent domain of it: set the service\'s rpId to this site\'s domain, or list this origin in https://localhost/.well-known/webauthn',
    );
    const ios = toWebAuthnError(new DOMException("", "SecurityError"), {
      ...authentication,
      platform: "ios",
    });
    expect(ios.message).toContain("apple-app-site-association");
    const android = toWebAuthnError(new DOMException("", "SecurityError"), {
      ...authentication,
      platform: "android",
    });
    expect(android.message).toContain("assetlinks.json");
    expect(
      toWebAuthnError(new DOMException("", "SecurityError"), {
        ...registration,
        hostname: "10.0.0.2",
      }).message,
    ).toContain('"10.0.0.2" cannot use passkeys');
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

  it("details carry the context, never the options' challenge or user", () => {
    const error = toWebAuthnError(new DOMException("", "NotAllowedError"), {
      ...registration,
      elapsedMs: 61_000,
    });
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
