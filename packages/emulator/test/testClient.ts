// A small test-only client that speaks the wire formats with node:crypto directly, so the
// emulator is checked by code it did not make (no import of the emulator's crypto module).
import {
  createCipheriv,
  createDecipheriv,
  createECDH,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  ECDH,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from "node:crypto";

import { afterEach } from "vitest";
import { formatFindings, judgingFetch, type OpenApiFinding } from "../../test/src/openapi.js";

export const AUTH = `Basic ${Buffer.from("emulator:emulator").toString("base64")}`;

/**
 * Every answer the emulator gives through `call` is judged against the service's OpenAPI
 * (requests are not: these suites send malformed ones on purpose). A test whose exchanges the
 * OpenAPI disagrees with fails at its end, naming the path and the schema errors.
 */
const findings: OpenApiFinding[] = [];
afterEach(() => {
  const found = findings.splice(0);
  if (found.length > 0) {
    throw new Error(
      `The emulator answered against the service's OpenAPI:\n${formatFindings(found)}`,
    );
  }
});
export const SIGNATURE = "Grid-Wallet-Signature";

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString("base64url");
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

/** A P-256 key held by the test, as raw bytes and a node KeyObject. */
export type TestKey = {
  privateKey: Buffer;
  publicKeyUncompressed: string;
  publicKeyCompressed: string;
  keyObject: KeyObject;
};

export function newKey(privateKey?: Uint8Array): TestKey {
  const ecdh = createECDH("prime256v1");
  if (privateKey) ecdh.setPrivateKey(Buffer.from(privateKey));
  else ecdh.generateKeys();
  const pub = ecdh.getPublicKey();
  const keyObject = createPrivateKey({
    key: {
      kty: "EC",
      crv: "P-256",
      d: b64u(ecdh.getPrivateKey()),
      x: b64u(pub.subarray(1, 33)),
      y: b64u(pub.subarray(33, 65)),
    },
    format: "jwk",
  });
  return {
    privateKey: ecdh.getPrivateKey(),
    publicKeyUncompressed: hex(pub),
    publicKeyCompressed: hex(ecdh.getPublicKey(null, "compressed") as unknown as Buffer),
    keyObject,
  };
}

/** The Grid-Wallet-Signature value over the UTF-8 bytes of `payload`. */
export function stamp(payload: string, key: TestKey): string {
  const signature = sign("sha256", Buffer.from(payload, "utf8"), {
    key: key.keyObject,
    dsaEncoding: "der",
  });
  return b64u(
    JSON.stringify({
      publicKey: key.publicKeyCompressed,
      scheme: "SIGNATURE_SCHEME_TK_API_P256",
      signature: hex(signature),
    }),
  );
}

function publicKeyObject(uncompressedHex: string): KeyObject {
  const pub = Buffer.from(uncompressedHex, "hex");
  return createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64u(pub.subarray(1, 33)), y: b64u(pub.subarray(33, 65)) },
    format: "jwk",
  });
}

/** ECDSA P-256 SHA-256 DER verification. */
export function verifyDer(publicKeyHex: string, data: Uint8Array, derHex: string): boolean {
  return verify(
    "sha256",
    data,
    { key: publicKeyObject(publicKeyHex), dsaEncoding: "der" },
    Buffer.from(derHex, "hex"),
  );
}

// RFC 9180 base mode, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-256-GCM.
const KEM_ID = Buffer.from([0x00, 0x10]);
const SUITE_KEM = Buffer.concat([Buffer.from("KEM"), KEM_ID]);
const SUITE = Buffer.concat([Buffer.from("HPKE"), KEM_ID, Buffer.from([0, 1, 0, 2])]);
const INFO = Buffer.from("turnkey_hpke");

function extract(salt: Buffer, ikm: Buffer): Buffer {
  return createHmac("sha256", salt.length ? salt : Buffer.alloc(32))
    .update(ikm)
    .digest();
}
function expand(prk: Buffer, info: Buffer, length: number): Buffer {
  const out: Buffer[] = [];
  let t = Buffer.alloc(0);
  for (let i = 1; Buffer.concat(out).length < length; i++) {
    t = createHmac("sha256", prk)
      .update(Buffer.concat([t, info, Buffer.from([i])]))
      .digest();
    out.push(t);
  }
  return Buffer.concat(out).subarray(0, length);
}
const labeledExtract = (suite: Buffer, salt: Buffer, label: string, ikm: Buffer) =>
  extract(salt, Buffer.concat([Buffer.from("HPKE-v1"), suite, Buffer.from(label), ikm]));
const labeledExpand = (suite: Buffer, prk: Buffer, label: string, info: Buffer, length: number) => {
  const l = Buffer.alloc(2);
  l.writeUInt16BE(length);
  return expand(
    prk,
    Buffer.concat([l, Buffer.from("HPKE-v1"), suite, Buffer.from(label), info]),
    length,
  );
};

