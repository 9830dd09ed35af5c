// A `fetch` for a core client that answers with the service's own words: the corpus's 202s and
// answers (packages/test/corpus), played in the order a test arms them. It does what the service
// documents and nothing more: it writes the device's own values where the documents show the
// example request's (withOwnValues), checks that each signed retry carries the same request id and
// body and a stamp over those exact bytes by the key of a session the device holds, and binds each
// session it issues to the key the device sent for it. What the documents elide (a sealed bundle,
// an OTP target) it makes for keys of its own, which the test's client trusts.
import {
  generateKeyPair,
  generateMnemonic,
  makeExportBundle,
  makeTargetBundle,
  openOtpBundle,
  type P256KeyPair,
  parsePublicKey,
  sealLegacySessionKey,
  toHex,
  verifyStamp,
} from "../../packages/emulator/src/crypto/index.js";
import {
  type CorpusChallenge,
  type CorpusEntry,
  valueAt,
  withOwnValues,
} from "../../packages/test/src/corpus.js";

export const RELAY_URL = "https://wallet.example/api/grid";
export const ACCOUNT = "InternalAccount:019542f5-b3e7-1d02-0000-000000000002";
/** The OAuth credential the test signs in with first (any other credential of the account). */
export const SIGN_IN_CREDENTIAL = "AuthMethod:019542f5-b3e7-1d02-0000-00000000000a";
/** The organization of most examples; `org_abc123` is the refresh and quote examples'. */
const ONE_ORGANIZATION = "org_2m9F...";

/**
 * One account's payload: the examples name two organizations (`org_abc123` in the refresh and
 * quote examples, `org_2m9F…` elsewhere), and one account has one.
 */
export function inOneOrganization(payload: string): string {
  return payload.replace('"organizationId":"org_abc123"', `"organizationId":"${ONE_ORGANIZATION}"`);
}

/** The answer the test gives the device for its sign-in (the walkthrough's AuthSession). */
type SessionJson = Record<string, unknown> & { id: string };

/** One payload the device stamped, with the stamp checked. */
export type Signed = { entry: string; payload: string };

type Armed = {
  entry: CorpusEntry;
  /** Replaces the payload after the device's own values are written in (a swap, in a test). */
  swap?: ((payload: string, leg: number) => string) | undefined;
  leg: number;
  pending?: { requestId: string; payload: string; body: string } | undefined;
  /** The path of the first leg (the resource a revoke or refresh is about). */
  pendingPath?: string | undefined;
};

export type ReplayOptions = {
  /** The answer to the scaffolding sign-in (an AuthSession the documents show). */
  signInSession: SessionJson;
  /** Write one organization into every payload: a sequence plays one account's activities. */
  oneOrganization?: boolean | undefined;
  /** The device's passkey, for `passkey.credentialId`. */
  passkeyCredentialId?: (() => string) | undefined;
};

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });

const text = (body: RequestInit["body"]): string =>
  body === undefined || body === null
    ? ""
    : typeof body === "string"
      ? body
      : new TextDecoder().decode(body as Uint8Array);

