// Every error code's `details` are what its type says (codes.ts): one case per code, each made by
// the code path that makes it in use. The service's codes come over real HTTP through the relay
// from a stand-in that answers each with the fields the OpenAPI's error schema names (the service
// itself is not reachable; the emulator's lockout and refusals are judged the same way in the
// suites named below); the relay's own from the real relay; the device's from core's functions.
// `DETAIL_FIELDS` (packages/test/src/errorDetails.ts) is the table, typed from core's, so a code or
// a field missing from it fails the type check, and `CASES` below has a key per code, so a code
// without a case fails it too.
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import {
  createClient,
  createMemoryKeyStore,
  type DecryptionKey,
  enrollScaPasskey,
  exportWallet,
  generateDecryptionKey,
  generateSigningKey,
  importSigningKey,
  type KnownErrorCode,
  listCredentials,
  openExportBundle,
  type ServiceErrorCode,
  SignetError,
  scaLogin,
  signInWithPasskey,
  stampPayload,
  toWebAuthnError,
  verifyStamp,
} from "@signet/core";
import { createRelay, RelayErrorCode } from "@signet/relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRandomSource } from "../packages/core/src/crypto/noble.js";
import { createTransport } from "../packages/core/src/transport/http.js";
// The engine and its payload checks are core's internals (not exported): reached by path.
import { expectActivity } from "../packages/core/src/transport/payloadCheck.js";
import { runSignedRequest } from "../packages/core/src/transport/signedRequest.js";
import { DETAIL_FIELDS, expectDocumentedDetails } from "../packages/test/src/errorDetails.js";
import { challengeJson } from "../packages/test/src/scriptedFetch.js";
import {
  type Recorded,
  type RunningRelay,
  type StubService,
  serveRelay,
  startStubService,
} from "../packages/test/src/stubService.js";

/** What the OpenAPI's error schemas name in `details`, per code (the rest name nothing). */
const DOCUMENTED: Partial<Record<ServiceErrorCode, Record<string, unknown>>> = {
  // Error400: `errors`, one FieldError per invalid field; `reason` and `field` are the emulator's.
  INVALID_INPUT: {
    errors: [{ field: "amount", message: "too low", constraint: { pattern: "^[0-9]+$" } }],
    reason: "AMOUNT_TOO_LOW",
    field: "amount",
  },
  // Error423: the lockout.
  ACCOUNT_LOCKED: { lockedUntil: "2026-01-29T12:00:00Z", failedAttempts: 5, suspended: false },
  // docs/protocol.md §1: the particular case of a broad code, where the OpenAPI has none.
  UNAUTHORIZED: { reason: "REQUEST_ID_ALREADY_USED" },
  CONFLICT: { reason: "QUOTE_EXPIRED" },
  // Error409 of the service's #853 (packages/test/spec/grid-api-pr853.yaml): the active change.
  CONTACT_CHANGE_PENDING: { contactChangeId: "ContactChange:019542f5-b3e7-1d02-0000-000000000020" },
};