function keySchedule(dh: Buffer, enc: Buffer, pkR: Buffer) {
  const eaePrk = labeledExtract(SUITE_KEM, Buffer.alloc(0), "eae_prk", dh);
  const shared = labeledExpand(SUITE_KEM, eaePrk, "shared_secret", Buffer.concat([enc, pkR]), 32);
  const pskIdHash = labeledExtract(SUITE, Buffer.alloc(0), "psk_id_hash", Buffer.alloc(0));
  const infoHash = labeledExtract(SUITE, Buffer.alloc(0), "info_hash", INFO);
  const context = Buffer.concat([Buffer.from([0]), pskIdHash, infoHash]);
  const secret = labeledExtract(SUITE, shared, "secret", Buffer.alloc(0));
  return {
    key: labeledExpand(SUITE, secret, "key", context, 32),
    nonce: labeledExpand(SUITE, secret, "base_nonce", context, 12),
  };
}

/** HPKE seal to an uncompressed recipient key with AAD = enc ‖ recipient. */
export function hpkeSeal(plaintext: Buffer, recipientUncompressedHex: string) {
  const pkR = Buffer.from(recipientUncompressedHex, "hex");
  const eph = createECDH("prime256v1");
  eph.generateKeys();
  const enc = eph.getPublicKey();
  const { key, nonce } = keySchedule(eph.computeSecret(pkR), enc, pkR);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(Buffer.concat([enc, pkR]));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { enc, ciphertext: ct };
}

/** HPKE open with the recipient's key (AAD = enc ‖ recipient). Throws on a bad tag. */
export function hpkeOpen(encUncompressed: Buffer, ciphertext: Buffer, recipient: TestKey): Buffer {
  const pkR = Buffer.from(recipient.publicKeyUncompressed, "hex");
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(recipient.privateKey);
  const { key, nonce } = keySchedule(ecdh.computeSecret(encUncompressed), encUncompressed, pkR);
  const decipher = createDecipheriv("aes-256-gcm", key, nonce);
  decipher.setAAD(Buffer.concat([encUncompressed, pkR]));
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  return Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
}

/** Reads and checks an `otpEncryptionTargetBundle` against a pinned key; returns `targetPublic`. */
export function readTargetBundle(bundle: string, pinned: string): string {
  const outer = JSON.parse(bundle) as Record<string, string>;
  if (outer.enclaveQuorumPublic !== pinned) throw new Error("bundle signer is not the pinned key");
  const data = Buffer.from(outer.data!, "hex");
  if (!verifyDer(pinned, data, outer.dataSignature!)) throw new Error("bundle signature invalid");
  return (JSON.parse(data.toString("utf8")) as { targetPublic: string }).targetPublic;
}

/** The `encryptedOtpBundle` value for a code and TEK. */
export function sealOtp(targetPublic: string, otpCode: string, tek: TestKey): string {
  const plaintext = Buffer.from(
    JSON.stringify({ otp_code: otpCode, public_key: tek.publicKeyUncompressed }),
  );
  const { enc, ciphertext } = hpkeSeal(plaintext, targetPublic);
  return JSON.stringify({ encappedPublic: hex(enc), ciphertext: hex(ciphertext) });
}

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
function base58checkDecode(s: string): Buffer {
  let n = 0n;
  for (const ch of s) n = n * 58n + BigInt(B58.indexOf(ch));
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  let zeros = 0;
  while (s[zeros] === "1") zeros++;
  const all = Buffer.concat([Buffer.alloc(zeros), Buffer.from(bytes)]);
  const payload = all.subarray(0, all.length - 4);
  const check = createHash("sha256").update(createHash("sha256").update(payload).digest()).digest();
  if (!check.subarray(0, 4).equals(all.subarray(all.length - 4))) throw new Error("bad checksum");
  return payload;
}

/** Opens a legacy `encryptedSessionSigningKey`; returns the session key. */
export function openLegacySessionKey(bundle: string, recipient: TestKey): TestKey {
  const bytes = base58checkDecode(bundle);
  const enc = ECDH.convertKey(
    bytes.subarray(0, 33),
    "prime256v1",
    undefined,
    undefined,
    "uncompressed",
  ) as Buffer;
  return newKey(hpkeOpen(enc, bytes.subarray(33), recipient));
}

/** Opens an export bundle, checking the signer when `pinned` is given; returns the mnemonic. */
export function openExport(bundle: string, recipient: TestKey, pinned?: string) {
  const outer = JSON.parse(bundle) as Record<string, string>;
  const data = Buffer.from(outer.data!, "hex");
  if (pinned !== undefined) {
    if (outer.enclaveQuorumPublic !== pinned || !verifyDer(pinned, data, outer.dataSignature!)) {
      throw new Error("export bundle signature invalid");
    }
  }
  const inner = JSON.parse(data.toString("utf8")) as {
    encappedPublic: string;
    ciphertext: string;
    organizationId: string;
  };
  const mnemonic = hpkeOpen(
    Buffer.from(inner.encappedPublic, "hex"),
    Buffer.from(inner.ciphertext, "hex"),
    recipient,
  ).toString("utf8");
  return { mnemonic, organizationId: inner.organizationId, signed: outer.dataSignature !== "" };
}

