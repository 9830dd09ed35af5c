// What the app passes to `createClient`: core's `crypto` and `keyStore` seams, answered by the
// signer frame (README "Using it"). Keys are made, kept and used in the frame's origin; this side
// holds public keys and opaque handles only. Every stamp names its operation and request
// (`CryptoApi.describeStamp`), which the frame checks with core's own checks before it signs.
import {
  type CryptoApi,
  createBrowserWebAuthn,
  createCryptoApi,
  createWebCryptoBackend,
  type DecryptionKey,
  type ExportShownElsewhere,
  type KeyStore,
  type OpenExportBundleParameters,
  type OpenSessionKeyBundleParameters,
  SignetError,
  type SigningKey,
  type SigningKeyRecord,
  type StampRequest,
  type WebAuthnProvider,
} from "@signet/core";
import { type ChannelOptions, type FrameChannel, openChannel } from "./channel.js";

/** Options of {@link frameSigner}. */
export type FrameSignerOptions = ChannelOptions;

/**
 * Core's crypto contract as the frame answers it: its `showExportBundle` is always there, which is
 * how `createClient` infers a `SignetClient<"frame">` (and `exportWallet` resolves to
 * `{ shownIn: "frame" }` for it).
 */
export type FrameCryptoApi = CryptoApi & {
  readonly showExportBundle: (
    parameters: OpenExportBundleParameters,
  ) => Promise<ExportShownElsewhere>;
};

/** What {@link frameSigner} returns: pass `crypto`, `keyStore` and `webauthn` to `createClient`. */
export type FrameSigner = {
  /** Core's crypto contract, with every private-key operation done in the frame. */
  readonly crypto: FrameCryptoApi;
  /** The frame's key store (IndexedDB of the frame's origin), by handle. */
  readonly keyStore: KeyStore;
  /**
   * Core's WebAuthn seam: a passkey is created in the frame, after the user's tap there (the
   * frame signs the add of a passkey its own ceremony made, and no other); a passkey sign-in's
   * assertion is made on the page, as without the frame. Pass it as `createClient`'s `webauthn`.
   */
  readonly webauthn: WebAuthnProvider;
  /** The iframe: place and size it where the user should see confirmations. */
  readonly element: HTMLIFrameElement;
  /** Removes the frame; calls waiting on it reject with `FRAME_UNAVAILABLE`. */
  close(): void;
};

const unsupported = (what: string) =>
  new SignetError("FRAME_REFUSED", `${what} is not done through the signer frame`, {
    details: { reason: "unsupported" },
  });

/** A key the frame holds: it stamps only through the frame's `stamp`, never raw bytes here. */
function frameKey(handle: string, publicKey: string, publicKeyUncompressed: string): SigningKey {
  return {
    publicKey,
    publicKeyUncompressed,
    extractable: false,
    async sign() {
      // A raw signature would be a stamp of anything: the frame signs checked payloads only.
      throw unsupported("A raw signature");
    },
    toRecord: (): SigningKeyRecord => ({ type: "handle", handle, publicKey }),
  };
}

/** The handle of a key this adapter made or restored (the session store wraps keys, records stay). */
function handleOf(key: SigningKey): string {
  const record = key?.toRecord?.();
  if (record?.type !== "handle")
    throw new SignetError("FRAME_REFUSED", "Not a key of the signer frame", {
      details: { reason: "key" },
    });
  return record.handle;
}

/**
 * Keys in a signer frame of another origin (`@signet/frame`): pass the result's `crypto` and
 * `keyStore` to `createClient`, and every action, hook and error stays as it was, but for
 * `exportWallet`, which resolves to `{ shownIn: "frame" }` (the phrase is shown in the frame):
 * the client is a `SignetClient<"frame">`, inferred, and its `exportWallet` is typed so.
 *
 * @param options - `url` of the frame page (served from its own origin with
 *   `Content-Security-Policy: frame-ancestors <this page's origin>`), `container`, `timeoutMs`,
 *   `onRefused`.
 * @returns `{ crypto, keyStore, webauthn, element, close }`.
 * @example
 * ```ts
 * const signer = frameSigner({ url: "https://signer.example.com/" });
 * const client = createClient({
 *   relayUrl: "/api/grid",
 *   crypto: signer.crypto,
 *   keyStore: signer.keyStore,
 *   webauthn: signer.webauthn,
 * });
 * ```
 */
