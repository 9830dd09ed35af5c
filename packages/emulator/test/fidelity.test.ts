// Fidelity to the service (docs/protocol.md §2–§7): the places where an emulator that is more lenient
// than the service would hide a client bug, or stricter would break a correct client. Signed with
// node:crypto through the independent test client, never @signet/core or the emulator's crypto.
import { sign } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createEmulator,
  type Emulator,
  EmulatorDropError,
  type EmulatorServer,
  startEmulatorServer,
} from "../src/index.js";
import {
  AUTH,
  call,
  httpTarget,
  newKey,
  oidcToken,
  openExport,
  openLegacySessionKey,
  processTarget,
  type Reply,
  readTargetBundle,
  SIGNATURE,
  sealOtp,
  sha256Hex,
  signedCall,
  signUp,
  stamp,
  type Target,
  type TestKey,
} from "./testClient.js";

let emulator: Emulator;
let t: Target;
beforeEach(() => {
  emulator = createEmulator({ settlementDelayMs: 10_000 });
  t = processTarget(emulator);
});

const b64u = (b: Uint8Array | string) => Buffer.from(b).toString("base64url");

/** The flat error body `{ status, code, message, details? }`, and nothing else. */
function expectError(reply: Reply, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.body).toMatchObject({ status, code });
  expect(typeof reply.body.message).toBe("string");
  for (const key of Object.keys(reply.body)) {
    expect(["status", "code", "message", "details"]).toContain(key);
  }
  if (reply.body.details !== undefined) expect(typeof reply.body.details).toBe("object");
}

/** A stamp whose JSON fields are given as is (to build stamps a correct client never sends). */
function rawStamp(fields: Record<string, string>): string {
  return b64u(JSON.stringify(fields));
}

const P256_N = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551");

function derInt(n: bigint): Buffer {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, "hex");
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}

/** A stamp whose signature is the high-S twin (s → n − s) of a fresh signature. */
function highSStamp(payload: string, key: TestKey): string {
  const der = sign("sha256", Buffer.from(payload, "utf8"), {
    key: key.keyObject,
    dsaEncoding: "der",
  });
  // SEQUENCE { INTEGER r, INTEGER s } with short lengths (P-256 signatures are < 128 bytes).
  const rLen = der[3]!;
  const r = BigInt(`0x${der.subarray(4, 4 + rLen).toString("hex")}`);
  const sLen = der[5 + rLen]!;
  const s = BigInt(`0x${der.subarray(6 + rLen, 6 + rLen + sLen).toString("hex")}`);
  const high = s > P256_N / 2n ? s : P256_N - s;
  expect(high > P256_N / 2n).toBe(true);
  const body = Buffer.concat([derInt(r), derInt(high)]);
  const out = Buffer.concat([Buffer.from([0x30, body.length]), body]);
  return rawStamp({
    publicKey: key.publicKeyCompressed,
    scheme: "SIGNATURE_SCHEME_TK_API_P256",
    signature: out.toString("hex"),
  });
}

async function pendingExport(user: Awaited<ReturnType<typeof signUp>>, recipient = newKey()) {
  const path = `/internal-accounts/${user.account.id}/export`;
  const body = JSON.stringify({ clientPublicKey: recipient.publicKeyUncompressed });
  const leg1 = await call(t, "POST", path, body);
  expect(leg1.status).toBe(202);
  return { path, body, leg1, recipient };
}

const retryHeaders = (leg1: Reply, key: TestKey) => ({
  [SIGNATURE]: stamp(leg1.body.payloadToSign, key),
  "Request-Id": leg1.body.requestId as string,
});

