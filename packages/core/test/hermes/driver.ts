// Runs inside Hermes, bundled like a React Native app bundles `@signet/core`: its `react-native`
// entry (src/index.native.ts), imported from source. It exercises the crypto contract on the inputs Node embedded and prints one line:
// `SIGNET_HERMES_RESULT <json>` on success, `SIGNET_HERMES_ERROR <json>` on any failure.
// Node checks every value; nothing here decides whether a result is right.
import {
  createCryptoApi,
  createNobleBackend,
  generateDecryptionKey,
  generateSigningKey,
  importDecryptionKey,
  importSigningKey,
  oauthNonce,
  openExportBundle,
  openSessionKeyBundle,
  sealOtpBundle,
  stampPayload,
} from "../../src/index.native.js";
import type { HermesInput } from "./input.js";

declare const print: (line: string) => void;
declare const HermesInternal: unknown;

type Globals = {
  __SIGNET_HERMES_INPUT__: HermesInput;
  __SIGNET_SHIM_USAGE__: Record<string, number>;
  __SIGNET_CONSOLE__: { level: string; message: string }[];
  crypto?: unknown;
};
const globals = globalThis as unknown as Globals;

const hex = (bytes: Uint8Array): string => {
  let out = "";
  for (const b of bytes) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
};

/** A random source fed from its own embedded pool, injected through the API (no globals). */
function pooledRandomBytes(poolHex: string): {
  randomBytes: (length: number) => Uint8Array;
  used: () => number;
} {
  let offset = 0;
  return {
    randomBytes(length) {
      if (offset + length * 2 > poolHex.length) throw new Error("injected random pool ran out");
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++, offset += 2)
        out[i] = parseInt(poolHex.slice(offset, offset + 2), 16);
      return out;
    },
    used: () => offset / 2,
  };
}

/** The `code` of what `run` rejects with, or `"RESOLVED"`. */
async function rejectionCode(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "RESOLVED";
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" ? code : `untyped:${String(error)}`;
  }
}

/**
 * An app with `react-native-get-random-values`: the root exports, on the default backend, draw from
 * `crypto.getRandomValues` (the prelude's shim).
 */
async function runDefault(input: HermesInput) {
  const generated = await generateSigningKey();
  const generatedStamps: string[] = [];
  for (const payload of input.payloads)
    generatedStamps.push(await stampPayload(payload, generated));

  const imported = await importSigningKey(input.knownKey.privateKey);
  const importedFromBytes = await importSigningKey(
    new Uint8Array(input.knownKey.privateKey.match(/../g)?.map((b) => parseInt(b, 16)) ?? []),
  );
  const importedStamps: string[] = [];
  for (const payload of input.payloads) importedStamps.push(await stampPayload(payload, imported));

  const signedWarnings: unknown[] = [];
  const sealedSigned = await sealOtpBundle({
    targetBundle: input.signedTarget.bundle,
    otpCode: input.otpCode,
    publicKey: generated.publicKeyUncompressed,
    trustedKeys: [input.signedTarget.trustedKey],
    onWarning: (warning) => signedWarnings.push(warning),
  });
  const unsignedWarnings: unknown[] = [];
  const sealedUnsigned = await sealOtpBundle({
    targetBundle: input.unsignedTarget.bundle,
    otpCode: input.otpCode,
    publicKey: generated.publicKey,
    allowUnsigned: true,
    onWarning: (warning) => unsignedWarnings.push(warning),
  });

  const legacyKey = await importDecryptionKey(input.legacy.recipientPrivateKey);
  const sessionScalar = await openSessionKeyBundle({ bundle: input.legacy.bundle, key: legacyKey });

  const exportKey = await importDecryptionKey(input.exportBundle.recipientPrivateKey);
  const mnemonic = await openExportBundle({
    bundle: input.exportBundle.bundle,
    key: exportKey,
    organizationId: input.exportBundle.organizationId,
  });
  const freshDecryptionKey = await generateDecryptionKey();

  const nonces = [];
  for (const clientPublicKey of [
    generated.publicKey,
    generated.publicKeyUncompressed,
    input.nonceInput,
  ]) {
    nonces.push({ clientPublicKey, nonce: await oauthNonce(clientPublicKey) });
  }

  // Typed rejections, so that a failure in the field is a code, not a crash.
  const rejections = {
    signedTargetUnpinned: await rejectionCode(() =>
      sealOtpBundle({
        targetBundle: input.signedTarget.bundle,
        otpCode: input.otpCode,
        publicKey: generated.publicKey,
      }),
    ),
    signedTargetTampered: await rejectionCode(() =>
      sealOtpBundle({
        targetBundle: input.signedTarget.tampered,
        otpCode: input.otpCode,
        publicKey: generated.publicKey,
        trustedKeys: [input.signedTarget.trustedKey],
      }),
    ),
    unsignedTargetRefused: await rejectionCode(() =>
      sealOtpBundle({
        targetBundle: input.unsignedTarget.bundle,
        otpCode: input.otpCode,
        publicKey: generated.publicKey,
      }),
    ),
    exportWrongOrganization: await rejectionCode(() =>
      openExportBundle({
        bundle: input.exportBundle.bundle,
        key: exportKey,
        organizationId: "another-organization",
      }),
    ),
    exportWrongKey: await rejectionCode(() =>
      openExportBundle({ bundle: input.exportBundle.bundle, key: freshDecryptionKey }),
    ),
    legacyWrongKey: await rejectionCode(() =>
      openSessionKeyBundle({ bundle: input.legacy.bundle, key: freshDecryptionKey }),
    ),
  };

  return {
    generated: {
      publicKey: generated.publicKey,
      publicKeyUncompressed: generated.publicKeyUncompressed,
      stamps: generatedStamps,
    },
    imported: {
      publicKey: imported.publicKey,
      publicKeyUncompressed: imported.publicKeyUncompressed,
      fromBytesPublicKey: importedFromBytes.publicKey,
      stamps: importedStamps,
    },
    otp: {
      signed: {
        bundle: sealedSigned,
        tek: generated.publicKeyUncompressed,
        warnings: signedWarnings,
      },
      unsigned: { bundle: sealedUnsigned, tek: generated.publicKey, warnings: unsignedWarnings },
    },
    legacy: {
      recipientPublicKey: legacyKey.publicKeyUncompressed,
      sessionScalarHex: hex(sessionScalar),
    },
    export: { recipientPublicKey: exportKey.publicKeyUncompressed, mnemonic },
    freshDecryptionKey: freshDecryptionKey.publicKeyUncompressed,
    nonces,
    rejections,
  };
}

