// Resource ids `<Prefix>:<uuid>` (docs/protocol.md §1) and the emulator's key factory: random by
// default, derived from the seed when one is given, so a seeded run repeats exactly.
import { randomUUID } from "node:crypto";
import { generateKeyPair, type P256KeyPair, sha256 } from "./crypto/index.js";

/** Makes ids and keys for one emulator; seeded factories are deterministic. */
export interface IdFactory {
  /** A new id such as `Customer:6f1c…`. */
  next(prefix: string): string;
  /** A new bare UUID. */
  uuid(): string;
  /** A new P-256 key pair, labelled for seeded derivation. */
  keyPair(label: string): P256KeyPair;
  /** `length` bytes of entropy, labelled for seeded derivation. */
  entropy(label: string, length: number): Uint8Array;
}

function uuidFromBytes(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Creates an id and key factory. With a `seed`, the n-th id and the n-th key of a label are
 * the same on every run.
 */
export function createIdFactory(seed: string | undefined): IdFactory {
  let counter = 0;
  const labels = new Map<string, number>();
  const nextLabel = (label: string) => {
    const n = (labels.get(label) ?? 0) + 1;
    labels.set(label, n);
    return `${label}#${n}`;
  };
  const uuid = () =>
    seed === undefined
      ? randomUUID()
      : uuidFromBytes(sha256(`signet-emulator:id:${seed}:${++counter}`));
  return {
    uuid,
    next: (prefix) => `${prefix}:${uuid()}`,
    keyPair: (label) =>
      seed === undefined ? generateKeyPair() : generateKeyPair({ seed, label: nextLabel(label) }),
    entropy(label, length) {
      if (seed === undefined)
        return new Uint8Array(globalThis.crypto.getRandomValues(new Uint8Array(length)));
      return sha256(`signet-emulator:entropy:${seed}:${nextLabel(label)}`).subarray(0, length);
    },
  };
}
