// docs/protocol.md §6: the OIDC nonce is the lowercase hex SHA-256 of the UTF-8 bytes of the exact
// `clientPublicKey` string sent (case and compression change it).
import { SignetError } from "../errors/errors.js";
import type { CryptoBackend } from "./backend.js";
import { bytesToHex, utf8Encode } from "./encoding.js";

/**
 * The OAuth nonce for `clientPublicKey`: lowercase hex SHA-256 of the string as given.
 * @throws {SignetError} `INVALID_ARGUMENT` for a non-string or empty value, `ENCODING_INVALID` for a lone surrogate.
 */
export async function oauthNonce(backend: CryptoBackend, clientPublicKey: string): Promise<string> {
  if (typeof clientPublicKey !== "string" || clientPublicKey.length === 0) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"clientPublicKey" expected a non-empty string, got ${typeof clientPublicKey}`,
    );
  }
  return bytesToHex(await backend.sha256(utf8Encode(clientPublicKey, "clientPublicKey")));
}
