// The signer frame's side of the channel (README "The channel"): it answers only its configured
// parent origin and only `window.parent`, reads every request through the channel's shape, never
// answers an id twice, runs core's check of the request's route before any stamp, and asks for a
// tap inside itself (one confirmation at a time) before what `rules.ts` marks as needing one.

import type { DecryptionKey, SigningKey } from "../../../core/src/crypto/backend.js";
import {
  createBrowserWebAuthn,
  createIndexedDbKeyStore,
  generateDecryptionKey,
  generateSigningKey,
  importSigningKey,
  openExportBundle,
  openSessionKeyBundle,
  restoreSigningKey,
  SignetError,
  stampPayload,
} from "../../../core/src/index.js";
import {
  CHANNEL,
  CHANNEL_VERSION,
  type FrameRequest,
  type FrameResults,
  newRequestId,
  readRequest,
} from "../protocol.js";
import { type ConfirmElsewhere, type ConfirmRow, confirmInFrame, showPhrase } from "./confirm.js";
import { openConfirmWindow } from "./confirmWindow.js";
import {
  accountOfStoreId,
  type Built,
  confirmationRows,
  type RuleRefusal,
  ruleFor,
} from "./rules.js";
import { type MadePasskey, readRegistrationOptions, registrationRows } from "./rulesPasskey.js";

const refuse = (reason: string, message: string, operation?: string): SignetError =>
  new SignetError("FRAME_REFUSED", message, {
    details: { reason, ...(operation ? { operation } : {}) },
  });

/** Where the frame runs: its root element, the one parent origin it serves, and its own trust. */
export type FrameContext = {
  root: HTMLElement;
  parentOrigin: string;
  /**
   * The export bundle's signers the frame trusts (its page's configuration, never the parent's):
   * absent, core's pinned production keys.
   */
  trustedExportSigners?: readonly string[] | undefined;
  /** Accept an unsigned export bundle (an emulator without keys). Default false. */
  allowUnsignedBundles?: boolean | undefined;
};

