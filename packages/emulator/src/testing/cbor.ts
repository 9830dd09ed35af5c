// RFC 8949 §4.2.1 (core deterministic encoding), only the major types WebAuthn needs:
// integers, byte strings, text strings, arrays and maps. Map keys are sorted by their encoded
// bytes, which is the order browsers and authenticators emit for attestation objects and COSE keys.

/** A value the encoder accepts. Maps are `Map`s so that integer keys (COSE) stay integers. */
export type CborValue =
  | number
  | bigint
  | string
  | boolean
  | Uint8Array
  | readonly CborValue[]
  | ReadonlyMap<CborValue, CborValue>;

/** Encodes `value` as deterministic CBOR. Throws on floats and unsupported types. */
export function encodeCbor(value: CborValue): Uint8Array {
  const chunks: Uint8Array[] = [];
  write(chunks, value);
  return concat(chunks);
}

function write(out: Uint8Array[], value: CborValue): void {
  if (typeof value === "number" || typeof value === "bigint") {
    if (typeof value === "number" && !Number.isSafeInteger(value)) {
      throw new TypeError(`"value" expected a safe integer, got ${value}`);
    }
    const n = BigInt(value);
    if (n >= 0n) out.push(head(0, n));
    else out.push(head(1, -1n - n));
  } else if (typeof value === "boolean") {
    out.push(Uint8Array.of(value ? 0xf5 : 0xf4));
  } else if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value);
    out.push(head(3, BigInt(bytes.length)), bytes);
  } else if (value instanceof Uint8Array) {
    out.push(head(2, BigInt(value.length)), value);
  } else if (Array.isArray(value)) {
    out.push(head(4, BigInt(value.length)));
    for (const item of value as readonly CborValue[]) write(out, item);
  } else if (value instanceof Map) {
    const entries = [...(value as ReadonlyMap<CborValue, CborValue>)].map(
      ([k, v]) => [encodeCbor(k), v] as const,
    );
    entries.sort(([a], [b]) => compareBytes(a, b));
    out.push(head(5, BigInt(entries.length)));
    for (const [key, item] of entries) {
      out.push(key);
      write(out, item);
    }
  } else {
    throw new TypeError(`"value" has an unsupported CBOR type: ${typeof value}`);
  }
}

function head(major: number, argument: bigint): Uint8Array {
  const m = major << 5;
  if (argument < 24n) return Uint8Array.of(m | Number(argument));
  if (argument < 0x100n) return Uint8Array.of(m | 24, Number(argument));
  if (argument < 0x10000n) {
    const b = new Uint8Array(3);
    b[0] = m | 25;
    new DataView(b.buffer).setUint16(1, Number(argument));
    return b;
  }
  if (argument < 0x100000000n) {
    const b = new Uint8Array(5);
    b[0] = m | 26;
    new DataView(b.buffer).setUint32(1, Number(argument));
    return b;
  }
  const b = new Uint8Array(9);
  b[0] = m | 27;
  new DataView(b.buffer).setBigUint64(1, argument);
  return b;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Concatenates byte arrays. */
export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}
