// A software WebAuthn client + platform authenticator (WebAuthn Level 3 §5.1.3, §5.1.4, §6.1,
// §6.5; attestation format "none" §8.7; COSE ES256 keys, RFC 9053 §2.1) for tests in Node.
// It plays the browser's part too: it builds clientDataJSON for its configured origin and
// refuses an RP ID that the origin may not claim, like a browser would.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { type CborValue, concat, encodeCbor } from "./cbor.js";

import type {
  Base64UrlString,
  CeremonyOverrides,
  CreationOptionsJSON,
  RequestOptionsJSON,
  SoftAuthenticationResponseJSON,
  SoftAuthenticator,
  SoftAuthenticatorOptions,
  SoftCredential,
  SoftRegistrationResponseJSON,
} from "./softAuthenticatorTypes.js";

const ES256 = -7;
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

type StoredCredential = {
  id: Base64UrlString;
  rawId: Uint8Array;
  rpId: string;
  userHandle: Base64UrlString;
  userName: string;
  publicKey: Uint8Array;
  publicKeyUncompressed: Uint8Array;
  publicKeySpki: Uint8Array;
  privateKey: KeyObject;
  signCount: number;
};

/**
 * Creates a software passkey authenticator with node:crypto ES256 keys.
 *
 * @example
 * ```ts
 * const authenticator = createSoftAuthenticator();
 * const registration = await authenticator.createCredential(optionsJSON);
 * await verifyRegistrationResponse({ response: registration, expectedChallenge, expectedOrigin: authenticator.origin, expectedRPID: "localhost" });
 * ```
 */