/** Starts the frame: listens to its parent and says it is ready. */
export function startFrame(context: FrameContext): void {
  const { root, parentOrigin, trustedExportSigners } = context;
  const store = createIndexedDbKeyStore({ dbName: "signet-frame" });
  // Keys in use, by handle (random, never the key): fresh ones until stored, stored ones by id.
  // A key opened from a legacy bundle (`openSession`) is marked: the bundle carries no signature,
  // so a page can seal a scalar of its own choosing to a decrypt-only key of the frame, and such
  // a key must never become a refresh's new session key.
  const keys = new Map<string, { key: SigningKey; storeId?: string; opened?: true }>();
  // Decrypt-only keys, by handle: each serves once, for an export (claimed when an export's stamp
  // names it, shown once confirmed) or a legacy session bundle (spent when opened).
  const exportKeys: DecryptionKeys = new Map();
  const seen = new Set<string>();
  // The passkeys this frame's own ceremonies made, by credential id: the add of one of these is
  // the only passkey add the frame signs (a page could otherwise make up an attestation of a key
  // it holds itself).
  const registrations = new Map<string, MadePasskey>();
  let webauthn: ReturnType<typeof createBrowserWebAuthn> | undefined;
  let confirming = false;

  /**
   * Shows `rows` under `title` and waits for the user's counted tap in the frame (one
   * confirmation at a time: a second is refused `busy`, never queued); a Cancel is `declined`.
   * `elsewhere` is the signer's window of engines without IntersectionObserver v2.
   */
  async function confirmTap(
    request: FrameRequest,
    operation: string,
    title: string,
    rows: readonly ConfirmRow[],
    elsewhere: ConfirmElsewhere | undefined,
  ): Promise<void> {
    if (confirming) throw refuse("busy", "A confirmation is already waiting", operation);
    confirming = true;
    try {
      // Tell the page a tap is awaited here, so that it can bring the frame into view; what is
      // asked stays in the frame (the page learns the operation it asked for, nothing more).
      reply({ kind: "confirming", id: request.id, operation });
      const approved = await confirmInFrame(root, title, rows, () => undefined, elsewhere);
      if (!approved) throw refuse("declined", "The user declined", operation);
    } finally {
      confirming = false;
    }
  }

  const hold = (key: SigningKey, storeId?: string, opened?: true) => {
    const handle = newRequestId();
    keys.set(handle, {
      key,
      ...(storeId === undefined ? {} : { storeId }),
      ...(opened ? { opened } : {}),
    });
    return handle;
  };
  const held = (handle: string) => {
    const entry = keys.get(handle);
    if (!entry) throw refuse("key", "The frame holds no key by this handle");
    return entry;
  };
  // Fresh: made here by `generate` and not stored yet. Never a key opened from a bundle (whose
  // scalar the page may know) nor a stored one.
  const isFreshKey = (publicKey: string) =>
    [...keys.values()].some(
      (entry) =>
        entry.storeId === undefined && entry.opened !== true && entry.key.publicKey === publicKey,
    );

  async function stamp(request: Extract<FrameRequest, { kind: "stamp" }>) {
    const { key, storeId } = held(request.handle);
    const found = ruleFor(request.method, request.path);
    if (!found)
      throw refuse("unsupported", "The frame does not sign this request yet", request.operation);
    const built = found.rule.build({
      key,
      storedAccountId: accountOfStoreId(storeId),
      ids: found.ids,
      body: bodyOf(request),
      isFreshKey,
      ...decryptionKeyUses(exportKeys),
      stampedByFreshKey: storeId === undefined,
      registration: (credentialId) => registrations.get(credentialId),
      payload: request.payload,
    });
    // The export's key is claimed before its tap, so that it never opens a session bundle; a
    // legacy refresh's likewise, before its check, so that it never shows an export after.
    if (typeof built === "object") claimDecryptionKeys(exportKeys, built);
    if (typeof built === "string") throw refusal(built, request.operation);
    await runCheck(built, request);
    if (built.gesture ?? found.rule.gesture) {
      await confirmTap(
        request,
        request.operation,
        found.rule.title,
        [
          ...confirmationRows(found.rule, built.accountId, request.payload, found.ids),
          ...(built.rows ?? []),
        ],
        // Without IntersectionObserver v2 the tap that counts is made in the signer's window.
        openConfirmWindow,
      );
      if (built.exportKey) {
        const entry = exportKeys.get(built.exportKey);
        if (entry) entry.confirmed = true;
      }
    }
    const stamp = await stampPayload(request.payload, key);
    built.stamped?.();
    return { stamp };
  }

  async function answer(request: FrameRequest): Promise<FrameResults[FrameRequest["kind"]]> {
    switch (request.kind) {
      case "generate": {
        const key = await generateSigningKey();
        return {
          handle: hold(key),
          publicKey: key.publicKey,
          publicKeyUncompressed: key.publicKeyUncompressed,
        };
      }
      case "list":
        return { storeIds: await store.list() };
      case "get": {
        const record = await store.get(request.storeId);
        if (!record) return null;
        const key = await restoreSigningKey(record);
        return {
          handle: hold(key, request.storeId),
          publicKey: key.publicKey,
          publicKeyUncompressed: key.publicKeyUncompressed,
        };
      }
      case "set": {
        const entry = held(request.handle);
        await store.set(request.storeId, entry.key.toRecord());
        entry.storeId = request.storeId;
        return null;
      }
      case "delete":
        await store.delete(request.storeId);
        for (const [handle, entry] of keys)
          if (entry.storeId === request.storeId) keys.delete(handle);
        return null;
      case "stamp":
        return stamp(request);
      case "exportKey": {
        const key = await generateDecryptionKey();
        const handle = key.publicKeyUncompressed;
        exportKeys.set(handle, { key, confirmed: false });
        return { handle, publicKeyUncompressed: key.publicKeyUncompressed };
      }
      case "register": {
        const options = readRegistrationOptions(request.options);
        if (!options) throw refuse("unexpected", "The passkey options are not valid", "addPasskey");
        // The ceremony's library loads while the user reads, so that the tap opens the prompt at
        // once (core's browser WebAuthn loads it as a chunk of its own).
        webauthn ??= createBrowserWebAuthn();
        webauthn.preload?.();
        // The tap here is the user activation a cross-origin frame needs to create a passkey; no
        // signer's window (the browser's own passkey prompt follows, which no page can cover).
        await confirmTap(
          request,
          "addPasskey",
          "Create a passkey",
          registrationRows(options),
          undefined,
        );
        const registration = await webauthn.register(options);
        registrations.set(registration.rawId, { registration, challenge: options.challenge });
        return { registration };
      }
      case "openSession": {
        const entry = exportKeys.get(request.handle);
        // A key an export claimed never opens a session (nor a spent one, which is gone); an
        // unclaimed one (a legacy sign-in's) or one a legacy refresh claimed does, once.
        if (!entry || entry.claimed === "export")
          throw refuse("key", "No decryption key for a session by this handle", "openSession");
        exportKeys.delete(request.handle);
        // The legacy bundle carries no signature (only its HPKE seal to the key this frame made):
        // core's open checks its encoding, checksum, point, seal and scalar.
        const scalar = await openSessionKeyBundle({ bundle: request.bundle, key: entry.key });
        try {
          // Non-extractable, and held by the frame: it stamps (its session's refresh, its proof)
          // and is stored as a `generate` key is, but is never a refresh's new key (see `keys`).
          const key = await importSigningKey(scalar);
          return {
            handle: hold(key, undefined, true),
            publicKey: key.publicKey,
            publicKeyUncompressed: key.publicKeyUncompressed,
          };
        } finally {
          scalar.fill(0);
        }
      }
      case "showExport": {
        const entry = exportKeys.get(request.handle);
        // Only an export the user confirmed in this frame is opened here.
        if (!entry?.confirmed)
          throw refuse("key", "No confirmed export for this key", "exportWallet");
        exportKeys.delete(request.handle);
        const phrase = await openExportBundle({
          bundle: request.bundle,
          key: entry.key,
          ...(request.organizationId ? { organizationId: request.organizationId } : {}),
          // A page that chose the signers could make the frame show a phrase of its own.
          ...(trustedExportSigners ? { trustedKeys: trustedExportSigners } : {}),
          allowUnsigned: context.allowUnsignedBundles === true,
        });
        showPhrase(root, phrase);
        return { shownIn: "frame" };
      }
    }
  }

  const reply = (message: Record<string, unknown>) =>
    window.parent.postMessage({ channel: CHANNEL, v: CHANNEL_VERSION, ...message }, parentOrigin);

  addEventListener("message", (event: MessageEvent) => {
    // Only the configured parent origin, and only the window that framed us: a message from a
    // third page, a popup or another frame is dropped unanswered.
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    const request = readRequest(event.data);
    if (request === "unexpected") {
      const id = (event.data as { id?: unknown } | null)?.id;
      if (typeof id === "string" && /^[0-9a-f]{32}$/.test(id) && !seen.has(id)) {
        seen.add(id);
        const error = refuse("unexpected", "A message not in the channel's shape was refused");
        reply({ kind: "answer", id, ok: false, error: wire(error) });
      }
      return;
    }
    // An id is answered once: a replay is dropped, whatever it asks.
    if (seen.has(request.id)) return;
    seen.add(request.id);
    answer(request).then(
      (result) => reply({ kind: "answer", id: request.id, ok: true, result }),
      (error: unknown) => reply({ kind: "answer", id: request.id, ok: false, error: wire(error) }),
    );
  });
  reply({ kind: "ready" });
}