describe("payloadToSign is stamped byte for byte", () => {
  it("is JSON that changes under re-serialisation, key sorting and trimming", async () => {
    const user = await signUp(t);
    // A contact change binds the address as typed, here with a character Go's encoder escapes
    // (`&` as \u0026), and the service ends its JSON with a newline.
    const path = `/customers/${user.customer.id}`;
    const body = JSON.stringify({
      customerType: "INDIVIDUAL",
      email: "ada+wallet&co@example.com",
    });
    const leg1 = await call(t, "PATCH", path, body);
    expect(leg1.status).toBe(202);
    const payload: string = leg1.body.payloadToSign;
    const parsed = JSON.parse(payload);
    expect(parsed.parameters.userEmail).toBe("ada+wallet&co@example.com");
    expect(payload).toContain("wallet\\u0026co");
    expect(payload.endsWith("\n")).toBe(true);
    const variants = {
      reserialised: JSON.stringify(parsed),
      sorted: JSON.stringify(parsed, Object.keys(parsed).sort()),
      trimmed: payload.trim(),
    };
    for (const [name, variant] of Object.entries(variants)) {
      expect(variant, name).not.toBe(payload);
      const r = await call(t, "PATCH", path, body, {
        [SIGNATURE]: stamp(variant, user.sessionKey),
        "Request-Id": leg1.body.requestId,
      });
      expectError(r, 401, "WALLET_SIGNATURE_INVALID");
    }
    const ok = await call(t, "PATCH", path, body, retryHeaders(leg1, user.sessionKey));
    expect(ok.status).toBe(200);
  });

  it("the quote's payloadToSign changes under re-serialisation too", async () => {
    const user = await signUp(t);
    await call(t, "POST", `/sandbox/internal-accounts/${user.account.id}/fund`, {
      amount: 5_000_000,
    });
    const other = await signUp(t);
    const quote = await call(t, "POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: user.account.id },
      destination: { destinationType: "ACCOUNT", accountId: other.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000,
    });
    expect(quote.status).toBe(201);
    const payload: string = quote.body.paymentInstructions.find(
      (p: { accountOrWalletInfo: { accountType: string } }) =>
        p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    ).accountOrWalletInfo.payloadToSign;
    const reserialised = JSON.stringify(JSON.parse(payload));
    expect(reserialised).not.toBe(payload);
    const path = `/quotes/${quote.body.id}/execute`;
    expectError(
      await call(t, "POST", path, undefined, { [SIGNATURE]: stamp(reserialised, user.sessionKey) }),
      401,
      "WALLET_SIGNATURE_INVALID",
    );
    expectError(
      await call(t, "POST", path, undefined, {
        [SIGNATURE]: stamp(payload.trim(), user.sessionKey),
      }),
      401,
      "WALLET_SIGNATURE_INVALID",
    );
    const ok = await call(t, "POST", path, undefined, {
      [SIGNATURE]: stamp(payload, user.sessionKey),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("PROCESSING");
  });
});

describe("stamps", () => {
  it("accepts a high-S signature", async () => {
    const user = await signUp(t);
    const { path, body, leg1 } = await pendingExport(user);
    const r = await call(t, "POST", path, body, {
      [SIGNATURE]: highSStamp(leg1.body.payloadToSign, user.sessionKey),
      "Request-Id": leg1.body.requestId,
    });
    expect(r.status).toBe(200);
  });

  it("accepts upper-case hex in the stamp (input) and refuses another scheme", async () => {
    const user = await signUp(t);
    const { path, body, leg1 } = await pendingExport(user);
    const good = JSON.parse(
      Buffer.from(stamp(leg1.body.payloadToSign, user.sessionKey), "base64url").toString(),
    );
    const scheme = await call(t, "POST", path, body, {
      [SIGNATURE]: rawStamp({ ...good, scheme: "SIGNATURE_SCHEME_TK_API_ED25519" }),
      "Request-Id": leg1.body.requestId,
    });
    expectError(scheme, 401, "WALLET_SIGNATURE_MALFORMED");
    const upper = await call(t, "POST", path, body, {
      [SIGNATURE]: rawStamp({
        publicKey: good.publicKey.toUpperCase(),
        scheme: good.scheme,
        signature: good.signature.toUpperCase(),
      }),
      "Request-Id": leg1.body.requestId,
    });
    expect(upper.status).toBe(200);
  });

  it("the OTP retry's stamp names the TEK compressed, though the bundle carried it uncompressed", async () => {
    const user = await signUp(t);
    const challenge = await call(t, "POST", `/auth/credentials/${user.credential.id}/challenge`);
    const targetPublic = readTargetBundle(
      challenge.body.otpEncryptionTargetBundle,
      user.attestationPublicKey,
    );
    const tek = newKey();
    const path = `/auth/credentials/${user.credential.id}/verify`;
    const body = JSON.stringify({
      type: "EMAIL_OTP",
      encryptedOtpBundle: sealOtp(targetPublic, "000000", tek),
    });
    const leg1 = await call(t, "POST", path, body);
    expect(leg1.status).toBe(202);
    expect(leg1.body.type).toBe("EMAIL_OTP");
    const good = JSON.parse(
      Buffer.from(stamp(leg1.body.payloadToSign, tek), "base64url").toString(),
    );
    const uncompressed = await call(t, "POST", path, body, {
      [SIGNATURE]: rawStamp({ ...good, publicKey: tek.publicKeyUncompressed }),
      "Request-Id": leg1.body.requestId,
    });
    expectError(uncompressed, 401, "WALLET_SIGNATURE_MALFORMED");
    const ok = await call(t, "POST", path, body, retryHeaders(leg1, tek));
    expect(ok.status).toBe(200);
    expect(ok.body.id).toMatch(/^Session:/);
    expect(ok.body.encryptedSessionSigningKey).toBeUndefined();
  });
});

describe("clientPublicKey: either hex case on input, the spec's pattern otherwise", () => {
  it("refresh accepts an upper-case compressed key; the new session signs", async () => {
    const user = await signUp(t);
    const next = newKey();
    const { result } = await signedCall(
      t,
      "POST",
      `/auth/sessions/${user.session.id}/refresh`,
      { clientPublicKey: next.publicKeyCompressed.toUpperCase() },
      user.sessionKey,
    );
    expect(result.status).toBe(201);
    expect(result.body.encryptedSessionSigningKey).toBeUndefined();
    const { result: exported } = await signedCall(
      t,
      "POST",
      `/internal-accounts/${user.account.id}/export`,
      { clientPublicKey: newKey().publicKeyUncompressed },
      next,
    );
    expect(exported.status).toBe(200);
  });

  it("refresh accepts an upper-case uncompressed key (legacy) and export an upper-case export key", async () => {
    const user = await signUp(t);
    const recipient = newKey();
    const { result } = await signedCall(
      t,
      "POST",
      `/auth/sessions/${user.session.id}/refresh`,
      { clientPublicKey: recipient.publicKeyUncompressed.toUpperCase() },
      user.sessionKey,
    );
    expect(result.status).toBe(201);
    const sessionKey = openLegacySessionKey(result.body.encryptedSessionSigningKey, recipient);
    const exportKey = newKey();
    const { result: exported } = await signedCall(
      t,
      "POST",
      `/internal-accounts/${user.account.id}/export`,
      { clientPublicKey: exportKey.publicKeyUncompressed.toUpperCase() },
      sessionKey,
    );
    expect(exported.status).toBe(200);
    expect(
      openExport(exported.body.encryptedWalletCredentials, exportKey, emulator.keys.signerPublicKey)
        .mnemonic,
    ).toMatch(/^[a-z]+( [a-z]+){11}$/);
  });

  it("refuses keys outside the pattern with INVALID_INPUT naming the field and the pattern", async () => {
    const user = await signUp(t);
    const k = newKey();
    const bad = [
      k.publicKeyCompressed.slice(0, 64),
      `04${k.publicKeyCompressed.slice(2)}`,
      `05${k.publicKeyUncompressed.slice(2)}`,
      `${k.publicKeyCompressed}00`,
      ` ${k.publicKeyCompressed}`,
      `0x${k.publicKeyCompressed}`,
      `02${"g".repeat(64)}`,
    ];
    for (const key of bad) {
      const r = await call(t, "POST", `/auth/sessions/${user.session.id}/refresh`, {
        clientPublicKey: key,
      });
      expectError(r, 400, "INVALID_INPUT");
      expect(r.body.details.errors[0]).toMatchObject({
        field: "clientPublicKey",
        constraint: { pattern: "^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$" },
      });
    }
    // Matches the pattern but is not a point on the curve.
    const offCurve = await call(t, "POST", `/auth/sessions/${user.session.id}/refresh`, {
      clientPublicKey: `04${"1".repeat(128)}`,
    });
    expectError(offCurve, 400, "INVALID_INPUT");
  });

  it("OAuth verify checks the nonce against the exact (upper-case) string sent", async () => {
    const user = await signUp(t);
    const now = () => Math.floor(emulator.clock.now() / 1000);
    const claims = {
      iss: "https://accounts.google.com",
      aud: "app",
      sub: "u-1",
      email: "u@gmail.com",
    };
    const { result: added } = await signedCall(
      t,
      "POST",
      "/auth/credentials",
      {
        type: "OAUTH",
        accountId: user.account.id,
        oidcToken: oidcToken({ ...claims, iat: now() }),
      },
      user.sessionKey,
    );
    expect(added.status).toBe(201);
    const upper = newKey().publicKeyCompressed.toUpperCase();
    const verify = (nonce: string) =>
      call(t, "POST", `/auth/credentials/${added.body.id}/verify`, {
        type: "OAUTH",
        oidcToken: oidcToken({ ...claims, iat: now(), nonce }),
        clientPublicKey: upper,
      });
    expectError(await verify(sha256Hex(upper.toLowerCase())), 401, "UNAUTHORIZED");
    expect((await verify(sha256Hex(upper))).status).toBe(200);
  });
});

describe("request ids", () => {
  it("a challenge lives 5 minutes and a session 15, both on the emulator clock", async () => {
    const T = 1_700_000_000_000;
    emulator = createEmulator({ now: () => T });
    t = processTarget(emulator);
    const user = await signUp(t);
    expect(Date.parse(user.session.expiresAt)).toBe(T + 15 * 60_000);
    const first = await pendingExport(user);
    expect(Date.parse(first.leg1.body.expiresAt)).toBe(T + 5 * 60_000);
    emulator.advanceClock(5 * 60_000 - 1);
    const inTime = await call(
      t,
      "POST",
      first.path,
      first.body,
      retryHeaders(first.leg1, user.sessionKey),
    );
    expect(inTime.status).toBe(200);
    const second = await pendingExport(user);
    emulator.advanceClock(5 * 60_000);
    const late = await call(
      t,
      "POST",
      second.path,
      second.body,
      retryHeaders(second.leg1, user.sessionKey),
    );
    expectError(late, 401, "UNAUTHORIZED");
    expect(late.body.details.reason).toBe("REQUEST_ID_EXPIRED");
    // Now T + 10 min − 1 ms. The session signs until T + 15 min, not a millisecond longer.
    emulator.advanceClock(5 * 60_000 - 2);
    const third = await pendingExport(user);
    const lastMs = await call(
      t,
      "POST",
      third.path,
      third.body,
      retryHeaders(third.leg1, user.sessionKey),
    );
    expect(lastMs.status).toBe(200);
    const fourth = await pendingExport(user);
    emulator.advanceClock(3);
    expectError(
      await call(t, "POST", fourth.path, fourth.body, retryHeaders(fourth.leg1, user.sessionKey)),
      401,
      "WALLET_SIGNATURE_INVALID",
    );
    expect((await call(t, "GET", `/auth/sessions?accountId=${user.account.id}`)).body.data).toEqual(
      [],
    );
  });

  it("refresh repeats the same clientPublicKey on both legs", async () => {
    const user = await signUp(t);
    const path = `/auth/sessions/${user.session.id}/refresh`;
    const body = JSON.stringify({ clientPublicKey: newKey().publicKeyCompressed });
    const leg1 = await call(t, "POST", path, body);
    expect(leg1.status).toBe(202);
    const other = await call(
      t,
      "POST",
      path,
      JSON.stringify({ clientPublicKey: newKey().publicKeyCompressed }),
      retryHeaders(leg1, user.sessionKey),
    );
    expectError(other, 401, "WALLET_SIGNATURE_BODY_MISMATCH");
    expect((await call(t, "POST", path, body, retryHeaders(leg1, user.sessionKey))).status).toBe(
      201,
    );
  });

  it("delegated keys: the third leg stamps the second 202's new payload under its new request id", async () => {
    const user = await signUp(t);
    const card = await call(t, "POST", "/cards", {
      cardholderId: user.customer.id,
      form: "VIRTUAL",
      fundingSources: [user.account.id],
    });
    const body = JSON.stringify({
      cardId: card.body.id,
      internalAccountId: user.account.id,
      nickname: "k",
    });
    const leg1 = await call(t, "POST", "/auth/delegated-keys", body);
    expect(leg1.body.type).toBeUndefined();
    const leg2 = await call(
      t,
      "POST",
      "/auth/delegated-keys",
      body,
      retryHeaders(leg1, user.sessionKey),
    );
    expect(leg2.status).toBe(202);
    expect(leg2.body.payloadToSign).not.toBe(leg1.body.payloadToSign);
    const oldPayload = await call(t, "POST", "/auth/delegated-keys", body, {
      [SIGNATURE]: stamp(leg1.body.payloadToSign, user.sessionKey),
      "Request-Id": leg2.body.requestId,
    });
    expectError(oldPayload, 401, "WALLET_SIGNATURE_INVALID");
    const oldId = await call(
      t,
      "POST",
      "/auth/delegated-keys",
      body,
      retryHeaders(leg1, user.sessionKey),
    );
    expectError(oldId, 401, "UNAUTHORIZED");
    expect(oldId.body.details.reason).toBe("REQUEST_ID_ALREADY_USED");
    const otherBody = await call(
      t,
      "POST",
      "/auth/delegated-keys",
      JSON.stringify({ cardId: card.body.id, internalAccountId: user.account.id, nickname: "k2" }),
      retryHeaders(leg2, user.sessionKey),
    );
    expectError(otherBody, 401, "WALLET_SIGNATURE_BODY_MISMATCH");
    const leg3 = await call(
      t,
      "POST",
      "/auth/delegated-keys",
      body,
      retryHeaders(leg2, user.sessionKey),
    );
    expect(leg3.status).toBe(201);
    expect(leg3.body.status).toBe("ACTIVE");
  });

  it("export is received only by re-sending; once its challenge lapses, a new export starts", async () => {
    const user = await signUp(t);
    const p = await pendingExport(user);
    emulator.addFault({ kind: "processing", match: { path: "/internal-accounts" }, count: 5 });
    const headers = retryHeaders(p.leg1, user.sessionKey);
    for (let i = 0; i < 2; i++) {
      const r = await call(t, "POST", p.path, p.body, headers);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ status: "PROCESSING", message: expect.any(String) });
    }
    emulator.advanceClock(5 * 60_000);
    const lapsed = await call(t, "POST", p.path, p.body, headers);
    expectError(lapsed, 401, "UNAUTHORIZED");
    expect(lapsed.body.details.reason).toBe("REQUEST_ID_EXPIRED");
    emulator.clearFaults();
    const { challenge, result } = await signedCall(t, "POST", p.path, p.body, user.sessionKey);
    expect(challenge.status).toBe(202);
    expect(challenge.body.requestId).not.toBe(p.leg1.body.requestId);
    expect(openExport(result.body.encryptedWalletCredentials, p.recipient).mnemonic).toBeTruthy();
  });
});

