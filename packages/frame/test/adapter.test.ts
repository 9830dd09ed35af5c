// The adapter's legacy session opening (adapter.ts `openSessionSigningKey`), in Node with the few
// DOM pieces the channel touches stood in for and the frame's answers scripted: the request names
// the frame's own decrypt-only key and the bundle, the page gets a frame key (a handle record,
// no private part), a key opens one bundle, and core's scalar-returning open is refused. The
// frame's side (its checks and the key it keeps) runs for real in e2e/frame-legacy.spec.ts.
import { afterEach, describe, expect, it } from "vitest";
import { sessionSigningKey } from "../../core/src/session/establishSession.js";
import { frameSigner } from "../src/adapter.js";
import { CHANNEL } from "../src/protocol.js";

const EXPORT_KEY = `04${"ab".repeat(64)}`;
const SESSION_PUBLIC = `02${"cd".repeat(32)}`;
const SESSION_UNCOMPRESSED = `04${"cd".repeat(64)}`;

describe("frameSigner's legacy session", () => {
  const saved = { ...globalThis } as Record<string, unknown>;
  afterEach(() => {
    for (const name of ["location", "document", "addEventListener", "removeEventListener"])
      (globalThis as Record<string, unknown>)[name] = saved[name];
  });

  /** A frame that answers `exportKey` and `openSession` as the frame page does. */
  function scriptedFrame() {
    let listener: ((event: MessageEvent) => void) | undefined;
    const sent: Array<Record<string, unknown>> = [];
    const contentWindow = {
      postMessage(message: Record<string, unknown>) {
        sent.push(message);
        const result =
          message.kind === "exportKey"
            ? { handle: EXPORT_KEY, publicKeyUncompressed: EXPORT_KEY }
            : {
                handle: "0123456789abcdef0123456789abcdef",
                publicKey: SESSION_PUBLIC,
                publicKeyUncompressed: SESSION_UNCOMPRESSED,
              };
        queueMicrotask(() =>
          listener?.({
            origin: "https://signer.example",
            source: contentWindow,
            data: { channel: CHANNEL, v: 1, kind: "answer", id: message.id, ok: true, result },
          } as never),
        );
      },
    };
    Object.assign(globalThis, {
      location: { href: "https://app.example/", origin: "https://app.example" },
      document: {
        createElement: () => ({
          setAttribute: () => undefined,
          remove: () => undefined,
          contentWindow,
        }),
        body: { append: () => undefined },
      },
      addEventListener: (_type: string, handler: (event: MessageEvent) => void) => {
        listener = handler;
      },
      removeEventListener: () => undefined,
    });
    const signer = frameSigner({ url: "https://signer.example/" });
    listener!({
      origin: "https://signer.example",
      source: contentWindow,
      data: { channel: CHANNEL, v: 1, kind: "ready" },
    } as never);
    return { signer, sent };
  }

  it("opens the bundle in the frame with its own key and returns a frame key, once", async () => {
    const { signer, sent } = scriptedFrame();
    const key = await signer.crypto.generateDecryptionKey();
    const opened = await signer.crypto.openSessionSigningKey!({ bundle: "3bundle", key });
    const request = sent.find((message) => message.kind === "openSession")!;
    expect(Object.keys(request).sort()).toEqual(["bundle", "channel", "handle", "id", "kind", "v"]);
    expect(request).toMatchObject({ handle: EXPORT_KEY, bundle: "3bundle" });
    expect(opened.publicKey).toBe(SESSION_PUBLIC);
    expect(opened.publicKeyUncompressed).toBe(SESSION_UNCOMPRESSED);
    expect(opened.extractable).toBe(false);
    expect(opened.toRecord()).toEqual({
      type: "handle",
      handle: "0123456789abcdef0123456789abcdef",
      publicKey: SESSION_PUBLIC,
    });
    await expect(opened.sign(new Uint8Array(32))).rejects.toMatchObject({
      code: "FRAME_REFUSED",
    });
    // Spent: the same key opens no second bundle (nothing is sent).
    const count = sent.length;
    await expect(
      signer.crypto.openSessionSigningKey!({ bundle: "3bundle", key }),
    ).rejects.toMatchObject({ code: "FRAME_REFUSED", details: { reason: "unsupported" } });
    expect(sent.length).toBe(count);
    signer.close();
  });

  it("is what core's legacy sign-in uses: the scalar never reaches the page", async () => {
    const { signer, sent } = scriptedFrame();
    const key = await signer.crypto.generateDecryptionKey();
    const held = await sessionSigningKey(
      { crypto: signer.crypto } as never,
      { encryptedSessionSigningKey: "3bundle" } as never,
      { legacy: key },
    );
    expect(held.toRecord()).toMatchObject({ type: "handle", publicKey: SESSION_PUBLIC });
    expect(sent.map((message) => message.kind)).toEqual(["exportKey", "openSession"]);
    await expect(
      signer.crypto.openSessionKeyBundle({ bundle: "3bundle", key }),
    ).rejects.toMatchObject({ code: "FRAME_REFUSED", details: { reason: "unsupported" } });
    signer.close();
  });

  it("refuses a decryption key the frame did not make, and a bundle that is no string", async () => {
    const { signer, sent } = scriptedFrame();
    const foreign = {
      publicKeyUncompressed: `04${"ef".repeat(64)}`,
      hpkeOpen: async () => new Uint8Array(),
    };
    await expect(
      signer.crypto.openSessionSigningKey!({ bundle: "3bundle", key: foreign as never }),
    ).rejects.toMatchObject({ code: "FRAME_REFUSED", details: { reason: "unsupported" } });
    const key = await signer.crypto.generateDecryptionKey();
    await expect(
      signer.crypto.openSessionSigningKey!({ bundle: 7 as never, key }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(sent.filter((message) => message.kind === "openSession")).toEqual([]);
    signer.close();
  });
});