/** The HTTP status of each service code: the OpenAPI error schema that lists it. */
const STATUS: Record<ServiceErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  INVALID_SIGNATURE: 401,
  WALLET_SIGNATURE_MISSING: 401,
  WALLET_SIGNATURE_MALFORMED: 401,
  WALLET_SIGNATURE_BODY_MISMATCH: 401,
  WALLET_SIGNATURE_INVALID: 401,
  REQUEST_ID_MISSING: 401,
  FORBIDDEN: 403,
  USER_NOT_READY: 403,
  VELOCITY_LIMIT_EXCEEDED: 403,
  RATE_LIMITED: 429,
  DAILY_VOLUME_LIMIT_EXCEEDED: 429,
  REFERENCE_NOT_FOUND: 404,
  QUOTE_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  CUSTOMER_DELETED: 410,
  CONFLICT: 409,
  SCA_SESSION_REQUIRED: 409,
  PASSKEY_ALREADY_ENROLLED: 409,
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: 400,
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: 400,
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: 409,
  EMAIL_OTP_CREDENTIAL_SET_CHANGED: 409,
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: 424,
  SMS_OTP_PHONE_ALREADY_EXISTS: 409,
  SMS_OTP_CREDENTIAL_SET_CHANGED: 409,
  SMS_OTP_CREDENTIAL_SYNC_FAILED: 424,
  CONTACT_CHANGE_PENDING: 409,
  CONTACT_CHANGE_NOT_AWAITING_SIGNATURE: 409,
  AUTH_CREDENTIAL_OPERATION_IN_FLIGHT: 409,
  // Not in Error400's list; the sandbox answers it on execute (docs/protocol.md §7).
  INSUFFICIENT_FUNDS: 400,
  QUOTE_REQUEST_FAILED: 400,
  TRANSACTION_SIZE_LIMIT_EXCEEDED: 400,
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED: 400,
  ACCOUNT_LOCKED: 423,
  END_USER_TERMS_NOT_ACCEPTED: 403,
  INVALID_STATE_TRANSITION: 409,
  NOT_IMPLEMENTED: 501,
  GRID_SWITCH_ERROR: 500,
  INTERNAL_ERROR: 500,
};

let stub: StubService;
let relay: RunningRelay;
const started: RunningRelay[] = [];

const json = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(body === undefined ? "" : JSON.stringify(body));
  return true;
};

/** Answers requests whose path starts with `prefix` itself; the stub's world answers the rest. */
function answer(prefix: string, reply: (req: Recorded, res: ServerResponse) => boolean) {
  stub.override = (req, res) =>
    new URL(req.url, "http://stub").pathname.startsWith(prefix) ? reply(req, res) : false;
}

/** A relay of its own in front of the stub, with `options` over the defaults. */
async function relayWith(options: Partial<Parameters<typeof createRelay>[0]> = {}) {
  const running = await serveRelay(
    createRelay({
      baseUrl: stub.url,
      tokenId: "id",
      clientSecret: "secret",
      resolveUser: () => ({ customerId: stub.customers[0]!.customerId }),
      ...options,
    }),
  );
  started.push(running);
  // The relay's default mount point.
  return { url: `${running.url}/api/grid`, close: running.close };
}

const client = (relayUrl = relay.url, extra: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ relayUrl, retry: false, keyStore: createMemoryKeyStore(), ...extra });
const wallet = () => stub.customers[0]!.wallet;

async function thrown(run: () => unknown): Promise<SignetError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SignetError) return error;
    throw error;
  }
  throw new Error("expected a SignetError, got none");
}

/** A service code answered by the stand-in, read by core through the relay. */
const service = (code: ServiceErrorCode) => async () => {
  answer("/auth/credentials", (_req, res) =>
    json(
      res,
      STATUS[code],
      { status: STATUS[code], code, message: "refused", details: DOCUMENTED[code] ?? {} },
      { "Retry-After": "2" },
    ),
  );
  const error = await thrown(() => listCredentials(client(), { accountId: wallet() }));
  expect(error.status).toBe(STATUS[code]);
  // What the OpenAPI names arrives as sent, and the wait the answer asked for.
  expect(error.details).toMatchObject({ ...DOCUMENTED[code], retryAfterMs: 2_000 });
  return { error, open: true };
};

type Made = SignetError | { error: SignetError; open?: boolean };
type Case = (() => Promise<Made>) | { in: string };

const request = (relayUrl: string, method: string, path: string, body?: string) =>
  thrown(() =>
    createClient({ relayUrl, retry: false }).request({
      method,
      path,
      ...(body === undefined ? {} : { body }),
      expectedStatus: 200,
    }),
  );

/** A passkey ceremony's failure, read as core reads a DOMException of that name. */
const passkey =
  (name: string, context = {}) =>
  async () =>
    toWebAuthnError(new DOMException("the browser's text", name), {
      ceremony: "authentication",
      ...context,
    });

