// The device clock's high-water mark (docs/security.md "Step-up", "The device's clock"): the
// latest device time a client has seen, kept in the key store beside the sessions so that a date
// set back, even across a reload, cannot make the step-up rule's "now" go back below it. Like a
// session's metadata it rides in the entry's id (`signet.clock|<epoch ms>`), so any KeyStore keeps
// it without a second storage seam; the entry's record is no key (an empty scalar record that no
// backend restores), and the session store skips ids of this prefix.
import type { SigningKeyRecord } from "../crypto/backend.js";
import type { KeyStore } from "../keys/key-store.js";

const PREFIX = "signet.clock|";

/** The device time (epoch ms) a key store id marks, or `undefined` when it is no mark. */
export function parseClockMark(id: string): number | undefined {
  if (!id.startsWith(PREFIX)) return undefined;
  const ms = Number(id.slice(PREFIX.length));
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}

/** A mark's record: no key, nothing secret; it only satisfies the KeyStore's record shape. */
const MARK_RECORD: SigningKeyRecord = { type: "scalar", privateKey: "", publicKey: "" };

/**
 * Stores `ms` as the mark, then deletes the lower marks (this tab's older ones, or another tab's):
 * the highest always stays, whatever two tabs interleave.
 */
export async function writeClockMark(store: KeyStore, ms: number): Promise<void> {
  const whole = Math.floor(ms);
  await store.set(`${PREFIX}${whole}`, MARK_RECORD);
  for (const id of await store.list()) {
    const marked = parseClockMark(id);
    if (marked !== undefined && marked < whole) await store.delete(id);
  }
}
