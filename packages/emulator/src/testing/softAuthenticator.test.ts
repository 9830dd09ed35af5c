import { createHash, createPublicKey, verify } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import {
  decodeAttestationObject,
  decodeClientDataJSON,
  parseAuthenticatorData,
} from "@simplewebauthn/server/helpers";
import { describe, expect, it } from "vitest";
import { type CborValue, encodeCbor } from "./cbor.js";
import { createSoftAuthenticator, type SoftAuthenticator, type SoftCredential } from "./index.js";

const ORIGIN = "http://localhost:5173";
const RP_ID = "localhost";

async function registrationOptions(
  overrides: Partial<Parameters<typeof generateRegistrationOptions>[0]> = {},
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: "Signet tests",
    rpID: RP_ID,
    userName: "ada@example.com",
    attestationType: "none",
    supportedAlgorithmIDs: [-7],
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    ...overrides,
  });
}

async function register(authenticator: SoftAuthenticator) {
  const options = await registrationOptions();
  const response = await authenticator.createCredential(options);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
  const info = verification.registrationInfo;
  if (!verification.verified || info === undefined) throw new Error("registration not verified");
  return { options, response, credential: info.credential };
}

function bytes(b64url: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(b64url, "base64url"));
}

describe("softAuthenticator: registration", () => {
  it("passes verifyRegistrationResponse with requireUserVerification", async () => {
    const authenticator = createSoftAuthenticator();
    const options = await registrationOptions();
    const response = await authenticator.createCredential(options);
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      requireUserVerification: true,
    });
    expect(verified).toBe(true);
    expect(registrationInfo).toMatchObject({
      fmt: "none",
      aaguid: "00000000-0000-0000-0000-000000000000",
      userVerified: true,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      origin: ORIGIN,
      rpID: RP_ID,
    });
    expect(registrationInfo?.credential.id).toBe(response.id);
    expect(registrationInfo?.credential.counter).toBe(0);
    expect(response).toMatchObject({
      rawId: response.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: { transports: ["internal"], publicKeyAlgorithm: -7 },
    });
  });

  it("writes clientDataJSON, flags and the COSE key as a browser and platform authenticator do", async () => {
    const authenticator = createSoftAuthenticator();
    const options = await registrationOptions();
    const response = await authenticator.createCredential(options);
    expect(decodeClientDataJSON(response.response.clientDataJSON)).toEqual({
      type: "webauthn.create",
      challenge: options.challenge,
      origin: ORIGIN,
      crossOrigin: false,
    });
    const attestation = decodeAttestationObject(bytes(response.response.attestationObject));
    expect(attestation.get("fmt")).toBe("none");
    expect(attestation.get("attStmt").size).toBe(0);
    const authData = attestation.get("authData");
    expect(Buffer.from(authData).toString("base64url")).toBe(response.response.authenticatorData);
    const parsed = parseAuthenticatorData(authData);
    expect(Buffer.from(parsed.rpIdHash)).toEqual(createHash("sha256").update(RP_ID).digest());
    expect(parsed.flags).toMatchObject({
      up: true,
      uv: true,
      be: true,
      bs: true,
      at: true,
      ed: false,
    });
    expect(parsed.flags.flagsInt).toBe(0x5d);
    expect(parsed.counter).toBe(0);
    const [stored] = authenticator.credentials;
    expect(Buffer.from(parsed.credentialID ?? []).toString("base64url")).toBe(stored?.id);
    expect(parsed.credentialPublicKey).toEqual(stored?.publicKey);
    // The SPKI in `response.publicKey` and the COSE key are the same point.
    const spki = createPublicKey({
      key: Buffer.from(bytes(response.response.publicKey)),
      format: "der",
      type: "spki",
    });
    const jwk = spki.export({ format: "jwk" });
    expect(Buffer.concat([Buffer.of(4), bytes(jwk.x ?? ""), bytes(jwk.y ?? "")])).toEqual(
      Buffer.from(stored?.publicKeyUncompressed ?? []),
    );
    expect(stored).toMatchObject({ rpId: RP_ID, userHandle: options.user.id, signCount: 0 });
  });

  it("reports UV=0 when configured, which requireUserVerification rejects", async () => {
    const authenticator = createSoftAuthenticator({ userVerified: false });
    const options = await registrationOptions();
    const response = await authenticator.createCredential(options);
    const base = {
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
    };
    await expect(
      verifyRegistrationResponse({ ...base, requireUserVerification: true }),
    ).rejects.toThrow(/user could not be verified/i);
    const relaxed = await verifyRegistrationResponse({ ...base, requireUserVerification: false });
    expect(relaxed.verified).toBe(true);
    expect(relaxed.registrationInfo?.userVerified).toBe(false);
  });

  it("is rejected for a wrong origin, RP ID or challenge", async () => {
    const authenticator = createSoftAuthenticator();
    const options = await registrationOptions();
    const response = await authenticator.createCredential(options);
    const good = {
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
    };
    await expect(
      verifyRegistrationResponse({ ...good, expectedOrigin: "http://localhost:5174" }),
    ).rejects.toThrow(/origin/i);
    await expect(
      verifyRegistrationResponse({ ...good, expectedRPID: "example.com" }),
    ).rejects.toThrow(/RP ID/i);
    const otherChallenge = (await registrationOptions()).challenge;
    await expect(
      verifyRegistrationResponse({ ...good, expectedChallenge: otherChallenge }),
    ).rejects.toThrow(/challenge/i);
    // The same checks catch a response produced under a different origin or RP ID hash.
    const phished = await authenticator.createCredential(options, {
      origin: "https://evil.example",
    });
    await expect(verifyRegistrationResponse({ ...good, response: phished })).rejects.toThrow(
      /origin/i,
    );
    const wrongHash = await authenticator.createCredential(options, { rpIdHashOf: "example.com" });
    await expect(verifyRegistrationResponse({ ...good, response: wrongHash })).rejects.toThrow(
      /RP ID/i,
    );
  });

  it("applies the browser's own checks: RP ID vs origin, excludeCredentials, algorithms", async () => {
    const authenticator = createSoftAuthenticator();
    const options = await registrationOptions();
    await expect(
      authenticator.createCredential({ ...options, rp: { ...options.rp, id: "example.com" } }),
    ).rejects.toMatchObject({ name: "SecurityError" });
    await expect(
      authenticator.createCredential({
        ...options,
        pubKeyCredParams: [{ type: "public-key", alg: -257 }],
      }),
    ).rejects.toMatchObject({ name: "NotSupportedError" });
    const first = await authenticator.createCredential(options);
    await expect(
      authenticator.createCredential({
        ...options,
        excludeCredentials: [{ id: first.id, type: "public-key" }],
      }),
    ).rejects.toMatchObject({ name: "InvalidStateError" });
    expect(authenticator.credentials).toHaveLength(1);

    // A parent domain is a valid RP ID for a subdomain origin.
    const sub = createSoftAuthenticator({ rpId: "example.com", origin: "https://app.example.com" });
    const subOptions = await registrationOptions({ rpID: "example.com" });
    const response = await sub.createCredential(subOptions);
    const { verified } = await verifyRegistrationResponse({
      response,
      expectedChallenge: subOptions.challenge,
      expectedOrigin: "https://app.example.com",
      expectedRPID: "example.com",
    });
    expect(verified).toBe(true);
  });

  it("reports BE=0/BS=0 for a device-bound credential", async () => {
    const authenticator = createSoftAuthenticator({ backupEligible: false });
    const options = await registrationOptions();
    const response = await authenticator.createCredential(options);
    const { registrationInfo } = await verifyRegistrationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
    });
    expect(registrationInfo).toMatchObject({
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
    });
    expect(() => createSoftAuthenticator({ backupEligible: false, backedUp: true })).toThrow(
      /backupEligible/,
    );
  });
});