/** A signed request through the engine, against the stand-in's script for `path`. */
async function signed(reply: (req: Recorded, res: ServerResponse) => boolean, extra = {}) {
  answer("/signed", reply);
  const key = await generateSigningKey();
  return thrown(() =>
    runSignedRequest({
      transport: createTransport({ relayUrl: stub.url }),
      method: "POST",
      path: "/signed",
      body: "{}",
      sign: (payload) => stampPayload(payload, key),
      checkPayload: () => ({ known: true }),
      expectedStatus: 200,
      operation: "test",
      retry: false,
      ...extra,
    }),
  );
}

const CASES: { readonly [TCode in KnownErrorCode]: Case } = {
  ...(Object.fromEntries(
    (Object.keys(STATUS) as ServiceErrorCode[]).map((code) => [code, service(code)]),
  ) as Record<ServiceErrorCode, Case>),
  // The relay's own refusals, through the real relay.
  RELAY_UNAUTHENTICATED: async () =>
    thrown(async () =>
      listCredentials(client((await relayWith({ resolveUser: () => null })).url), {
        accountId: wallet(),
      }),
    ),
  RELAY_FORBIDDEN: async () => {
    const error = await thrown(() =>
      listCredentials(client(), { accountId: stub.customers[1]!.wallet }),
    );
    expect(error.details).toMatchObject({ kind: expect.any(String), field: expect.any(String) });
    return error;
  },
  RELAY_NOT_FOUND: () => request(relay.url, "GET", "/nowhere"),
  METHOD_NOT_ALLOWED: async () => {
    const error = await request(relay.url, "PUT", "/auth/credentials", "{}");
    expect(error.details).toMatchObject({ allow: expect.arrayContaining(["GET"]) });
    return error;
  },
  PAYLOAD_TOO_LARGE: async () => {
    const small = await relayWith({ maxBodyBytes: 16 });
    const error = await request(
      small.url,
      "POST",
      "/auth/credentials",
      JSON.stringify({ x: "y".repeat(64) }),
    );
    expect(error.details).toMatchObject({ maxBodyBytes: 16 });
    return error;
  },
  UNSUPPORTED_MEDIA_TYPE: async () =>
    thrown(() =>
      createClient({
        relayUrl: relay.url,
        retry: false,
        // A fetch of the app's own that drops the type: the relay refuses before anything else.
        fetch: (input, init) => {
          const headers = new Headers(init?.headers);
          headers.delete("Content-Type");
          return fetch(input, { ...init, headers });
        },
      }).request({ method: "POST", path: "/auth/credentials", expectedStatus: 201 }),
    ),
  UPSTREAM_UNAVAILABLE: async () => {
    answer("/customers/internal-accounts", (_req, res) => json(res, 500, { oops: true }));
    const fresh = await relayWith();
    const error = await thrown(() => listCredentials(client(fresh.url), { accountId: wallet() }));
    expect(error.details).toMatchObject({ lookupStatus: 500 });
    return error;
  },
  RELAY_STORE_UNAVAILABLE: async () => {
    const down = await relayWith({
      rateLimit: { store: { hit: () => Promise.reject(new Error("store down")) } },
    });
    const error = await request(down.url, "POST", "/auth/credentials", "{}");
    expect(error.details).toMatchObject({ retryAfterSeconds: 1, retryAfterMs: 1_000 });
    return error;
  },
  UPSTREAM_TIMEOUT: async () => {
    answer("/auth/credentials", () => true); // never answers
    const slow = await relayWith({ timeoutMs: 200 });
    const error = await thrown(() => listCredentials(client(slow.url), { accountId: wallet() }));
    expect(error.details).toMatchObject({ timeoutMs: 200 });
    return error;
  },
  RELAY_MISCONFIGURED: { in: "test/flows.scaRelayConfig.test.ts" },
  // Passkey ceremonies (a client-only path: the browser's DOMException read with its context).
  WEBAUTHN_UNSUPPORTED: passkey("NotSupportedError"),
  WEBAUTHN_CANCELLED: passkey("NotAllowedError", { elapsedMs: 1_000 }),
  WEBAUTHN_TIMEOUT: passkey("NotAllowedError", {
    elapsedMs: 61_000,
    options: { challenge: "", timeout: 60_000 },
  }),
  WEBAUTHN_INVALID_STATE: passkey("InvalidStateError"),
  WEBAUTHN_SECURITY: passkey("SecurityError"),
  WEBAUTHN_RP_ID_INVALID: passkey("SecurityError", {
    options: { challenge: "", rpId: "example.com" },
    hostname: "other.test",
  }),
  WEBAUTHN_DOMAIN_INVALID: passkey("SecurityError", { hostname: "127.0.0.1" }),
  WEBAUTHN_FAILED: passkey("UnknownError"),
  WEBAUTHN_WRONG_CREDENTIAL: async () => {
    // The challenge named one passkey; the authenticator (autofill) answered with another.
    const webauthn = {
      register: () => Promise.reject(new Error("not asked")),
      authenticate: async () => ({
        id: "other",
        rawId: "other",
        type: "public-key" as const,
        clientExtensionResults: {},
        response: { clientDataJSON: "", authenticatorData: "", signature: "" },
      }),
    };
    const challenge = {
      credentialId: "named",
      challenge: "challenge",
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    };
    const prepared = { credentialId: "named", challenge, key: await generateSigningKey() };
    const error = await thrown(() =>
      signInWithPasskey(client(stub.url, { webauthn }), { prepared } as never),
    );
    expect(error.details).toEqual({ expected: "named", used: "other" });
    return error;
  },
  // Signet's own.
  INVALID_ARGUMENT: () => thrown(() => listCredentials(client(), {} as never)),
  NOT_FOUND: async () => {
    answer("/auth/credentials", (_req, res) => json(res, 404, undefined));
    return thrown(() => listCredentials(client(stub.url), { accountId: wallet() }));
  },
  QUOTE_EXPIRED: { in: "test/flows.sca.test.ts" },
  QUOTE_FAILED: { in: "test/flows.sca.test.ts" },
  SCA_LOGIN_FAILED: async () => {
    answer("/sca/login", (req, res) =>
      req.url.endsWith("/start")
        ? json(res, 200, { factor: "SMS_OTP", challengeId: "challenge-1" })
        : json(res, 200, { status: "FAILED" }),
    );
    const error = await thrown(() =>
      scaLogin(client(stub.url), { onChallenge: () => ({ code: "123456" }) }),
    );
    expect(error.details).toEqual({ status: "FAILED" });
    return error;
  },
  SCA_ORIGIN_NOT_ALLOWED: async () => {
    answer("/sca/factors", (_req, res) =>
      json(res, 200, {
        options: { challenge: "Y2hhbGxlbmdl", rp: { id: "app.example", name: "App" } },
        allowedOrigins: ["https://wallet.example"],
      }),
    );
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: "webauthn.create",
        challenge: "Y2hhbGxlbmdl",
        origin: "https://app.example",
      }),
    ).toString("base64url");
    const webauthn = {
      register: async () => ({
        id: "cred",
        rawId: "cred",
        type: "public-key" as const,
        clientExtensionResults: {},
        response: { clientDataJSON, attestationObject: "" },
      }),
      authenticate: () => Promise.reject(new Error("not asked")),
    };
    const error = await thrown(() => enrollScaPasskey(client(stub.url, { webauthn })));
    expect(error.details).toEqual({
      origin: "https://app.example",
      allowedOrigins: ["https://wallet.example"],
    });
    return error;
  },
  ENCODING_INVALID: () =>
    thrown(() => verifyStamp({ payload: "x", stamp: "not base64url!" } as never)),
  KEY_INVALID: () => thrown(() => importSigningKey("00".repeat(32))),
  POINT_INVALID: { in: "packages/core/test/crypto/errors.test.ts" },
  SIGNATURE_INVALID: { in: "packages/core/test/crypto/errors.test.ts" },
  DECRYPTION_FAILED: { in: "packages/core/test/crypto/errors.test.ts" },
  CHECKSUM_INVALID: { in: "packages/core/test/crypto/errors.test.ts" },
  BUNDLE_MALFORMED: async () => {
    const key: DecryptionKey = await generateDecryptionKey();
    return thrown(() =>
      openExportBundle({ bundle: "not json", key, organizationId: "o" } as never),
    );
  },
  BUNDLE_SIGNATURE_INVALID: { in: "packages/core/test/crypto/errors.test.ts" },
  BUNDLE_SIGNER_UNTRUSTED: { in: "packages/core/test/crypto/errors.test.ts" },
  BUNDLE_ORGANIZATION_MISMATCH: { in: "packages/core/test/crypto/errors.test.ts" },
  CRYPTO_UNAVAILABLE: async () => {
    // What the React Native entry checks before a client exists: a random source that gives no bytes.
    const error = await thrown(() => assertRandomSource({ randomBytes: () => new Uint8Array(0) }));
    expect(error.details).toHaveProperty("missing");
    return error;
  },
  KEY_STORAGE_UNAVAILABLE: { in: "packages/core/test/keys/key-stores.test.ts" },
  // A kept sign-in's resume whose noted one-time key the key store no longer holds.
  KEY_NOT_FOUND: { in: "packages/core/src/pending/keptSignIn.test.ts" },
  SESSION_EXPIRED: { in: "test/flows.sessionExpired.test.ts" },
  SESSION_KEY_MISMATCH: { in: "test/corpus.test.ts" },
  STEP_UP_REQUIRED: { in: "test/flows.stepUp.test.ts" },
  FRAME_REFUSED: { in: "packages/frame/test/channel.test.ts" },
  FRAME_UNAVAILABLE: { in: "packages/frame/test/channel.test.ts" },
  NO_SESSION: async () => {
    const error = await thrown(() => exportWallet(client(stub.url), { accountId: wallet() }));
    expect(error.details).toEqual({ accountId: wallet() });
    return error;
  },
  CHALLENGE_EXPIRED: async () => {
    // The challenge lapses while the device signs (a slow passkey prompt, say).
    const error = await signed((_req, res) => json(res, 202, challengeJson(Date.now(), {}, 500)), {
      restartOnExpiry: false,
      sign: () => new Promise<string>((resolve) => setTimeout(() => resolve("STAMP"), 800)),
    });
    expect(error.details).toMatchObject({
      operation: "test",
      requestId: expect.stringMatching(/^Request:/),
    });
    return error;
  },
  CHALLENGE_INVALID: async () => {
    const error = await signed((_req, res) =>
      json(res, 202, { ...challengeJson(Date.now()), requestId: "nope" }),
    );
    expect(error.details).toMatchObject({ field: "requestId" });
    return error;
  },
  PAYLOAD_MISMATCH: async () => {
    const error = await signed((_req, res) => json(res, 202, challengeJson(Date.now())), {
      // An export's check, against a payload of no activity this version knows.
      checkPayload: expectActivity({}, "InternalAccount:2b0e4a8c-1f4e-4c59-9f0e-6b1d2a3c4d5e", [
        { types: ["ACTIVITY_TYPE_EXPORT_WALLET"], equals: {} },
      ]),
    });
    expect(error.details).toMatchObject({ operation: "test", signature: 1 });
    return error;
  },
  PROCESSING_TIMEOUT: async () => {
    const error = await signed(
      (req, res) =>
        req.headers["request-id"] === undefined
          ? json(res, 202, challengeJson(Date.now()))
          : json(res, 200, { status: "PROCESSING" }),
      { timeoutMs: 300, isProcessing: () => true },
    );
    expect(error.details).toMatchObject({ operation: "test" });
    return error;
  },
  OUTCOME_UNKNOWN: async () => {
    // The signed send's answer is lost; its re-send meets the spent request id, and the caller's
    // look-up settles nothing: what the first send did is unknown, and the error says which step.
    let sends = 0;
    const error = await signed(
      (req, res) => {
        if (req.headers["request-id"] === undefined)
          return json(res, 202, challengeJson(Date.now()));
        if (sends++ === 0) {
          res.destroy();
          return true;
        }
        return json(res, 401, {
          status: 401,
          code: "UNAUTHORIZED",
          message: "This Request-Id has already been used.",
          details: { reason: "REQUEST_ID_ALREADY_USED" },
        });
      },
      {
        retry: { retryCount: 1, backoff: { baseMs: 1, maxMs: 1 } },
        resolveAmbiguous: async () => undefined,
      },
    );
    expect(error.details).toEqual({
      operation: "test",
      step: "leg 2",
      requestId: expect.stringMatching(/^Request:/),
      code: "UNAUTHORIZED",
      status: 401,
    });
    return error;
  },
  ABORTED: () =>
    thrown(() => listCredentials(client(), { accountId: wallet(), signal: AbortSignal.abort() })),
  NETWORK: async () => {
    const closed = await relayWith();
    await closed.close();
    const error = await thrown(() => listCredentials(client(closed.url), { accountId: wallet() }));
    expect(error.details).toEqual({ sent: false });
    return error;
  },
  RUNTIME_UNSUPPORTED: { in: "packages/core/test/crypto/chunk-runtime.test.ts" },
  TIMEOUT: async () => {
    answer("/auth/credentials", () => true); // never answers
    return thrown(() =>
      listCredentials(client(stub.url, { requestTimeoutMs: 200 }), { accountId: wallet() }),
    );
  },
  MALFORMED_RESPONSE: async () => {
    answer("/auth/credentials", (_req, res) => json(res, 200, { data: [{ id: "x" }] }));
    return thrown(() => listCredentials(client(stub.url), { accountId: wallet() }));
  },
  UNEXPECTED_STATUS: async () => {
    answer("/auth/credentials", (_req, res) => json(res, 418, undefined));
    return thrown(() => listCredentials(client(stub.url), { accountId: wallet() }));
  },
  PROVIDER_MISSING: { in: "packages/react/test/errorDetails.test.tsx" },
  UNEXPECTED_ERROR: { in: "packages/react/test/errorDetails.test.tsx" },
};