export function frameSigner(options: FrameSignerOptions): FrameSigner {
  const channel: FrameChannel = openChannel(options);
  const base = createCryptoApi(createWebCryptoBackend());
  // What each payload is for, told by the client just before it is stamped; taken once.
  const described = new Map<string, StampRequest>();

  const crypto: FrameCryptoApi = {
    ...base,
    async generateSigningKey() {
      const { handle, publicKey, publicKeyUncompressed } = await channel.request({
        kind: "generate",
      });
      return frameKey(handle, publicKey, publicKeyUncompressed);
    },
    async importSigningKey() {
      throw unsupported("Importing a private key");
    },
    async restoreSigningKey(record) {
      if (record?.type !== "handle")
        throw new SignetError("KEY_INVALID", `"record" expected a signer frame's key record`);
      const held = await channel.request({ kind: "get", storeId: record.handle });
      if (!held) throw new SignetError("KEY_INVALID", "The signer frame no longer holds this key");
      return frameKey(held.handle, held.publicKey, held.publicKeyUncompressed);
    },
    describeStamp(payloadToSign, request) {
      described.set(payloadToSign, request);
    },
    async stampPayload(payload, key) {
      const handle = handleOf(key);
      const request = described.get(payload);
      described.delete(payload);
      // The frame signs a payload only for a named operation and request it can check.
      if (!request) throw unsupported("A stamp without its request");
      const { stamp } = await channel.request({
        kind: "stamp",
        handle,
        payload,
        operation: request.operation,
        method: request.method,
        path: request.path,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      return stamp;
    },
    async generateDecryptionKey(): Promise<DecryptionKey> {
      const { handle, publicKeyUncompressed } = await channel.request({ kind: "exportKey" });
      exportKeys.set(publicKeyUncompressed, handle);
      return {
        publicKeyUncompressed,
        async hpkeOpen() {
          throw unsupported("Decrypting on the page");
        },
      };
    },
    async importDecryptionKey() {
      throw unsupported("Importing a decryption key");
    },
    async openExportBundle() {
      throw unsupported("Returning the phrase to the page");
    },
    async openSessionKeyBundle() {
      // Core asks `openSessionSigningKey` instead: the session key stays in the frame.
      throw unsupported("Returning a session key to the page");
    },
    // A legacy sign-in's session key is opened in the frame and kept there (no tap: a sign-in
    // needs none); this side gets its handle and public keys.
    async openSessionSigningKey({ bundle, key }: OpenSessionKeyBundleParameters) {
      if (typeof bundle !== "string" || bundle.length === 0)
        throw new SignetError("INVALID_ARGUMENT", `"bundle" expected a non-empty string`);
      const handle = exportKeys.get(key?.publicKeyUncompressed ?? "");
      if (!handle) throw unsupported("A decryption key the frame did not make");
      exportKeys.delete(key.publicKeyUncompressed);
      const opened = await channel.request({ kind: "openSession", handle, bundle });
      return frameKey(opened.handle, opened.publicKey, opened.publicKeyUncompressed);
    },
    // The bundle's trusted signers are the frame's own configuration (README "Serving the
    // frame"): the client's `trustedKeys` and `allowUnsignedBundles` do not reach it.
    async showExportBundle({ bundle, key, organizationId }) {
      const handle = exportKeys.get(key.publicKeyUncompressed);
      if (!handle) throw unsupported("An export key the frame did not make");
      exportKeys.delete(key.publicKeyUncompressed);
      return channel.request({
        kind: "showExport",
        handle,
        bundle,
        ...(organizationId ? { organizationId } : {}),
      });
    },
  };
  const exportKeys = new Map<string, string>();

  // Store ids stay the session store's own (they carry the session's metadata); records are
  // handles, whose store id the frame knows.
  const keyStore: KeyStore = {
    persistence: "indexeddb",
    async get(id) {
      const held = await channel.request({ kind: "get", storeId: id });
      return held ? { type: "handle", handle: id, publicKey: held.publicKey } : undefined;
    },
    async set(id, record) {
      if (record?.type !== "handle")
        throw new SignetError("KEY_INVALID", `"record" expected a signer frame's key record`);
      await channel.request({ kind: "set", storeId: id, handle: record.handle });
    },
    async delete(id) {
      await channel.request({ kind: "delete", storeId: id });
    },
    async list() {
      return (await channel.request({ kind: "list" })).storeIds;
    },
  };

  const page = createBrowserWebAuthn();
  const webauthn: WebAuthnProvider = {
    async register(options) {
      const { registration } = await channel.request({
        kind: "register",
        options: JSON.stringify(options),
      });
      return registration;
    },
    authenticate: (options, extras) => page.authenticate(options, extras),
    preload: () => page.preload?.(),
  };

  return { crypto, keyStore, webauthn, element: channel.element, close: () => channel.close() };
}