describe("softAuthenticator: authentication", () => {
  it("passes verifyAuthenticationResponse and counts up", async () => {
    const authenticator = createSoftAuthenticator();
    const { options: creation, credential } = await register(authenticator);
    let stored: WebAuthnCredential = credential;
    for (const expected of [1, 2]) {
      const options = await generateAuthenticationOptions({
        rpID: RP_ID,
        allowCredentials: [{ id: stored.id }],
        userVerification: "required",
      });
      const response = await authenticator.getAssertion(options);
      expect(response).toMatchObject({
        id: stored.id,
        rawId: stored.id,
        type: "public-key",
        authenticatorAttachment: "platform",
        clientExtensionResults: {},
        response: { userHandle: creation.user.id },
      });
      expect(decodeClientDataJSON(response.response.clientDataJSON)).toEqual({
        type: "webauthn.get",
        challenge: options.challenge,
        origin: ORIGIN,
        crossOrigin: false,
      });
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response,
        expectedChallenge: options.challenge,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        credential: stored,
        requireUserVerification: true,
      });
      expect(verified).toBe(true);
      expect(authenticationInfo).toMatchObject({
        newCounter: expected,
        userVerified: true,
        credentialDeviceType: "multiDevice",
        credentialBackedUp: true,
      });
      stored = { ...stored, counter: authenticationInfo.newCounter };
    }
    expect(authenticator.credentials[0]?.signCount).toBe(2);
  });

  it("signs authenticatorData ‖ SHA-256(clientDataJSON) in DER, checked by OpenSSL", async () => {
    const authenticator = createSoftAuthenticator();
    await register(authenticator);
    const [cred] = authenticator.credentials as [SoftCredential];
    // A hex-string challenge as Signet's passkey sign-in sends it (PROTOCOL §5): its UTF-8 bytes.
    const hexChallenge = createHash("sha256").update("session body").digest("hex");
    const response = await authenticator.getAssertion({
      challenge: Buffer.from(hexChallenge, "utf8").toString("base64url"),
      allowCredentials: [{ id: cred.id, type: "public-key" }],
      userVerification: "required",
    });
    const clientData = bytes(response.response.clientDataJSON);
    expect(
      Buffer.from(
        JSON.parse(new TextDecoder().decode(clientData)).challenge,
        "base64url",
      ).toString(),
    ).toBe(hexChallenge);
    const authData = bytes(response.response.authenticatorData);
    expect(authData).toHaveLength(37);
    expect(authData[32]).toBe(0x1d); // UP | UV | BE | BS
    const signature = bytes(response.response.signature);
    expect(signature[0]).toBe(0x30);
    const key = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: Buffer.from(cred.publicKeyUncompressed.subarray(1, 33)).toString("base64url"),
        y: Buffer.from(cred.publicKeyUncompressed.subarray(33)).toString("base64url"),
      },
      format: "jwk",
    });
    const signed = Buffer.concat([authData, createHash("sha256").update(clientData).digest()]);
    expect(verify("sha256", signed, { key, dsaEncoding: "der" }, signature)).toBe(true);
    signed[0] = (signed[0] ?? 0) ^ 1;
    expect(verify("sha256", signed, { key, dsaEncoding: "der" }, signature)).toBe(false);
  });

  it("finds a discoverable credential without allowCredentials", async () => {
    const authenticator = createSoftAuthenticator();
    const { credential } = await register(authenticator);
    const options = await generateAuthenticationOptions({
      rpID: RP_ID,
      userVerification: "required",
    });
    expect(options.allowCredentials ?? []).toHaveLength(0);
    const response = await authenticator.getAssertion(options);
    expect(response.id).toBe(credential.id);
    const { verified } = await verifyAuthenticationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
    });
    expect(verified).toBe(true);
  });

  it("is rejected for a wrong origin, RP ID, challenge or key, and without UV when required", async () => {
    const authenticator = createSoftAuthenticator();
    const { credential } = await register(authenticator);
    const options = await generateAuthenticationOptions({
      rpID: RP_ID,
      allowCredentials: [{ id: credential.id }],
    });
    const response = await authenticator.getAssertion(options);
    const good = {
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
      requireUserVerification: true,
    };
    await expect(
      verifyAuthenticationResponse({ ...good, expectedOrigin: "https://localhost:5173" }),
    ).rejects.toThrow(/origin/i);
    await expect(
      verifyAuthenticationResponse({ ...good, expectedRPID: "example.com" }),
    ).rejects.toThrow(/RP ID/i);
    await expect(
      verifyAuthenticationResponse({ ...good, expectedChallenge: "b3RoZXItY2hhbGxlbmdlLXZhbHVl" }),
    ).rejects.toThrow(/challenge/i);

    // Another credential's key does not verify this signature.
    const other = await register(createSoftAuthenticator());
    const wrongKey = await verifyAuthenticationResponse({
      ...good,
      credential: { ...credential, publicKey: other.credential.publicKey },
    });
    expect(wrongKey.verified).toBe(false);

    const fresh = () =>
      generateAuthenticationOptions({ rpID: RP_ID, allowCredentials: [{ id: credential.id }] });
    const o1 = await fresh();
    const noUv = await authenticator.getAssertion(o1, { userVerified: false });
    await expect(
      verifyAuthenticationResponse({ ...good, response: noUv, expectedChallenge: o1.challenge }),
    ).rejects.toThrow(/user could not be verified/i);
    const o2 = await fresh();
    const phished = await authenticator.getAssertion(o2, { origin: "https://evil.example" });
    await expect(
      verifyAuthenticationResponse({ ...good, response: phished, expectedChallenge: o2.challenge }),
    ).rejects.toThrow(/origin/i);

    // A counter that goes backwards is caught.
    const o3 = await fresh();
    const replayed = await authenticator.getAssertion(o3, { signCount: 1 });
    await expect(
      verifyAuthenticationResponse({
        ...good,
        response: replayed,
        expectedChallenge: o3.challenge,
        credential: { ...credential, counter: 5 },
      }),
    ).rejects.toThrow(/counter/i);
  });

  it("keeps the counter at 0 in zero mode, which verifiers accept", async () => {
    const authenticator = createSoftAuthenticator({ signCount: "zero" });
    const { credential } = await register(authenticator);
    for (let i = 0; i < 2; i++) {
      const options = await generateAuthenticationOptions({ rpID: RP_ID });
      const response = await authenticator.getAssertion(options);
      const { verified, authenticationInfo } = await verifyAuthenticationResponse({
        response,
        expectedChallenge: options.challenge,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        credential,
      });
      expect(verified).toBe(true);
      expect(authenticationInfo.newCounter).toBe(0);
    }
  });

  it("fails like a browser: unknown credential, cancelled prompt, removed passkey, foreign RP ID", async () => {
    const authenticator = createSoftAuthenticator();
    const { credential } = await register(authenticator);
    const options = await generateAuthenticationOptions({
      rpID: RP_ID,
      allowCredentials: [{ id: credential.id }],
    });
    await expect(
      authenticator.getAssertion({
        ...options,
        allowCredentials: [{ id: "AAAAAAAAAAAAAAAAAAAAAA", type: "public-key" }],
      }),
    ).rejects.toMatchObject({ name: "NotAllowedError" });
    await expect(
      authenticator.getAssertion({ ...options, rpId: "example.com" }),
    ).rejects.toMatchObject({
      name: "SecurityError",
    });
    authenticator.failNext();
    const cancelled = await authenticator.getAssertion(options).catch((e: unknown) => e);
    expect(cancelled).toBeInstanceOf(DOMException);
    expect(cancelled).toMatchObject({ name: "NotAllowedError" });
    await expect(authenticator.getAssertion(options)).resolves.toMatchObject({ id: credential.id });
    authenticator.failNext("AbortError", "aborted");
    await expect(authenticator.createCredential(await registrationOptions())).rejects.toMatchObject(
      {
        name: "AbortError",
      },
    );
    expect(authenticator.removeCredential(credential.id)).toBe(true);
    expect(authenticator.getCredential(credential.id)).toBeUndefined();
    await expect(authenticator.getAssertion(options)).rejects.toMatchObject({
      name: "NotAllowedError",
    });
  });
});

