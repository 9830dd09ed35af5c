// The public surface: sorted export names of each entry (an API change shows up here; the actions
// are the catalog's, catalog/actionTable.ts, checked apart so that a new one needs no snapshot
// edit), the shared contract, non-extractable WebCrypto keys, and import without globals (SSR,
// Hermes).
import { afterEach, describe, expect, it, vi } from "vitest";
import { actionNames } from "../../src/catalog/actionTable.js";
import * as browser from "../../src/index.js";
import * as native from "../../src/index.native.js";

const ACTIONS = new Set<string>(actionNames);
/** An entry's names but the catalog's actions, sorted: what its snapshot holds. */
const besideActions = (entry: object) =>
  Object.keys(entry)
    .filter((name) => !ACTIONS.has(name))
    .sort();

const CONTRACT = [
  "generateSigningKey",
  "importSigningKey",
  "stampPayload",
  "generateDecryptionKey",
  "importDecryptionKey",
  "sealOtpBundle",
  "openSessionKeyBundle",
  "openExportBundle",
  "oauthNonce",
  "SignetError",
  "isSignetError",
];

describe("exports", () => {
  it("both entries export every action of the catalog, each a function", () => {
    expect(actionNames.length).toBeGreaterThan(30);
    for (const entry of [browser, native] as unknown as Record<string, unknown>[])
      expect(actionNames.filter((name) => typeof entry[name] !== "function")).toEqual([]);
  });

  it("index.ts", () => {
    expect(besideActions(browser)).toMatchInlineSnapshot(`
      [
        "DEFAULT_POLLING_INTERVAL_MS",
        "IDEMPOTENCY_KEY_HEADER",
        "PRODUCTION_SIGNER_SIGN_PUBLIC_KEY",
        "PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY",
        "REQUEST_ID_HEADER",
        "SESSION_EXPIRY_MARGIN_MS",
        "STAMP_SCHEME",
        "SignetError",
        "WALLET_SIGNATURE_HEADER",
        "browserSupportsPasskeyAutofill",
        "createBrowserWebAuthn",
        "createClient",
        "createCryptoApi",
        "createDefaultKeyStore",
        "createIndexedDbKeyStore",
        "createMemoryKeyStore",
        "createWebCryptoBackend",
        "generateDecryptionKey",
        "generateSigningKey",
        "importDecryptionKey",
        "importSigningKey",
        "isSignetError",
        "oauthNonce",
        "openExportBundle",
        "openSessionKeyBundle",
        "quotePayloadToSign",
        "readPasskeyOptions",
        "readQuotePayload",
        "restoreSigningKey",
        "sealOtpBundle",
        "stampPayload",
        "stepUpRequired",
        "toWebAuthnError",
        "verifyStamp",
      ]
    `);
  });

  it("index.native.ts", () => {
    expect(besideActions(native)).toMatchInlineSnapshot(`
      [
        "DEFAULT_POLLING_INTERVAL_MS",
        "IDEMPOTENCY_KEY_HEADER",
        "PRODUCTION_SIGNER_SIGN_PUBLIC_KEY",
        "PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY",
        "REQUEST_ID_HEADER",
        "SESSION_EXPIRY_MARGIN_MS",
        "STAMP_SCHEME",
        "SignetError",
        "WALLET_SIGNATURE_HEADER",
        "createClient",
        "createCryptoApi",
        "createMemoryKeyStore",
        "createNobleBackend",
        "createStringKeyStore",
        "generateDecryptionKey",
        "generateSigningKey",
        "importDecryptionKey",
        "importSigningKey",
        "isSignetError",
        "oauthNonce",
        "openExportBundle",
        "openSessionKeyBundle",
        "quotePayloadToSign",
        "readPasskeyOptions",
        "readQuotePayload",
        "restoreSigningKey",
        "sealOtpBundle",
        "stampPayload",
        "stepUpRequired",
        "toWebAuthnError",
        "verifyStamp",
      ]
    `);
  });

  it("both entries carry the whole crypto contract", () => {
    for (const name of CONTRACT) {
      expect(typeof (browser as Record<string, unknown>)[name], name).toBe("function");
      expect(typeof (native as Record<string, unknown>)[name], name).toBe("function");
    }
  });
});

