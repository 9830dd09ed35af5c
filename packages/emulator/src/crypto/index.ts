// docs/protocol.md §4 (crypto formats): the emulator's own cryptography, on node:crypto only.
// It deliberately shares no code with @signet/core, so a format bug cannot hide by being made twice.
export {
  BUNDLE_VERSION,
  makeExportBundle,
  makeTargetBundle,
  type OpenOtpBundleResult,
  openOtpBundle,
  type SignedEnvelopeJson,
  sealLegacySessionKey,
} from "./bundles.js";
export {
  base58checkDecode,
  base58checkEncode,
  base64urlDecode,
  base64urlEncode,
  concatBytes,
  equalBytes,
  fromHex,
  sha256,
  sha256Hex,
  toHex,
  utf8,
} from "./encoding.js";
export {
  aeadOpen,
  aeadSeal,
  type HpkeAead,
  hpkeDecap,
  hpkeEncap,
  hpkeKeySchedule,
  hpkeNonce,
  hpkeOpen,
  hpkeSeal,
  TURNKEY_HPKE_INFO,
} from "./hpke.js";
export { decodeJwt, signJwtEs256 } from "./jwt.js";
export { generateMnemonic } from "./mnemonic.js";
export {
  ecdhSharedSecret,
  generateKeyPair,
  keyPairFromPrivateKey,
  P256_ORDER,
  type P256KeyPair,
  parseDerSignature,
  parsePublicKey,
  parsePublicKeyBytes,
  signDer,
  signRaw,
  verifyDer,
} from "./p256.js";
export { STAMP_SCHEME, type StampCheck, verifyStamp } from "./stamp.js";
