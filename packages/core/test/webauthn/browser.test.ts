// WebAuthn Level 3 §5.1.3/§5.1.4 through createBrowserWebAuthn, at the unit level: a scripted
// navigator.credentials checks the JSON ↔ bytes conversions, the result shapes, the abort of a
// pending ceremony, the DOMException mapping and support detection at call time. (The real
// ceremonies run in Chromium with a virtual authenticator in e2e/.)
import { afterEach, describe, expect, it, vi } from "vitest";
import { base64UrlEncode } from "../../src/crypto/encoding.js";
import { isSignetError } from "../../src/errors/errors.js";
import { createBrowserWebAuthn } from "../../src/webauthn/browser.js";
import type {
  AuthenticationOptionsJSON,
  RegistrationOptionsJSON,
} from "../../src/webauthn/types.js";

const bytes = (...values: number[]) => Uint8Array.from(values);
const b64 = (data: Uint8Array) => base64UrlEncode(data);
const asBytes = (source: BufferSource | undefined) =>
  source instanceof ArrayBuffer
    ? [...new Uint8Array(source)]
    : source
      ? [...new Uint8Array(source.buffer, source.byteOffset, source.byteLength)]
      : undefined;

// Byte values that exercise every base64url edge: '-', '_', lengths 1, 2 and 3 mod 3.
const CHALLENGE = bytes(0xfb, 0xff, 0xbf, 0x00, 0x01, 0x02, 0x03, 0xfe, 0x3e, 0x3f, 0x80);
const USER_ID = bytes(0xff, 0xfe);
const CREDENTIAL_ID = bytes(0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff, 0x00);
const OTHER_ID = bytes(1);

class FakePublicKeyCredential {}

type Ceremony = { publicKey: Record<string, unknown>; signal: AbortSignal };

function install(container: Partial<CredentialsContainer>) {
  vi.stubGlobal("navigator", { credentials: container });
  vi.stubGlobal("PublicKeyCredential", FakePublicKeyCredential);
  // @simplewebauthn/browser looks for WebAuthn on `window`, and at `location` to explain errors.
  vi.stubGlobal("window", { PublicKeyCredential: FakePublicKeyCredential });
  vi.stubGlobal("location", { hostname: "localhost" });
}

function attestationCredential(transports: string[] | undefined) {
  return {
    id: b64(CREDENTIAL_ID),
    rawId: CREDENTIAL_ID.slice().buffer,
    type: "public-key",
    authenticatorAttachment: "platform",
    getClientExtensionResults: () => ({ credProps: { rk: true } }),
    response: {
      clientDataJSON: new TextEncoder().encode('{"type":"webauthn.create"}').buffer,
      attestationObject: bytes(0xa3, 0x63, 0x66, 0x6d, 0x74).buffer,
      ...(transports ? { getTransports: () => transports } : {}),
    },
  };
}

function assertionCredential(userHandle: ArrayBuffer | null) {
  return {
    id: b64(CREDENTIAL_ID),
    rawId: CREDENTIAL_ID.slice().buffer,
    type: "public-key",
    authenticatorAttachment: "cross-platform",
    getClientExtensionResults: () => ({}),
    response: {
      clientDataJSON: new TextEncoder().encode('{"type":"webauthn.get"}').buffer,
      authenticatorData: new Uint8Array(37).fill(9).buffer,
      signature: bytes(0x30, 0x44, 0x02, 0x20).buffer,
      userHandle,
    },
  };
}

const registrationOptions: RegistrationOptionsJSON = {
  rp: { id: "localhost", name: "Demo" },
  user: { id: b64(USER_ID), name: "ada@example.com", displayName: "Ada" },
  challenge: b64(CHALLENGE),
  pubKeyCredParams: [{ type: "public-key", alg: -7 }],
  timeout: 60_000,
  excludeCredentials: [
    { id: b64(CREDENTIAL_ID), type: "public-key", transports: ["internal", "hybrid"] },
    { id: b64(OTHER_ID), type: "public-key" },
  ],
  authenticatorSelection: { residentKey: "preferred", userVerification: "required" },
  attestation: "none",
};

