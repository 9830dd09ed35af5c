// The crypto a device needs rarely or late, loaded together as one chunk on first use (or when a
// decryption key is made, ahead of the bundle it will open): stamp verification, the export and
// legacy session-key bundles, and P-256 scalar multiplication (importing a raw scalar into
// WebCrypto needs its public key). One chunk rather than four: each split costs its own import
// and export lists, which weigh more than the code a page would skip.
export { openExportBundle } from "./export-bundle.js";
export { openSessionKeyBundle } from "./legacy-session-key.js";
export { publicKeyFromScalar } from "./p256-multiply.js";
export { verifyStamp } from "./verify-stamp.js";