describe("softAuthenticator: provider", () => {
  it("runs both ceremonies through the WebAuthnProvider shape", async () => {
    const authenticator = createSoftAuthenticator();
    const creation = await registrationOptions();
    const registration = await authenticator.provider.register(creation);
    const { registrationInfo } = await verifyRegistrationResponse({
      response: registration,
      expectedChallenge: creation.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
    });
    if (registrationInfo === undefined) throw new Error("registration not verified");
    const request = await generateAuthenticationOptions({
      rpID: RP_ID,
      allowCredentials: [{ id: registration.id }],
    });
    const assertion = await authenticator.provider.authenticate(request);
    const { verified } = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: request.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential: registrationInfo.credential,
    });
    expect(verified).toBe(true);
  });
});

describe("cbor: RFC 8949 Appendix A examples", () => {
  const cases: [string, CborValue, string][] = [
    ["0", 0, "00"],
    ["23", 23, "17"],
    ["24", 24, "1818"],
    ["100", 100, "1864"],
    ["1000", 1000, "1903e8"],
    ["1000000", 1000000, "1a000f4240"],
    ["1000000000000", 1000000000000, "1b000000e8d4a51000"],
    ["18446744073709551615", 18446744073709551615n, "1bffffffffffffffff"],
    ["-1", -1, "20"],
    ["-10", -10, "29"],
    ["-100", -100, "3863"],
    ["-1000", -1000, "3903e7"],
    ["-18446744073709551616", -18446744073709551616n, "3bffffffffffffffff"],
    ["false", false, "f4"],
    ["true", true, "f5"],
    ["h''", new Uint8Array(), "40"],
    ["h'01020304'", Uint8Array.of(1, 2, 3, 4), "4401020304"],
    ['""', "", "60"],
    ['"a"', "a", "6161"],
    ['"IETF"', "IETF", "6449455446"],
    ['"\\u00fc"', "\u00fc", "62c3bc"],
    ['"\\u6c34"', "\u6c34", "63e6b0b4"],
    ["[]", [], "80"],
    ["[1, 2, 3]", [1, 2, 3], "83010203"],
    ["[1, [2, 3], [4, 5]]", [1, [2, 3], [4, 5]], "8301820203820405"],
    ["{}", new Map(), "a0"],
    [
      "{1: 2, 3: 4}",
      new Map([
        [1, 2],
        [3, 4],
      ]),
      "a201020304",
    ],
    [
      '{"a": 1, "b": [2, 3]}',
      new Map<CborValue, CborValue>([
        ["a", 1],
        ["b", [2, 3]],
      ]),
      "a26161016162820203",
    ],
  ];
  it.each(cases)("encodes %s", (_name, value, hex) => {
    expect(Buffer.from(encodeCbor(value)).toString("hex")).toBe(hex);
  });

  it("sorts map keys deterministically (RFC 8949 §4.2.1) and rejects floats", () => {
    const cose = new Map<CborValue, CborValue>([
      [-3, 0],
      [-1, 0],
      [3, 0],
      [1, 0],
      [-2, 0],
    ]);
    expect(Buffer.from(encodeCbor(cose)).toString("hex")).toBe("a5010003002000210022" + "00");
    expect(() => encodeCbor(1.5)).toThrow(/safe integer/);
  });
});