beforeAll(async () => {
  stub = await startStubService();
  relay = await relayWith();
});

afterAll(async () => {
  for (const running of started) await running.close().catch(() => undefined);
  await stub.close();
});

describe("every code's details are the fields its type lists", () => {
  it("the table and the cases name every code of the relay too", () => {
    for (const code of Object.keys(RelayErrorCode)) {
      expect(DETAIL_FIELDS).toHaveProperty(code);
      expect(CASES).toHaveProperty(code);
    }
  });

  const made = Object.entries(CASES).filter(
    (entry): entry is [string, () => Promise<Made>] => typeof entry[1] === "function",
  );
  it.each(made)("%s", async (code, make) => {
    stub.override = undefined;
    const result = await make();
    const { error, open } = result instanceof SignetError ? { error: result, open: false } : result;
    expect(error.code).toBe(code);
    expectDocumentedDetails(error, open);
  });

  const elsewhere = Object.entries(CASES).filter(
    (entry): entry is [string, { in: string }] => typeof entry[1] === "object",
  );
  it.each(elsewhere)("%s is made and judged in %s", (code, { in: file }) => {
    const text = readFileSync(file, "utf8");
    expect(text).toContain(`"${code}"`);
    expect(text).toContain("expectDocumentedDetails");
  });
});
