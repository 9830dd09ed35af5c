// The `Idempotency-Key` of quote execute (docs/protocol.md §2): made once per execute, from the
// client's random source (its crypto backend's `randomBytes`), and reused on every retry of it.
import { bytesToHex } from "../crypto/encoding.js";
import { defaultRandomBytes, type RandomBytes } from "../crypto/random.js";

/**
 * A random v4 UUID for `Idempotency-Key`, from `randomBytes` (default: `crypto.getRandomValues`,
 * looked up at call time). The client passes its crypto backend's source.
 *
 * @throws {SignetError} `CRYPTO_UNAVAILABLE` when the default finds no secure random source.
 * @example
 * ```ts
 * const key = generateIdempotencyKey(client.crypto.backend.randomBytes); // "3b241101-e2bb-4255-8caf-4136c566a962"
 * ```
 */
export function generateIdempotencyKey(randomBytes: RandomBytes = defaultRandomBytes): string {
  const bytes = randomBytes(16).slice(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytesToHex(bytes);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