export function createSoftAuthenticator(options: SoftAuthenticatorOptions = {}): SoftAuthenticator {
  const rpId = options.rpId ?? "localhost";
  const origin = options.origin ?? "http://localhost:5173";
  const userVerified = options.userVerified ?? true;
  const userPresent = options.userPresent ?? true;
  const backupEligible = options.backupEligible ?? true;
  const backedUp = options.backedUp ?? backupEligible;
  const counterMode = options.signCount ?? "increment";
  const aaguid = options.aaguid ?? new Uint8Array(16);
  const credentialIdLength = options.credentialIdLength ?? 32;
  if (aaguid.length !== 16) throw new TypeError(`"aaguid" expected 16 bytes, got ${aaguid.length}`);
  if (backedUp && !backupEligible) {
    throw new TypeError(`"backedUp" requires "backupEligible" (WebAuthn §6.1: BS implies BE)`);
  }
  if (credentialIdLength < 16 || credentialIdLength > 1023) {
    throw new TypeError(`"credentialIdLength" expected 16..1023, got ${credentialIdLength}`);
  }

  const store: StoredCredential[] = [];
  let pendingFailure: { name: string; message: string } | undefined;

  function takeFailure(): void {
    if (pendingFailure === undefined) return;
    const { name, message } = pendingFailure;
    pendingFailure = undefined;
    throw new DOMException(message, name);
  }

  function flags(overrides: CeremonyOverrides, attested: boolean): number {
    let f = 0;
    if (overrides.userPresent ?? userPresent) f |= FLAG_UP;
    if (overrides.userVerified ?? userVerified) f |= FLAG_UV;
    if (backupEligible) f |= FLAG_BE;
    if (backedUp) f |= FLAG_BS;
    if (attested) f |= FLAG_AT;
    return f;
  }

  function clientData(type: string, challenge: Base64UrlString, overrides: CeremonyOverrides) {
    const bytes = decodeChallenge(challenge);
    // Key order as Chromium writes it; the browser re-encodes the decoded challenge.
    const json = JSON.stringify({
      type: overrides.clientDataType ?? type,
      challenge: b64url(bytes),
      origin: overrides.origin ?? origin,
      crossOrigin: false,
    });
    return new TextEncoder().encode(json);
  }

  function nextCount(credential: StoredCredential, overrides: CeremonyOverrides): number {
    if (overrides.signCount !== undefined) credential.signCount = overrides.signCount;
    else if (counterMode === "increment") credential.signCount += 1;
    return credential.signCount;
  }

  async function createCredential(
    creation: CreationOptionsJSON,
    overrides: CeremonyOverrides = {},
  ): Promise<SoftRegistrationResponseJSON> {
    takeFailure();
    const requestedRpId = creation.rp.id ?? rpId;
    if (overrides.origin === undefined) assertRpIdForOrigin(requestedRpId, origin);
    if (!creation.pubKeyCredParams.some((p) => p.type === "public-key" && p.alg === ES256)) {
      throw new DOMException("The authenticator supports only ES256 (-7)", "NotSupportedError");
    }
    const userHandleBytes = decodeBase64Url(creation.user.id, "user.id");
    if (userHandleBytes.length < 1 || userHandleBytes.length > 64) {
      throw new TypeError(`"user.id" expected 1..64 bytes, got ${userHandleBytes.length}`);
    }
    for (const excluded of creation.excludeCredentials ?? []) {
      if (store.some((c) => c.rpId === requestedRpId && c.id === normalizeId(excluded.id))) {
        throw new DOMException(
          "The authenticator already holds an excluded credential",
          "InvalidStateError",
        );
      }
    }

    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const x = Buffer.from(jwk.x ?? "", "base64url");
    const y = Buffer.from(jwk.y ?? "", "base64url");
    const cosePublicKey = encodeCbor(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, ES256], // alg
        [-1, 1], // crv: P-256
        [-2, x],
        [-3, y],
      ]),
    );
    const rawId = new Uint8Array(randomBytes(credentialIdLength));
    const credential: StoredCredential = {
      id: b64url(rawId),
      rawId,
      rpId: requestedRpId,
      userHandle: b64url(userHandleBytes),
      userName: creation.user.name,
      publicKey: cosePublicKey,
      publicKeyUncompressed: concat([Uint8Array.of(0x04), x, y]),
      publicKeySpki: new Uint8Array(publicKey.export({ format: "der", type: "spki" })),
      privateKey,
      signCount: 0,
    };
    if (overrides.signCount !== undefined) credential.signCount = overrides.signCount;

    const idLength = new Uint8Array(2);
    new DataView(idLength.buffer).setUint16(0, rawId.length);
    const authenticatorData = concat([
      sha256(overrides.rpIdHashOf ?? requestedRpId),
      Uint8Array.of(flags(overrides, true)),
      uint32(credential.signCount),
      aaguid,
      idLength,
      rawId,
      cosePublicKey,
    ]);
    const attestationObject = encodeCbor(
      new Map<string, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map<string, CborValue>()],
        ["authData", authenticatorData],
      ]),
    );
    const clientDataJSON = clientData("webauthn.create", creation.challenge, overrides);
    store.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        authenticatorData: b64url(authenticatorData),
        transports: ["internal"],
        publicKeyAlgorithm: ES256,
        publicKey: b64url(credential.publicKeySpki),
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  async function getAssertion(
    request: RequestOptionsJSON,
    overrides: CeremonyOverrides = {},
  ): Promise<SoftAuthenticationResponseJSON> {
    takeFailure();
    const requestedRpId = request.rpId ?? rpId;
    if (overrides.origin === undefined) assertRpIdForOrigin(requestedRpId, origin);
    const allowed = (request.allowCredentials ?? []).map((d) => normalizeId(d.id));
    const candidates = store.filter(
      (c) => c.rpId === requestedRpId && (allowed.length === 0 || allowed.includes(c.id)),
    );
    // A discoverable-credential request shows an account picker; the newest credential is chosen.
    const credential = candidates[candidates.length - 1];
    if (credential === undefined) {
      throw new DOMException(
        "The authenticator holds no credential for this request",
        "NotAllowedError",
      );
    }
    const clientDataJSON = clientData("webauthn.get", request.challenge, overrides);
    const authenticatorData = concat([
      sha256(overrides.rpIdHashOf ?? requestedRpId),
      Uint8Array.of(flags(overrides, false)),
      uint32(nextCount(credential, overrides)),
    ]);
    const signature = sign("sha256", concat([authenticatorData, sha256(clientDataJSON)]), {
      key: credential.privateKey,
      dsaEncoding: "der",
    });
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
    };
  }

  const snapshot = (c: StoredCredential): SoftCredential => ({
    id: c.id,
    rpId: c.rpId,
    userHandle: c.userHandle,
    userName: c.userName,
    publicKey: c.publicKey.slice(),
    publicKeyUncompressed: c.publicKeyUncompressed.slice(),
    privateKey: c.privateKey,
    signCount: c.signCount,
  });

  return {
    rpId,
    origin,
    createCredential,
    getAssertion,
    get credentials() {
      return store.map(snapshot);
    },
    getCredential(id) {
      const found = store.find((c) => c.id === normalizeId(id));
      return found === undefined ? undefined : snapshot(found);
    },
    removeCredential(id) {
      const index = store.findIndex((c) => c.id === normalizeId(id));
      if (index < 0) return false;
      store.splice(index, 1);
      return true;
    },
    failNext(
      name = "NotAllowedError",
      message = "The operation either timed out or was not allowed.",
    ) {
      pendingFailure = { name, message };
    },
    provider: {
      register: (creation) => createCredential(creation),
      authenticate: (request) => getAssertion(request),
    },
  };
}

/** WebAuthn §5.1.3 step 8 / §5.1.4 step 6: the RP ID must be the origin's host or a parent domain of it. */
function assertRpIdForOrigin(rpId: string, origin: string): void {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    throw new TypeError(`"origin" expected a URL, got ${origin}`);
  }
  if (rpId !== host && !host.endsWith(`.${rpId}`)) {
    throw new DOMException(`The RP ID "${rpId}" is invalid for this domain`, "SecurityError");
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function decodeBase64Url(value: string, name: string): Uint8Array {
  if (!BASE64URL.test(value)) throw new TypeError(`"${name}" expected base64url, got ${value}`);
  return new Uint8Array(Buffer.from(value, "base64url"));
}

function decodeChallenge(challenge: string): Uint8Array {
  const bytes = decodeBase64Url(challenge, "challenge");
  if (bytes.length < 16) {
    throw new TypeError(`"challenge" expected at least 16 bytes, got ${bytes.length}`);
  }
  return bytes;
}

function normalizeId(id: string): Base64UrlString {
  return b64url(decodeBase64Url(id, "credential id"));
}

function b64url(bytes: Uint8Array): Base64UrlString {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

function uint32(n: number): Uint8Array {
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) {
    throw new TypeError(`"signCount" expected 0..2^32-1, got ${n}`);
  }
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
}