/**
 * An app with no global crypto at all (the prelude installs none): the root exports refuse with a
 * typed error, and a backend with an injected source (say expo-crypto's `getRandomBytes`) works.
 */
async function runInjected(input: HermesInput) {
  const withoutGlobalCrypto = await rejectionCode(() => generateSigningKey());
  const pool = pooledRandomBytes(input.injectedRandomHex);
  const api = createCryptoApi(createNobleBackend({ randomBytes: pool.randomBytes }));
  const key = await api.generateSigningKey();
  const stamps: string[] = [];
  for (const payload of input.payloads) stamps.push(await api.stampPayload(payload, key));
  const sealed = await api.sealOtpBundle({
    targetBundle: input.unsignedTarget.bundle,
    otpCode: input.otpCode,
    publicKey: key.publicKeyUncompressed,
    allowUnsigned: true,
    onWarning: () => {},
  });
  const mnemonic = await api.openExportBundle({
    bundle: input.exportBundle.bundle,
    key: await api.importDecryptionKey(input.exportBundle.recipientPrivateKey),
  });
  const decryptionKey = await api.generateDecryptionKey();
  return {
    withoutGlobalCrypto,
    publicKey: key.publicKey,
    publicKeyUncompressed: key.publicKeyUncompressed,
    stamps,
    sealed,
    mnemonic,
    decryptionKey: decryptionKey.publicKeyUncompressed,
    randomBytesUsed: pool.used(),
  };
}

async function main(input: HermesInput) {
  const started = Date.now();
  const results =
    input.mode === "injected"
      ? { injected: await runInjected(input) }
      : { default: await runDefault(input) };
  return {
    mode: input.mode,
    engine: {
      hermes: typeof HermesInternal === "object",
      bigint: typeof BigInt === "function",
      globalCrypto: typeof globals.crypto,
    },
    ...results,
    shims: globals.__SIGNET_SHIM_USAGE__,
    console: globals.__SIGNET_CONSOLE__,
    ms: Date.now() - started,
  };
}

function describeError(error: unknown) {
  const e = error as { name?: unknown; message?: unknown; code?: unknown; stack?: unknown };
  return {
    name: String(e?.name),
    message: String(e?.message ?? error),
    code: e?.code === undefined ? null : String(e.code),
    stack: String(e?.stack ?? ""),
  };
}

try {
  main(globals.__SIGNET_HERMES_INPUT__).then(
    (result) => print(`SIGNET_HERMES_RESULT ${JSON.stringify(result)}`),
    (error: unknown) => print(`SIGNET_HERMES_ERROR ${JSON.stringify(describeError(error))}`),
  );
} catch (error) {
  print(`SIGNET_HERMES_ERROR ${JSON.stringify(describeError(error))}`);
}