/** The corpus played as the service. */
export function createReplay(options: ReplayOptions) {
  /** The enclave key the test's client trusts for bundles. */
  const enclave = generateKeyPair();
  const otpTarget = generateKeyPair();
  const sessions = new Map<string, { key: string; credentialId: string }>();
  const issued = new Set<string>();
  const queue: Armed[] = [];
  const signed: Signed[] = [];
  let passkeyKey: string | undefined;

  /** A documented session, under a fresh id when the documented one was issued already. */
  function issue(body: SessionJson, key: string, credentialId: string): SessionJson {
    let { id } = body;
    for (let n = 1; issued.has(id); n++)
      id = `${body.id.slice(0, -4)}${String(n).padStart(4, "0")}`;
    issued.add(id);
    sessions.set(id, { key: compressed(key), credentialId });
    return { ...body, id };
  }

  function compressed(hex: string): string {
    const point = parsePublicKey(hex);
    if (!point) throw new Error("the device sent a key that is no P-256 point");
    return toHex(point.compressed);
  }

  function payloadFor(armed: Armed, challenge: CorpusChallenge, body: string): string {
    const sent = body === "" ? {} : (JSON.parse(body) as unknown);
    let payload = withOwnValues(challenge.payloadToSign, armed.entry.ownValues, (path) =>
      valueAt({ body: sent }, path),
    );
    if (options.oneOrganization) payload = inOneOrganization(payload);
    return armed.swap ? armed.swap(payload, armed.leg) : payload;
  }

  /** A stamp over `payload` by the key of a held session, or the reason it is not one. */
  function checkStamp(
    headers: Headers,
    payload: string,
    keys: readonly string[],
  ): string | undefined {
    const stamp = headers.get("grid-wallet-signature");
    if (!stamp) return "no stamp";
    const check = verifyStamp(stamp, payload, keys);
    return check.ok ? undefined : check.reason;
  }

  /** The final answer of an armed entry, as the service would give it to this device. */
  function complete(armed: Armed, body: string): Response {
    const { entry } = armed;
    const answer = entry.answer ?? { status: 204 };
    const sent = body === "" ? {} : (JSON.parse(body) as Record<string, unknown>);
    switch (entry.operation) {
      case "refreshSession":
      case "signInWithPasskey": {
        // The refreshed session ends once the new one is issued.
        sessions.delete(armed.pendingPath?.split("/")[3] ?? "");
        const key = String(sent.clientPublicKey);
        const documented = answer.body as SessionJson;
        if (key.length === 130) {
          // The legacy flow: a session key made here, sealed to the device's key.
          const made = generateKeyPair();
          const session = issue(documented, toHex(made.publicKeyCompressed), "refreshed");
          return json(answer.status, {
            ...session,
            encryptedSessionSigningKey: sealLegacySessionKey({
              sessionPrivateKey: made.privateKey,
              recipientPublicKey: parsePublicKey(key)!.uncompressed,
            }),
          });
        }
        return json(answer.status, issue(documented, key, "refreshed"));
      }
      case "exportWallet": {
        const key = parsePublicKey(String(sent.clientPublicKey));
        if (!key) return json(400, { code: "INVALID_INPUT", message: "clientPublicKey" });
        return json(answer.status, {
          ...(answer.body as object),
          encryptedWalletCredentials: makeExportBundle({
            mnemonic: generateMnemonic(),
            recipientPublicKey: key.uncompressed,
            organizationId: ONE_ORGANIZATION,
            signer: enclave,
          }),
        });
      }
      case "revokeSession": {
        const id =
          decodeURIComponent(armed.pendingPath ?? "")
            .split("/")
            .pop() ?? "";
        sessions.delete(id);
        return json(answer.status);
      }
      case "revokeCredential": {
        const id =
          decodeURIComponent(armed.pendingPath ?? "")
            .split("/")
            .pop() ?? "";
        for (const [sessionId, held] of sessions)
          if (held.credentialId === id) sessions.delete(sessionId);
        return json(answer.status);
      }
      default:
        return json(answer.status, answer.body);
    }
  }

  /** Sessions' keys of the account (the keys the service lets stamp for it). */
  const keys = () => [...sessions.values()].map((s) => s.key);

  const resources = { payloadFor, checkStamp, keys, signed };
  const fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    const path = decodeURIComponent(url.pathname.replace(/^\/api\/grid/, ""));
    const method = init.method ?? "GET";
    const headers = new Headers(init.headers);
    const body = text(init.body);
    if (method === "GET" && path === "/auth/sessions") {
      return json(200, {
        data: [...sessions.keys()].map((id) => ({
          ...options.signInSession,
          id,
        })),
      });
    }
    if (method === "POST" && path === `/auth/credentials/${SIGN_IN_CREDENTIAL}/verify`) {
      const sent = JSON.parse(body) as { clientPublicKey: string };
      return json(200, issue(options.signInSession, sent.clientPublicKey, SIGN_IN_CREDENTIAL));
    }
    const armed = queue[0];
    if (!armed) throw new Error(`the replay has nothing armed for ${method} ${path}`);
    const { entry } = armed;
    const done = (response: Response) => {
      queue.shift();
      return response;
    };
    // The sign-in steps that sign nothing: the passkey's challenge and verify, the OTP's challenge.
    if (entry.operation === "signInWithPasskey" && path.endsWith("/challenge")) {
      passkeyKey = String((JSON.parse(body) as { clientPublicKey: string }).clientPublicKey);
      return json(200, {
        ...entry.passkeyChallenge,
        credentialId: options.passkeyCredentialId?.() ?? entry.passkeyChallenge?.credentialId,
      });
    }
    if (entry.operation === "signInWithPasskey" && path.endsWith("/verify")) {
      return done(json(200, issue(entry.answer?.body as SessionJson, passkeyKey ?? "", "passkey")));
    }
    if (entry.operation === "verifyOtp" && path.endsWith("/challenge")) {
      return json(200, {
        ...entry.otpChallenge?.body,
        otpEncryptionTargetBundle: makeTargetBundle({
          targetPublic: otpTarget.publicKeyUncompressed,
          attestationKey: enclave,
        }),
      });
    }
    if (method !== entry.request?.method) {
      throw new Error(
        `${entry.id}: expected ${entry.request?.method}, the device sent ${method} ${path}`,
      );
    }
    // Quote execute: one request, its stamp over the quote's payload.
    if (entry.operation === "executeQuote") {
      const quote = entry.quote as {
        paymentInstructions: { accountOrWalletInfo: { payloadToSign: string } }[];
      };
      const documented = quote.paymentInstructions[0]!.accountOrWalletInfo.payloadToSign;
      const payload = options.oneOrganization ? inOneOrganization(documented) : documented;
      const reason = checkStamp(headers, payload, keys());
      if (reason) return done(json(401, { code: "WALLET_SIGNATURE_INVALID", message: reason }));
      signed.push({ entry: entry.id, payload });
      return done(complete(armed, body));
    }
    if (entry.change) return playResource(resources, armed, { path, headers, body }, done);
    const signature = headers.get("grid-wallet-signature");
    if (signature === null) {
      const challenge = entry.challenges[0]!;
      const payload = payloadFor(armed, challenge, body);
      armed.leg = 0;
      armed.pending = { requestId: challenge.requestId, payload, body };
      armed.pendingPath = path;
      return json(202, { ...challenge, payloadToSign: payload });
    }
    const pending = armed.pending;
    if (!pending || headers.get("request-id") !== pending.requestId) {
      return done(
        json(401, { code: "UNAUTHORIZED", message: "Request-Id matches no pending challenge" }),
      );
    }
    if (body !== pending.body) {
      return done(json(401, { code: "WALLET_SIGNATURE_BODY_MISMATCH", message: "another body" }));
    }
    // A refresh is stamped by the session it refreshes; an OTP verify by the TEK sealed in its
    // bundle; anything else by any session of the account.
    const refreshed =
      entry.operation === "refreshSession" ? sessions.get(path.split("/")[3] ?? "") : undefined;
    const stampKeys =
      entry.operation === "verifyOtp"
        ? [tekOf(body)]
        : entry.operation === "refreshSession"
          ? refreshed
            ? [refreshed.key]
            : []
          : keys();
    const reason = checkStamp(headers, pending.payload, stampKeys);
    if (reason) return done(json(401, { code: "WALLET_SIGNATURE_INVALID", message: reason }));
    signed.push({ entry: entry.id, payload: pending.payload });
    const next = entry.challenges[armed.leg + 1];
    if (next) {
      armed.leg += 1;
      const payload = payloadFor(armed, next, body);
      armed.pending = { requestId: next.requestId, payload, body };
      return json(202, { ...next, payloadToSign: payload });
    }
    if (entry.operation === "verifyOtp") {
      return done(json(200, issue(entry.answer?.body as SessionJson, tekOf(body), "otp")));
    }
    return done(complete(armed, body));
  };

  /** The TEK sealed inside the device's OTP bundle (the enclave's view). */
  function tekOf(body: string): string {
    const opened = openOtpBundle(
      String((JSON.parse(body) as Record<string, unknown>).encryptedOtpBundle),
      otpTarget,
    );
    if (!opened.ok) throw new Error(opened.reason);
    return opened.publicKey;
  }

  return {
    fetch,
    signed,
    /** The public key the client must trust for bundles. */
    enclavePublicKey: toHex(enclave.publicKeyUncompressed),
    /** Arms an entry: the next requests play it. */
    play(entry: CorpusEntry, swap?: Armed["swap"]) {
      queue.push({ entry, swap, leg: 0 });
    },
    /** Whether every armed entry was played to its end. */
    idle: () => queue.length === 0,
    /** Drops what is armed (after a refusal, the device sends nothing more). */
    reset() {
      queue.splice(0);
    },
    sessionCount: () => sessions.size,
  };
}