describe("quote execute", () => {
  async function fundedQuote() {
    const user = await signUp(t);
    await call(t, "POST", `/sandbox/internal-accounts/${user.account.id}/fund`, {
      amount: 5_000_000,
    });
    const other = await signUp(t);
    const quote = await call(t, "POST", "/quotes", {
      source: { sourceType: "ACCOUNT", accountId: user.account.id },
      destination: { destinationType: "ACCOUNT", accountId: other.account.id },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 1_000_000,
    });
    const payload: string = quote.body.paymentInstructions.find(
      (p: { accountOrWalletInfo: { accountType: string } }) =>
        p.accountOrWalletInfo.accountType === "EMBEDDED_WALLET",
    ).accountOrWalletInfo.payloadToSign;
    return { user, quote: quote.body, payload, path: `/quotes/${quote.body.id}/execute` };
  }
  const balance = async (accountId: string, customerId: string) =>
    (await call(t, "GET", `/internal-accounts?customerId=${customerId}`)).body.data.find(
      (a: { id: string }) => a.id === accountId,
    ).balance.amount;

  it("never answers 202: a Request-Id alone is WALLET_SIGNATURE_MISSING", async () => {
    const q = await fundedQuote();
    const r = await call(t, "POST", q.path, undefined, {
      "Request-Id": "Request:00000000-0000-4000-8000-000000000000",
    });
    expectError(r, 401, "WALLET_SIGNATURE_MISSING");
    expectError(await call(t, "POST", q.path), 401, "WALLET_SIGNATURE_MISSING");
    expect((await call(t, "GET", `/quotes/${q.quote.id}`)).body.status).toBe("PENDING");
  });

  it("an idempotent repeat must carry a stamp that verifies, like the identical re-send", async () => {
    const q = await fundedQuote();
    const headers = { [SIGNATURE]: stamp(q.payload, q.user.sessionKey), "Idempotency-Key": "once" };
    const first = await call(t, "POST", q.path, undefined, headers);
    expect(first.status).toBe(200);
    expectError(
      await call(t, "POST", q.path, undefined, { "Idempotency-Key": "once" }),
      401,
      "WALLET_SIGNATURE_MISSING",
    );
    expectError(
      await call(t, "POST", q.path, undefined, {
        ...headers,
        [SIGNATURE]: stamp(q.payload, newKey()),
      }),
      401,
      "WALLET_SIGNATURE_INVALID",
    );
    // The identical re-send replays, even after the executing session was refreshed away.
    const { result } = await signedCall(
      t,
      "POST",
      `/auth/sessions/${q.user.session.id}/refresh`,
      { clientPublicKey: newKey().publicKeyCompressed },
      q.user.sessionKey,
    );
    expect(result.status).toBe(201);
    const replay = await call(t, "POST", q.path, undefined, headers);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
  });

  it("drop_after: the execute happens, the answer is lost; the same Idempotency-Key gets it, once", async () => {
    const q = await fundedQuote();
    emulator.addFault({ kind: "drop_after", match: { method: "POST", path: "/quotes" } });
    const headers = { [SIGNATURE]: stamp(q.payload, q.user.sessionKey), "Idempotency-Key": "lost" };
    await expect(call(t, "POST", q.path, undefined, headers)).rejects.toBeInstanceOf(
      EmulatorDropError,
    );
    expect(emulator.faults()).toEqual([]);
    const log = emulator.requests().at(-1)!;
    expect(log).toMatchObject({ method: "POST", status: 200, fault: "drop_after" });
    const state = await call(t, "GET", `/quotes/${q.quote.id}`);
    expect(state.body.status).toBe("PROCESSING");
    expect(await balance(q.user.account.id, q.user.customer.id)).toBe(4_000_000);
    const retried = await call(t, "POST", q.path, undefined, headers);
    expect(retried.status).toBe(200);
    expect(retried.body.transactionId).toBe(state.body.transactionId);
    expect(await balance(q.user.account.id, q.user.customer.id)).toBe(4_000_000);
    // Without the key the repeat is a second execute, which the service refuses.
    const keyless = await call(t, "POST", q.path, undefined, { [SIGNATURE]: headers[SIGNATURE] });
    expectError(keyless, 409, "CONFLICT");
    expect(keyless.body.details.reason).toBe("QUOTE_ALREADY_EXECUTED");
  });

  it("an error fault at: signed answers after the stamp passed, and executes nothing", async () => {
    const q = await fundedQuote();
    emulator.addFault({ kind: "error", at: "signed", status: 503, code: "SERVICE_UNAVAILABLE" });
    const bad = await call(t, "POST", q.path, undefined, { [SIGNATURE]: "!!" });
    expectError(bad, 401, "WALLET_SIGNATURE_MALFORMED"); // does not reach the fault
    expect(emulator.faults()).toHaveLength(1);
    const r = await call(t, "POST", q.path, undefined, {
      [SIGNATURE]: stamp(q.payload, q.user.sessionKey),
    });
    expectError(r, 503, "SERVICE_UNAVAILABLE");
    expect((await call(t, "GET", `/quotes/${q.quote.id}`)).body.status).toBe("PENDING");
  });
});

