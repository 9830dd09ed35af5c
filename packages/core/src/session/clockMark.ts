// The device clock's high-water mark (docs/security.md "Step-up", "The device's clock"): the
// latest device time a client has seen, kept in the key store beside the sessions so that a date
// set back, even across a reload, cannot make the step-up rule's "now" go back below it. Like a
// session's metadata it rides in the entry's id (`signet.clock|<epoch ms>`), so any KeyStore keeps
// it without a second storage seam; the entry's record is no key (an empty scalar record that no
// backend restores), and the session store skips ids of this prefix. The page holds only the reading below (the session store's load); the writing is the step-up
// check's, in its chunk (catalog/stepUpCheck.ts).

/** The ids' prefix: `signet.clock|<epoch ms>`. */
export const CLOCK_MARK_PREFIX = "signet.clock|";

/** The device time (epoch ms) a key store id marks, or `undefined` when it is no mark. */
export function parseClockMark(id: string): number | undefined {
  if (!id.startsWith(CLOCK_MARK_PREFIX)) return undefined;
  const ms = Number(id.slice(CLOCK_MARK_PREFIX.length));
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}