/** What of the replay a resource's exchange uses. */
type ResourceReplay = {
  payloadFor(armed: Armed, challenge: CorpusChallenge, body: string): string;
  checkStamp(headers: Headers, payload: string, keys: readonly string[]): string | undefined;
  keys(): string[];
  signed: Signed[];
};

/**
 * A resource that holds its challenge (#853's contact change): the create answers the change
 * with its `payloadToSign`; the submit to the change's own path carries the stamp only, with no
 * body and no `Request-Id`, by any session of the account; it answers the applied change.
 */
function playResource(
  replay: ResourceReplay,
  armed: Armed,
  sent: { path: string; headers: Headers; body: string },
  done: (response: Response) => Response,
): Response {
  const { payloadFor, checkStamp, keys, signed } = replay;
  const change = armed.entry.change as NonNullable<CorpusEntry["change"]>;
  const { entry } = armed;
  const { path, headers, body } = sent;
  if (armed.pending === undefined) {
    if (path !== entry.request?.path || body !== JSON.stringify(entry.request.body)) {
      throw new Error(`${entry.id}: the device created ${body} at ${path}`);
    }
    const payload = payloadFor(armed, entry.challenges[0]!, body);
    armed.pending = { requestId: "", payload, body };
    armed.pendingPath = `${path}/${String(change.body.id)}/submit`;
    return json(change.status, { ...change.body, payloadToSign: payload });
  }
  if (path !== armed.pendingPath) throw new Error(`${entry.id}: the device sent to ${path}`);
  if (body !== "" || headers.has("request-id")) {
    return done(
      json(400, { code: "INVALID_INPUT", message: "a submit has no body and no Request-Id" }),
    );
  }
  const reason = checkStamp(headers, armed.pending.payload, keys());
  if (reason) return done(json(401, { code: "WALLET_SIGNATURE_INVALID", message: reason }));
  signed.push({ entry: entry.id, payload: armed.pending.payload });
  return done(json(entry.answer?.status ?? 200, entry.answer?.body));
}

export type Replay = ReturnType<typeof createReplay>;
export type { P256KeyPair };