describe("drop_after on signed retries", () => {
  it("is not used by a 202 or an error; the lost answer's request id is spent", async () => {
    const user = await signUp(t);
    emulator.addFault({ kind: "drop_after", match: { path: "/internal-accounts" } });
    const p = await pendingExport(user); // 202: not dropped
    const bad = await call(t, "POST", p.path, p.body, retryHeaders(p.leg1, newKey()));
    expectError(bad, 401, "WALLET_SIGNATURE_INVALID"); // error: not dropped
    expect(emulator.faults()).toHaveLength(1);
    const headers = retryHeaders(p.leg1, user.sessionKey);
    await expect(call(t, "POST", p.path, p.body, headers)).rejects.toBeInstanceOf(
      EmulatorDropError,
    );
    const again = await call(t, "POST", p.path, p.body, headers);
    expectError(again, 401, "UNAUTHORIZED");
    expect(again.body.details.reason).toBe("REQUEST_ID_ALREADY_USED");
  });

  it("cuts the socket over HTTP after acting", async () => {
    const server: EmulatorServer = await startEmulatorServer({ port: 0 });
    try {
      const h = httpTarget(server.url);
      const user = await signUp(h);
      server.emulator.addFault({
        kind: "drop_after",
        match: { method: "DELETE", path: "/auth/sessions" },
      });
      const leg1 = await call(h, "DELETE", `/auth/sessions/${user.session.id}`);
      expect(leg1.status).toBe(202);
      await expect(
        call(
          h,
          "DELETE",
          `/auth/sessions/${user.session.id}`,
          undefined,
          retryHeaders(leg1, user.sessionKey),
        ),
      ).rejects.toThrow();
      const sessions = await call(h, "GET", `/auth/sessions?accountId=${user.account.id}`);
      expect(sessions.body.data).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it("validates fault specs: at applies to kind error only", async () => {
    const r = await call(t, "POST", "/_emulator/faults", { kind: "processing", at: "signed" });
    expectError(r, 400, "INVALID_INPUT");
    expect(r.body.details.errors[0].field).toBe("at");
    expect(() => emulator.addFault({ kind: "drop_after", at: "request" })).toThrow();
    const ok = await call(t, "POST", "/_emulator/faults", { kind: "drop_after", count: 2 });
    expect(ok.status).toBe(201);
    expect(ok.body.data[0]).toMatchObject({ kind: "drop_after", remaining: 2 });
  });
});

describe("customer contact change", () => {
  async function userWithOauthSession() {
    const user = await signUp(t, `c-${Math.random().toString(16).slice(2)}@example.com`);
    const now = () => Math.floor(emulator.clock.now() / 1000);
    const claims = { iss: "https://accounts.google.com", aud: "app", sub: `s-${user.account.id}` };
    const { result: added } = await signedCall(
      t,
      "POST",
      "/auth/credentials",
      {
        type: "OAUTH",
        accountId: user.account.id,
        oidcToken: oidcToken({ ...claims, iat: now() }),
      },
      user.sessionKey,
    );
    const oauthKey = newKey();
    const session = await call(t, "POST", `/auth/credentials/${added.body.id}/verify`, {
      type: "OAUTH",
      oidcToken: oidcToken({
        ...claims,
        iat: now(),
        nonce: sha256Hex(oauthKey.publicKeyCompressed),
      }),
      clientPublicKey: oauthKey.publicKeyCompressed,
    });
    expect(session.status).toBe(200);
    return { ...user, oauthKey };
  }

  it("409 EMAIL_OTP_CREDENTIAL_SET_CHANGED when a tied credential goes between 202 and retry", async () => {
    const user = await userWithOauthSession();
    const path = `/customers/${user.customer.id}`;
    const body = JSON.stringify({ customerType: "INDIVIDUAL", email: "moved@example.com" });
    const leg1 = await call(t, "PATCH", path, body);
    expect(leg1.status).toBe(202);
    const { result: revoked } = await signedCall(
      t,
      "DELETE",
      `/auth/credentials/${user.credential.id}`,
      undefined,
      user.oauthKey,
    );
    expect(revoked.status).toBe(204);
    const headers = retryHeaders(leg1, user.oauthKey);
    const changed = await call(t, "PATCH", path, body, headers);
    expectError(changed, 409, "EMAIL_OTP_CREDENTIAL_SET_CHANGED");
    expect((await call(t, "GET", path)).body.email).toBe(user.customer.email);
    const again = await call(t, "PATCH", path, body, headers);
    expect(again.body.details.reason).toBe("REQUEST_ID_ALREADY_USED");
    // Nothing is tied any more: the same change is synchronous now.
    const sync = await call(t, "PATCH", path, body);
    expect(sync.status).toBe(200);
    expect(sync.body.email).toBe("moved@example.com");
  });

  it("424 EMAIL_OTP_CREDENTIAL_SYNC_FAILED through an error fault at: signed; all or nothing", async () => {
    const user = await signUp(t);
    const path = `/customers/${user.customer.id}`;
    emulator.addFault({
      kind: "error",
      at: "signed",
      status: 424,
      code: "EMAIL_OTP_CREDENTIAL_SYNC_FAILED",
      match: { method: "PATCH", path: "/customers" },
    });
    // Leg 1 and an ordinary (unsigned) PATCH do not reach the fault.
    expect(
      (await call(t, "PATCH", path, { customerType: "INDIVIDUAL", fullName: "Ada" })).status,
    ).toBe(200);
    const { challenge, result } = await signedCall(
      t,
      "PATCH",
      path,
      { customerType: "INDIVIDUAL", email: "x@example.com" },
      user.sessionKey,
    );
    expect(challenge.status).toBe(202);
    expectError(result, 424, "EMAIL_OTP_CREDENTIAL_SYNC_FAILED");
    expect((await call(t, "GET", path)).body.email).toBe(user.customer.email);
    const creds = await call(t, "GET", `/auth/credentials?accountId=${user.account.id}`);
    expect(creds.body.data[0].nickname).toBe(user.customer.email);
    const { result: ok } = await signedCall(
      t,
      "PATCH",
      path,
      { customerType: "INDIVIDUAL", email: "x@example.com" },
      user.sessionKey,
    );
    expect(ok.status).toBe(200);
  });

  it("a contact change that needs no signature refuses stray signed-retry headers", async () => {
    const user = await signUp(t);
    const r = await call(
      t,
      "PATCH",
      `/customers/${user.customer.id}`,
      { customerType: "INDIVIDUAL", phoneNumber: "+14155550100" },
      {
        [SIGNATURE]: stamp("x", user.sessionKey),
      },
    );
    expectError(r, 401, "REQUEST_ID_MISSING");
  });
});

describe("input and platform auth", () => {
  it("names unknown fields with INVALID_INPUT and details.errors[] on every wallet body", async () => {
    const user = await signUp(t);
    const card = await call(t, "POST", "/cards", {
      cardholderId: user.customer.id,
      form: "VIRTUAL",
      fundingSources: [user.account.id],
    });
    const key = newKey();
    const cases: [string, string, Record<string, unknown>][] = [
      [
        "POST",
        `/auth/sessions/${user.session.id}/refresh`,
        { clientPublicKey: key.publicKeyCompressed },
      ],
      [
        "POST",
        `/internal-accounts/${user.account.id}/export`,
        { clientPublicKey: key.publicKeyUncompressed },
      ],
      ["POST", "/auth/credentials", { type: "EMAIL_OTP", accountId: user.account.id }],
      [
        "POST",
        `/auth/credentials/${user.credential.id}/verify`,
        { type: "EMAIL_OTP", encryptedOtpBundle: "{}" },
      ],
      ["PATCH", `/customers/${user.customer.id}`, { customerType: "INDIVIDUAL", fullName: "Ada" }],
      [
        "POST",
        "/auth/delegated-keys",
        { cardId: card.body.id, internalAccountId: user.account.id, nickname: "n" },
      ],
      ["POST", "/customers", { customerType: "INDIVIDUAL" }],
    ];
    for (const [method, path, body] of cases) {
      const r = await call(t, method, path, { ...body, surprise: 1 });
      expectError(r, 400, "INVALID_INPUT");
      expect(r.body.details.errors, `${method} ${path}`).toContainEqual(
        expect.objectContaining({ field: "surprise" }),
      );
    }
    // A passkey verify carries no clientPublicKey: it was bound on /challenge.
    const r = await call(t, "POST", `/auth/credentials/${user.credential.id}/verify`, {
      type: "PASSKEY",
      assertion: { credentialId: "a", clientDataJson: "b", authenticatorData: "c", signature: "d" },
      clientPublicKey: key.publicKeyCompressed,
    });
    expectError(r, 400, "INVALID_INPUT");
    expect(r.body.details.errors).toContainEqual(
      expect.objectContaining({ field: "clientPublicKey" }),
    );
  });

  it("requires Basic auth on every service route, with the flat error body", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const routes: [string, string][] = [
      ["POST", "/customers"],
      ["GET", "/customers"],
      ["GET", `/customers/Customer:${id}`],
      ["PATCH", `/customers/Customer:${id}`],
      ["GET", `/customers/internal-accounts?customerId=Customer:${id}`],
      ["POST", `/sandbox/internal-accounts/InternalAccount:${id}/fund`],
      ["POST", "/customers/external-accounts"],
      ["POST", "/quotes"],
      ["GET", `/quotes/Quote:${id}`],
      ["POST", `/quotes/Quote:${id}/execute`],
      ["GET", `/transactions/Transaction:${id}`],
      ["POST", "/cards"],
      ["POST", "/auth/credentials"],
      ["GET", `/auth/credentials?accountId=InternalAccount:${id}`],
      ["POST", `/auth/credentials/AuthMethod:${id}/challenge`],
      ["POST", `/auth/credentials/AuthMethod:${id}/verify`],
      ["DELETE", `/auth/credentials/AuthMethod:${id}`],
      ["GET", `/auth/sessions?accountId=InternalAccount:${id}`],
      ["POST", `/auth/sessions/Session:${id}/refresh`],
      ["DELETE", `/auth/sessions/Session:${id}`],
      ["POST", "/auth/delegated-keys"],
      ["GET", `/auth/delegated-keys/DelegatedKey:${id}`],
      ["POST", `/internal-accounts/InternalAccount:${id}/export`],
      ["GET", "/no/such/route"],
    ];
    const wrong = `Basic ${Buffer.from("emulator:wrong").toString("base64")}`;
    for (const [method, path] of routes) {
      for (const authorization of [undefined, wrong, `Bearer x`]) {
        const headers: Record<string, string> = {};
        if (authorization) headers.authorization = authorization;
        const init: RequestInit = { method, headers };
        if (method !== "GET" && method !== "DELETE") {
          init.body = "{}";
          headers["content-type"] = "application/json";
        }
        const res = await emulator.fetch(
          new Request(`http://emulator.test/grid/2025-10-13${path}`, init),
        );
        const body = await res.json();
        expectError(
          { status: res.status, body, headers: res.headers, text: "" },
          401,
          "UNAUTHORIZED",
        );
      }
    }
    expect(AUTH).toMatch(/^Basic /);
  });

  it("429 carries Retry-After in whole seconds, on challenges and on failed OTP verifies", async () => {
    const user = await signUp(t);
    const credentialPath = `/auth/credentials/${user.credential.id}`;
    let last: Reply | undefined;
    for (let i = 0; i < 10; i++) {
      last = await call(t, "POST", `${credentialPath}/challenge`);
      if (last.status === 429) break;
    }
    expectError(last!, 429, "RATE_LIMITED");
    expect(last!.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
    emulator.advanceClock(60_000);
    const challenge = await call(t, "POST", `${credentialPath}/challenge`);
    const targetPublic = readTargetBundle(
      challenge.body.otpEncryptionTargetBundle,
      user.attestationPublicKey,
    );
    for (let i = 0; i < 10; i++) {
      last = await call(t, "POST", `${credentialPath}/verify`, {
        type: "EMAIL_OTP",
        encryptedOtpBundle: sealOtp(targetPublic, "999999", newKey()),
      });
      if (last.status === 429) break;
      expectError(last, 401, "UNAUTHORIZED");
    }
    expectError(last!, 429, "RATE_LIMITED");
    expect(last!.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);
  });
});

describe("over HTTP, the byte-exact payload survives the wire", () => {
  let server: EmulatorServer;
  let h: Target;
  beforeAll(async () => {
    server = await startEmulatorServer({ port: 0 });
    h = httpTarget(server.url);
  });
  afterAll(async () => {
    await server.close();
  });

  it("stamps the payload as received over HTTP and completes", async () => {
    const user = await signUp(h);
    const { challenge, result } = await signedCall(
      h,
      "PATCH",
      `/customers/${user.customer.id}`,
      { customerType: "INDIVIDUAL", email: "ada+wallet&co@example.com" },
      user.sessionKey,
    );
    expect(challenge.body.payloadToSign).toContain("\\u0026");
    expect(challenge.body.payloadToSign.endsWith("\n")).toBe(true);
    expect(result.status).toBe(200);
  });
});
