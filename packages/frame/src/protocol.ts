// The channel between the app's page and the signer frame (README "The channel"): typed messages
// with a version, a fresh random id per request, answers matched by id. Both sides read every
// message through `readMessage`, which refuses anything of another shape; the origin and window
// checks are each side's own (adapter.ts, page/channel.ts). No field ever carries a private key,
// an OTP code or a phrase: requests carry public keys, payloads and opaque handles; answers carry
// public keys, stamps, handles and `{ shownIn: "frame" }`.

import type { RegistrationResponseJSON } from "@signet/core";

/** The tag every message of the channel carries, so that other `postMessage` traffic is ignored. */
export const CHANNEL = "signet-frame";
/** The channel's version: a message of another version is refused (`FRAME_REFUSED`, `unexpected`). */
export const CHANNEL_VERSION = 1;

/** A request the page sends to the frame, by kind. */
export type FrameRequestBody =
  /** A new non-extractable signing key, held by the frame until stored or forgotten. */
  | { kind: "generate" }
  /** The ids of the frame's key store. */
  | { kind: "list" }
  /** The key stored under `storeId`, as a handle and its public key. */
  | { kind: "get"; storeId: string }
  /** Stores the frame-held key of `handle` under `storeId`. */
  | { kind: "set"; storeId: string; handle: string }
  | { kind: "delete"; storeId: string }
  /**
   * Stamps `payload` with the key of `handle`, after the operation's check and, where the
   * operation moves money, exports or changes credentials, the user's tap inside the frame.
   */
  | {
      kind: "stamp";
      handle: string;
      payload: string;
      operation: string;
      method: string;
      path: string;
      body?: string | undefined;
    }
  /**
   * A fresh decrypt-only key for one export or one legacy session bundle; the frame keeps its
   * private half. It serves once: an export that names it claims it, an `openSession` spends it.
   */
  | { kind: "exportKey" }
  /**
   * Opens the export bundle with the key of `handle` and shows the phrase inside the frame. Which
   * signers of the bundle it trusts is the frame's own configuration, never the page's.
   */
  | {
      kind: "showExport";
      handle: string;
      bundle: string;
      organizationId?: string | undefined;
    }
  /**
   * Runs a passkey registration (WebAuthn `create`) inside the frame, after the user's tap there:
   * `options` is core's `RegistrationOptionsJSON` as JSON. The frame remembers the attestation
   * it got, and signs the add of that attestation only (README "Passkeys").
   */
  | { kind: "register"; options: string }
  /**
   * Opens a legacy `encryptedSessionSigningKey` (`bundle`) with the decrypt-only key of `handle`
   * and keeps the session key in the frame as a fresh non-extractable key of its own, as a
   * `generate` key is; the answer is its handle and public keys, never the key.
   */
  | { kind: "openSession"; handle: string; bundle: string };

export type FrameRequestKind = FrameRequestBody["kind"];

/** A request on the wire. */
export type FrameRequest = FrameRequestBody & { channel: typeof CHANNEL; v: number; id: string };

/** What each kind answers. */
export type FrameResults = {
  generate: { handle: string; publicKey: string; publicKeyUncompressed: string };
  list: { storeIds: string[] };
  get: { handle: string; publicKey: string; publicKeyUncompressed: string } | null;
  set: null;
  delete: null;
  stamp: { stamp: string };
  exportKey: { handle: string; publicKeyUncompressed: string };
  showExport: { shownIn: "frame" };
  register: { registration: RegistrationResponseJSON };
  openSession: { handle: string; publicKey: string; publicKeyUncompressed: string };
};

/** A refusal or failure as it crosses the channel: a `SignetError`'s code, message and details. */
export type WireError = { code: string; message: string; details?: Record<string, unknown> };

/**
 * An answer on the wire, the frame's one `ready` announcement, or its notice that a request of the
 * page's waits for the user's tap in the frame (`confirming`, before that request's answer).
 */
export type FrameAnswer =
  | { channel: typeof CHANNEL; v: number; kind: "ready" }
  | { channel: typeof CHANNEL; v: number; kind: "confirming"; id: string; operation: string }
  | { channel: typeof CHANNEL; v: number; kind: "answer"; id: string; ok: true; result: unknown }
  | { channel: typeof CHANNEL; v: number; kind: "answer"; id: string; ok: false; error: WireError };

/** Request ids: 16 random bytes as 32 hex digits, fresh per request. */
export const ID_PATTERN = /^[0-9a-f]{32}$/;

const KINDS: ReadonlySet<string> = new Set<FrameRequestKind>([
  "generate",
  "list",
  "get",
  "set",
  "delete",
  "stamp",
  "exportKey",
  "showExport",
  "register",
  "openSession",
]);

/** The string fields each kind must carry (and the optional ones it may). */
const FIELDS: Record<
  FrameRequestKind,
  { required: readonly string[]; optional: readonly string[] }
> = {
  generate: { required: [], optional: [] },
  list: { required: [], optional: [] },
  get: { required: ["storeId"], optional: [] },
  set: { required: ["storeId", "handle"], optional: [] },
  delete: { required: ["storeId"], optional: [] },
  stamp: { required: ["handle", "payload", "operation", "method", "path"], optional: ["body"] },
  exportKey: { required: [], optional: [] },
  showExport: { required: ["handle", "bundle"], optional: ["organizationId"] },
  register: { required: ["options"], optional: [] },
  openSession: { required: ["handle", "bundle"], optional: [] },
};

/** A limit on any string field: payloads and bundles are a few kilobytes. */
const MAX_FIELD = 64 * 1024;

const isString = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= MAX_FIELD;

/** Reads a request, or says why it is not one (`unexpected`). */
export function readRequest(data: unknown): FrameRequest | "unexpected" {
  if (typeof data !== "object" || data === null) return "unexpected";
  const message = data as Record<string, unknown>;
  if (message.channel !== CHANNEL || message.v !== CHANNEL_VERSION) return "unexpected";
  if (typeof message.id !== "string" || !ID_PATTERN.test(message.id)) return "unexpected";
  if (typeof message.kind !== "string" || !KINDS.has(message.kind)) return "unexpected";
  const fields = FIELDS[message.kind as FrameRequestKind];
  if (!fields.required.every((name) => isString(message[name]))) return "unexpected";
  if (!fields.optional.every((name) => message[name] === undefined || isString(message[name])))
    return "unexpected";
  return message as FrameRequest;
}

/** Reads an answer, or says it is not one. */
export function readAnswer(data: unknown): FrameAnswer | "unexpected" {
  if (typeof data !== "object" || data === null) return "unexpected";
  const message = data as Record<string, unknown>;
  if (message.channel !== CHANNEL || message.v !== CHANNEL_VERSION) return "unexpected";
  if (message.kind === "ready") return message as FrameAnswer;
  if (message.kind === "confirming")
    return typeof message.id === "string" &&
      ID_PATTERN.test(message.id) &&
      typeof message.operation === "string"
      ? (message as FrameAnswer)
      : "unexpected";
  if (message.kind !== "answer" || typeof message.id !== "string" || !ID_PATTERN.test(message.id))
    return "unexpected";
  if (message.ok === true && "result" in message) return message as FrameAnswer;
  const error = message.error as Partial<WireError> | undefined;
  if (message.ok === false && typeof error?.code === "string" && typeof error.message === "string")
    return message as FrameAnswer;
  return "unexpected";
}

/** A fresh request id from the platform's CSPRNG. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The origin of `url` (`https://signer.example`), for the channel's checks. */
export function originOf(url: string, base?: string): string {
  return new URL(url, base).origin;
}