/** A sandbox-style OIDC token (unchecked signature). */
export function oidcToken(claims: Record<string, unknown>): string {
  // Real id tokens carry exp; a test that wants it missing passes `exp: undefined`.
  const issued = typeof claims.iat === "number" ? claims.iat : Math.floor(Date.now() / 1000);
  const payload = JSON.stringify({ exp: issued + 3600, ...claims });
  return `${b64u(JSON.stringify({ alg: "RS256", typ: "JWT" }))}.${b64u(payload)}.${b64u(randomBytes(16))}`;
}

export const sha256Hex = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/** A response read once. */
// biome-ignore lint/suspicious/noExplicitAny: tests read reply bodies loosely and assert on them.
export type Reply = { status: number; body: any; headers: Headers; text: string };

/** Something that answers fetch requests: an emulator in process or a URL over HTTP. */
export type Target = { fetch(request: Request): Promise<Response>; base: string };

/** Wraps a target's fetch so that its answers are judged (see `findings`). */
function judged(target: Target): Target {
  const judgeFetch = judgingFetch({
    base: target.base,
    requests: false,
    onFinding: (finding) => findings.push(finding),
    fetch: (input, init) => target.fetch(new Request(input, init)),
  });
  return { base: target.base, fetch: (request) => judgeFetch(request) };
}

export function httpTarget(url: string): Target {
  return judged({ base: url, fetch: (r) => fetch(r) });
}

export function processTarget(emulator: { fetch(request: Request): Promise<Response> }): Target {
  return judged({ base: "http://localhost", fetch: (r) => emulator.fetch(r) });
}

/** Sends one request; `body` strings are sent as-is, objects as JSON. */
export async function call(
  target: Target,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const init: RequestInit = { method, headers: { authorization: AUTH, ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  const response = await target.fetch(new Request(`${target.base}${path}`, init));
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: response.status, body: parsed, headers: response.headers, text };
}

/** Leg 1, then the retry stamped by `key` with the same body string. Returns both replies. */
export async function signedCall(
  target: Target,
  method: string,
  path: string,
  body: unknown,
  key: TestKey,
): Promise<{ challenge: Reply; result: Reply }> {
  const text =
    body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const challenge = await call(target, method, path, text);
  if (challenge.status !== 202) return { challenge, result: challenge };
  const result = await call(target, method, path, text, {
    [SIGNATURE]: stamp(challenge.body.payloadToSign, key),
    "Request-Id": challenge.body.requestId,
  });
  return { challenge, result };
}

/** Creates a customer and signs in with email OTP; returns ids and the session key. */
export async function signUp(
  target: Target,
  email = `user-${randomBytes(4).toString("hex")}@example.com`,
) {
  const keys = (await call(target, "GET", "/_emulator/keys")).body as {
    attestationPublicKey: string;
  };
  const customer = await call(target, "POST", "/customers", { customerType: "INDIVIDUAL", email });
  const accounts = await call(
    target,
    "GET",
    `/customers/internal-accounts?customerId=${customer.body.id}&type=EMBEDDED_WALLET`,
  );
  const account = accounts.body.data[0];
  const credentials = await call(target, "GET", `/auth/credentials?accountId=${account.id}`);
  const credential = credentials.body.data[0];
  const session = await otpSignIn(target, credential.id, keys.attestationPublicKey);
  return {
    customer: customer.body,
    account,
    credential,
    ...session,
    attestationPublicKey: keys.attestationPublicKey,
  };
}

/** Email/SMS OTP sign-in: challenge, seal, verify (202), stamp with the TEK, verify (200). */
export async function otpSignIn(
  target: Target,
  credentialId: string,
  pinned: string,
  code = "000000",
) {
  const challenge = await call(target, "POST", `/auth/credentials/${credentialId}/challenge`);
  if (challenge.status !== 200) throw new Error(`challenge ${challenge.status} ${challenge.text}`);
  const targetPublic = readTargetBundle(challenge.body.otpEncryptionTargetBundle, pinned);
  const tek = newKey();
  const body = JSON.stringify({
    type: challenge.body.type,
    encryptedOtpBundle: sealOtp(targetPublic, code, tek),
  });
  const { challenge: leg1, result } = await signedCall(
    target,
    "POST",
    `/auth/credentials/${credentialId}/verify`,
    body,
    tek,
  );
  if (result.status !== 200) throw new Error(`verify ${result.status} ${result.text}`);
  return { session: result.body, sessionKey: tek, verifyChallenge: leg1 };
}
