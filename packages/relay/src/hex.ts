// Lower-case hex of bytes: the relay has no dependencies, and these few lines are all it needs
// (a script's SHA-1 for EVALSHA; a webhook key's bytes read from hex, compared and read as a number).

/** Lower-case hex of `bytes`, two digits a byte ("" for none). */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** The bytes of an even-length hex string the caller has already checked. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
