// Runs inside Hermes (bundled like a React Native app: the `react-native` condition, Metro's Babel
// preset): times @signet/core's React Native build beside plain @noble/curves with its defaults.
// Prints one `SIGNET_BENCH <json>` line. `Date.now()` is the only clock Hermes 0.12 has here.
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { generateSigningKey, sealOtpBundle, stampPayload } from "@signet/core";

declare const print: (line: string) => void;
type Input = {
  which: "signet" | "noble";
  payload: string;
  warm: number;
  target?: { bundle: string; trustedKey: string };
};
const input = (globalThis as unknown as { __SIGNET_BENCH_INPUT__: Input }).__SIGNET_BENCH_INPUT__;
const hex = (text: string) =>
  Uint8Array.from(text.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const utf8 = (text: string) =>
  Uint8Array.from(unescape(encodeURIComponent(text)), (c) => c.charCodeAt(0));

async function main() {
  const message = utf8(input.payload);
  const out: Record<string, number> = {};
  let t = Date.now();
  if (input.which === "signet") {
    // Cold: the first key and the first stamp of a fresh VM.
    const key = await generateSigningKey();
    await stampPayload(input.payload, key);
    out.coldKeyAndStampMs = Date.now() - t;
    t = Date.now();
    for (let i = 0; i < input.warm; i++) await stampPayload(input.payload, key);
    out.warmStampMs = (Date.now() - t) / input.warm;
    if (input.target) {
      const tek = await generateSigningKey();
      t = Date.now();
      const seals = 5;
      for (let i = 0; i < seals; i++)
        await sealOtpBundle({
          targetBundle: input.target.bundle,
          otpCode: "000000",
          publicKey: tek.publicKeyUncompressed,
          trustedKeys: [input.target.trustedKey],
        });
      out.otpSealMs = (Date.now() - t) / seals;
    }
  } else {
    const secret = p256.utils.randomSecretKey();
    p256.getPublicKey(secret);
    p256.sign(sha256(message), secret, { prehash: false });
    out.coldKeyAndStampMs = Date.now() - t;
    t = Date.now();
    for (let i = 0; i < input.warm; i++) p256.sign(sha256(message), secret, { prehash: false });
    out.warmStampMs = (Date.now() - t) / input.warm;
    if (input.target) {
      // The floor of an OTP seal in plain noble: the two curve operations no seal can skip, the
      // bundle's DER signature verified with the trusted key and one Diffie-Hellman with a fresh
      // ephemeral key (HPKE's DH-KEM encapsulation). Parsing, HKDF and AES-GCM are left to Signet.
      const envelope = JSON.parse(input.target.bundle) as { data: string; dataSignature: string };
      const data = hex(envelope.data);
      const signature = p256.Signature.fromBytes(hex(envelope.dataSignature), "der").toBytes();
      const signer = hex(input.target.trustedKey);
      const { targetPublic } = JSON.parse(String.fromCharCode(...data)) as { targetPublic: string };
      const recipient = hex(targetPublic);
      t = Date.now();
      const seals = 5;
      for (let i = 0; i < seals; i++) {
        if (!p256.verify(signature, data, signer, { lowS: false }))
          throw new Error("the bundle's signature does not verify");
        const ephemeral = p256.utils.randomSecretKey();
        p256.getPublicKey(ephemeral, false);
        p256.getSharedSecret(ephemeral, recipient);
      }
      out.otpSealMs = (Date.now() - t) / seals;
    }
  }
  return out;
}

main().then(
  (result) => print(`SIGNET_BENCH ${JSON.stringify(result)}`),
  (error: unknown) => print(`SIGNET_BENCH_ERROR ${String(error)}`),
);