const authenticationOptions: AuthenticationOptionsJSON = {
  challenge: b64(new TextEncoder().encode("ab".repeat(32))),
  allowCredentials: [{ id: b64(CREDENTIAL_ID), type: "public-key", transports: ["usb"] }],
  userVerification: "required",
  timeout: 30_000,
  rpId: "localhost",
};

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (!isSignetError(error)) throw new Error(`expected a SignetError, got ${String(error)}`);
    return error;
  }
  throw new Error("expected a failure");
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createBrowserWebAuthn", () => {
  it("reads nothing at creation; support is checked when a ceremony starts", async () => {
    vi.stubGlobal("navigator", undefined);
    vi.stubGlobal("PublicKeyCredential", undefined);
    const webauthn = createBrowserWebAuthn();
    expect((await failure(webauthn.register(registrationOptions))).code).toBe(
      "WEBAUTHN_UNSUPPORTED",
    );
    // navigator.credentials without PublicKeyCredential (an old browser) is not enough either.
    vi.stubGlobal("navigator", { credentials: { create: vi.fn(), get: vi.fn() } });
    expect((await failure(webauthn.authenticate(authenticationOptions))).code).toBe(
      "WEBAUTHN_UNSUPPORTED",
    );
    // The same provider works once the browser has it.
    install({ get: async () => assertionCredential(null) as unknown as Credential });
    await expect(webauthn.authenticate(authenticationOptions)).resolves.toMatchObject({
      rawId: b64(CREDENTIAL_ID),
    });
  });

  it("register: base64url challenge, user.id and excludeCredentials ids become bytes; the rest passes through", async () => {
    const calls: Ceremony[] = [];
    install({
      create: async (options) => {
        calls.push(options as unknown as Ceremony);
        return attestationCredential(["internal", "hybrid"]) as unknown as Credential;
      },
    });
    await createBrowserWebAuthn().register(registrationOptions);
    expect(calls).toHaveLength(1);
    const { publicKey, signal } = calls[0]!;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(asBytes(publicKey.challenge as BufferSource)).toEqual([...CHALLENGE]);
    const user = publicKey.user as { id: BufferSource; name: string; displayName: string };
    expect(asBytes(user.id)).toEqual([...USER_ID]);
    expect(user.name).toBe("ada@example.com");
    expect(user.displayName).toBe("Ada");
    const exclude = publicKey.excludeCredentials as {
      id: BufferSource;
      type: string;
      transports?: string[];
    }[];
    expect(exclude.map((d) => asBytes(d.id))).toEqual([[...CREDENTIAL_ID], [...OTHER_ID]]);
    expect(exclude.map((d) => d.type)).toEqual(["public-key", "public-key"]);
    expect(exclude[0]!.transports).toEqual(["internal", "hybrid"]);
    expect(publicKey.rp).toEqual({ id: "localhost", name: "Demo" });
    expect(publicKey.pubKeyCredParams).toEqual([{ type: "public-key", alg: -7 }]);
    expect(publicKey.timeout).toBe(60_000);
    expect(publicKey.authenticatorSelection).toEqual({
      residentKey: "preferred",
      userVerification: "required",
    });
    expect(publicKey.attestation).toBe("none");
    // The caller's JSON options are not mutated.
    expect(registrationOptions.challenge).toBe(b64(CHALLENGE));
    expect(registrationOptions.user.id).toBe(b64(USER_ID));
  });

  it("register: RegistrationResponseJSON with rawId, clientDataJSON, attestationObject and getTransports()", async () => {
    install({
      create: async () => attestationCredential(["internal", "hybrid"]) as unknown as Credential,
    });
    const result = await createBrowserWebAuthn().register(registrationOptions);
    expect(result).toEqual({
      id: b64(CREDENTIAL_ID),
      rawId: b64(CREDENTIAL_ID),
      type: "public-key",
      response: {
        clientDataJSON: b64(new TextEncoder().encode('{"type":"webauthn.create"}')),
        attestationObject: b64(bytes(0xa3, 0x63, 0x66, 0x6d, 0x74)),
        transports: ["internal", "hybrid"],
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: { credProps: { rk: true } },
    });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    // Browsers without getTransports(), or with none to report: no transports field.
    for (const transports of [undefined, []]) {
      install({ create: async () => attestationCredential(transports) as unknown as Credential });
      const other = await createBrowserWebAuthn().register(registrationOptions);
      expect(other.response).not.toHaveProperty("transports");
    }
  });

  it("authenticate: challenge and allowCredentials ids become bytes; AuthenticationResponseJSON out", async () => {
    const calls: Ceremony[] = [];
    const userHandle = USER_ID.slice().buffer;
    install({
      get: async (options) => {
        calls.push(options as unknown as Ceremony);
        return assertionCredential(userHandle) as unknown as Credential;
      },
    });
    const result = await createBrowserWebAuthn().authenticate(authenticationOptions);
    const { publicKey, signal } = calls[0]!;
    expect(signal).toBeInstanceOf(AbortSignal);
    // docs/protocol.md §5: the challenge is the UTF-8 bytes of the 64-hex string.
    expect(new TextDecoder().decode(new Uint8Array(publicKey.challenge as ArrayBuffer))).toBe(
      "ab".repeat(32),
    );
    const allow = publicKey.allowCredentials as { id: BufferSource; transports?: string[] }[];
    expect(allow.map((d) => asBytes(d.id))).toEqual([[...CREDENTIAL_ID]]);
    expect(allow[0]!.transports).toEqual(["usb"]);
    expect(publicKey.userVerification).toBe("required");
    expect(publicKey.rpId).toBe("localhost");
    expect(publicKey.timeout).toBe(30_000);
    expect(result).toEqual({
      id: b64(CREDENTIAL_ID),
      rawId: b64(CREDENTIAL_ID),
      type: "public-key",
      response: {
        clientDataJSON: b64(new TextEncoder().encode('{"type":"webauthn.get"}')),
        authenticatorData: b64(new Uint8Array(37).fill(9)),
        signature: b64(bytes(0x30, 0x44, 0x02, 0x20)),
        userHandle: b64(USER_ID),
      },
      authenticatorAttachment: "cross-platform",
      clientExtensionResults: {},
    });
    // No user handle (a non-discoverable credential): no userHandle field.
    install({ get: async () => assertionCredential(null) as unknown as Credential });
    const other = await createBrowserWebAuthn().authenticate(authenticationOptions);
    expect(other.response).not.toHaveProperty("userHandle");
  });

  it("a new ceremony aborts the pending one, which fails as WEBAUTHN_CANCELLED; the new one completes", async () => {
    const signals: AbortSignal[] = [];
    install({
      create: (options) => {
        const signal = (options as unknown as Ceremony).signal;
        signals.push(signal);
        // Like a browser: pending until the signal aborts, then rejects with its reason.
        return new Promise((_resolve, reject) => {
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      },
      get: async (options) => {
        signals.push((options as unknown as Ceremony).signal);
        return assertionCredential(null) as unknown as Credential;
      },
    });
    const webauthn = createBrowserWebAuthn();
    const first = webauthn.register(registrationOptions);
    const second = webauthn.authenticate(authenticationOptions);
    const error = await failure(first);
    expect(error.code).toBe("WEBAUTHN_CANCELLED");
    await expect(second).resolves.toMatchObject({ rawId: b64(CREDENTIAL_ID) });
    expect(signals).toHaveLength(2);
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
  });

  it("maps DOMException names and other failures to WEBAUTHN_* codes", async () => {
    const cases: [unknown, string][] = [
      [new DOMException("dismissed", "NotAllowedError"), "WEBAUTHN_CANCELLED"],
      [new DOMException("aborted", "AbortError"), "WEBAUTHN_CANCELLED"],
      [new DOMException("excluded", "InvalidStateError"), "WEBAUTHN_INVALID_STATE"],
      [new DOMException("rp id", "SecurityError"), "WEBAUTHN_SECURITY"],
      [new DOMException("alg", "NotSupportedError"), "WEBAUTHN_UNSUPPORTED"],
      [new DOMException("uv", "ConstraintError"), "WEBAUTHN_UNSUPPORTED"],
      [new DOMException("?", "UnknownError"), "WEBAUTHN_FAILED"],
      [new TypeError("bad options"), "WEBAUTHN_FAILED"],
    ];
    for (const [thrown, code] of cases) {
      install({
        create: async () => {
          throw thrown;
        },
        get: async () => {
          throw thrown;
        },
      });
      const webauthn = createBrowserWebAuthn();
      const registered = await failure(webauthn.register(registrationOptions));
      expect(registered.code).toBe(code);
      // The cause is what the browser threw, or @simplewebauthn/browser's WebAuthnError around it.
      const cause = registered.cause as { cause?: unknown } | undefined;
      expect(cause === thrown || cause?.cause === thrown).toBe(true);
      expect((await failure(webauthn.authenticate(authenticationOptions))).code).toBe(code);
    }
    // A browser that resolves with null.
    install({ create: async () => null, get: async () => null });
    expect((await failure(createBrowserWebAuthn().register(registrationOptions))).code).toBe(
      "WEBAUTHN_FAILED",
    );
    expect((await failure(createBrowserWebAuthn().authenticate(authenticationOptions))).code).toBe(
      "WEBAUTHN_FAILED",
    );
  });

  it("malformed base64url in the options: ENCODING_INVALID before the browser is called", async () => {
    const create = vi.fn();
    const get = vi.fn();
    install({ create, get });
    const webauthn = createBrowserWebAuthn();
    for (const options of [
      { ...registrationOptions, challenge: "not base64url!" },
      { ...registrationOptions, user: { ...registrationOptions.user, id: "a" } },
      { ...registrationOptions, excludeCredentials: [{ id: "ab*!", type: "public-key" as const }] },
    ]) {
      expect((await failure(webauthn.register(options))).code).toBe("ENCODING_INVALID");
    }
    expect(
      (
        await failure(
          webauthn.authenticate({
            ...authenticationOptions,
            allowCredentials: [{ id: "ab*!", type: "public-key" }],
          }),
        )
      ).code,
    ).toBe("ENCODING_INVALID");
    expect(create).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
  });

  it("malformed options never cancel a prompt that is still open", async () => {
    let pendingSignal: AbortSignal | undefined;
    install({
      get: vi.fn((request: Ceremony) => {
        pendingSignal = request.signal;
        return new Promise(() => undefined);
      }) as never,
      create: vi.fn() as never,
    });
    const webauthn = createBrowserWebAuthn();
    void webauthn.authenticate({ challenge: b64(CHALLENGE) });
    await Promise.resolve();
    await expect(
      webauthn.register({ ...registrationOptions, challenge: "not base64url!" }),
    ).rejects.toMatchObject({ code: "ENCODING_INVALID" });
    expect(pendingSignal?.aborted).toBe(false);
  });
});