/** An error as it crosses the channel: code, message and details (never a stack or a cause). */
type DecryptionKeys = Map<
  string,
  { key: DecryptionKey; confirmed: boolean; claimed?: "export" | "session" }
>;

/** The request's body, parsed (an object), or undefined; a body that is not JSON is refused. */
function bodyOf(request: { body?: string | undefined; operation: string }) {
  try {
    const parsed = request.body === undefined ? undefined : JSON.parse(request.body);
    return typeof parsed === "object" && parsed !== null
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    throw refuse("unexpected", "The request's body is not JSON", request.operation);
  }
}

/** What a decrypt-only key may serve: an export (never one a legacy refresh claimed), a session. */
const decryptionKeyUses = (keys: DecryptionKeys) => ({
  isExportKey: (publicKey: string) => {
    const entry = keys.get(publicKey);
    return entry !== undefined && entry.claimed !== "session";
  },
  isSessionDecryptionKey: (publicKey: string) => {
    const entry = keys.get(publicKey);
    return entry !== undefined && entry.claimed === undefined;
  },
});

/** Claims the decrypt-only key an export or a legacy refresh names, for that use alone. */
function claimDecryptionKeys(keys: DecryptionKeys, built: Built): void {
  const exportEntry = built.exportKey ? keys.get(built.exportKey) : undefined;
  if (exportEntry) exportEntry.claimed = "export";
  const sessionEntry = built.sessionDecryptionKey
    ? keys.get(built.sessionDecryptionKey)
    : undefined;
  if (sessionEntry) sessionEntry.claimed = "session";
}

const REFUSALS: Record<RuleRefusal, string> = {
  unsupported: "The frame does not sign this request yet",
  key: "The request names a key this frame did not make",
  passkey:
    "The passkey was not created by the signer frame: pass frameSigner().webauthn to createClient",
  kind: "The removal removes no kind of sign-in method the frame knows",
};

/** A rule's refusal before any check, as the channel answers it. */
const refusal = (reason: RuleRefusal, operation: string) =>
  refuse(reason, REFUSALS[reason], operation);

/** Core's check of the payload for the request's operation (its first signature's). */
async function runCheck(built: Built, request: { payload: string; operation: string }) {
  try {
    const verdict = await built.check(request.payload, {
      operation: request.operation,
      signature: 1,
      now: Date.now(),
    });
    if (!verdict.known) throw new Error("an activity core does not know");
  } catch (cause) {
    throw new SignetError("FRAME_REFUSED", "The payload failed the operation's check", {
      details: { reason: "check", operation: request.operation },
      cause,
    });
  }
}

function wire(error: unknown) {
  if (error instanceof SignetError)
    return {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: { ...error.details } } : {}),
    };
  return { code: "FRAME_REFUSED", message: "The frame failed", details: { reason: "unexpected" } };
}