describe("WebCrypto keys (index.ts)", () => {
  it("generateSigningKey: the private key is non-extractable; exportKey('pkcs8') rejects", async () => {
    const key = await browser.generateSigningKey();
    const record = key.toRecord();
    expect(record.type).toBe("webcrypto");
    expect(key.extractable).toBe(false);
    if (record.type !== "webcrypto") throw new Error("unreachable");
    expect(record.privateKey.extractable).toBe(false);
    await expect(globalThis.crypto.subtle.exportKey("pkcs8", record.privateKey)).rejects.toThrow();
    await expect(globalThis.crypto.subtle.exportKey("jwk", record.privateKey)).rejects.toThrow();
    expect(key.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    expect(key.publicKeyUncompressed).toMatch(/^04[0-9a-f]{128}$/);
    expect(key.publicKeyUncompressed.slice(2, 66)).toBe(key.publicKey.slice(2));
  });

  it("importSigningKey is non-extractable too; extractable only on request", async () => {
    const scalar = "6eb84a1dd3e10839e43f69d967974ca3d3a131322d507e0f171b8b98f336f82e";
    const key = await browser.importSigningKey(scalar);
    const record = key.toRecord();
    if (record.type !== "webcrypto") throw new Error("expected a CryptoKey record");
    await expect(globalThis.crypto.subtle.exportKey("pkcs8", record.privateKey)).rejects.toThrow();
    const open = await browser.importSigningKey(scalar, { extractable: true });
    expect(open.extractable).toBe(true);
  });

  it("a key survives toRecord → restoreSigningKey and still signs", async () => {
    const key = await browser.generateSigningKey();
    const restored = await browser.restoreSigningKey(key.toRecord());
    expect(restored.publicKey).toBe(key.publicKey);
    const stamp = await browser.stampPayload("hello", restored);
    await expect(
      browser.verifyStamp({ payload: "hello", stamp, publicKey: key.publicKey }),
    ).resolves.toEqual({
      publicKey: key.publicKey,
    });
  });

  it("noble records restore in the WebCrypto entry; CryptoKey records are refused by the native entry", async () => {
    const nobleKey = await native.generateSigningKey();
    const restored = await browser.restoreSigningKey(nobleKey.toRecord());
    expect(restored.publicKey).toBe(nobleKey.publicKey);
    const webKey = await browser.generateSigningKey();
    await expect(native.restoreSigningKey(webKey.toRecord())).rejects.toMatchObject({
      code: "KEY_INVALID",
    });
  });
});

describe("no globals at import (SSR, Hermes)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("both entries import without crypto, indexedDB or window, and fail with CRYPTO_UNAVAILABLE only when called", async () => {
    vi.stubGlobal("crypto", undefined);
    vi.stubGlobal("indexedDB", undefined);
    vi.resetModules();
    const web = await import("../../src/index.js");
    const rn = await import("../../src/index.native.js");
    await expect(web.generateSigningKey()).rejects.toMatchObject({ code: "CRYPTO_UNAVAILABLE" });
    await expect(web.oauthNonce("02ab")).rejects.toMatchObject({ code: "CRYPTO_UNAVAILABLE" });
    await expect(rn.generateSigningKey()).rejects.toMatchObject({ code: "CRYPTO_UNAVAILABLE" });
    // The noble entry needs randomness only to generate; everything else works without WebCrypto.
    const key = await rn.importSigningKey(
      "6eb84a1dd3e10839e43f69d967974ca3d3a131322d507e0f171b8b98f336f82e",
    );
    await expect(rn.stampPayload("x", key)).resolves.toMatch(/^eyJ/);
    await expect(rn.oauthNonce("abc")).resolves.toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    // And the key-store probe picks memory.
    await expect(web.createDefaultKeyStore()).resolves.toMatchObject({ persistence: "memory" });
  });

  it("the noble backend takes an injected random source", async () => {
    vi.stubGlobal("crypto", undefined);
    const seed = new Uint8Array(48).fill(7);
    const api = native.createCryptoApi(
      native.createNobleBackend({ randomBytes: (n) => seed.slice(0, n) }),
    );
    const a = await api.generateSigningKey();
    const b = await api.generateSigningKey();
    expect(a.publicKey).toBe(b.publicKey); // deterministic source, deterministic key
    const target = await api.generateDecryptionKey();
    expect(target.publicKeyUncompressed).toBe(a.publicKeyUncompressed);
  });
});
