// The default wait between two polls, a module of its own: the entries export it, and a page
// that exports a number need not carry the poll loop (transport/pollUntil.ts, only chunks use it).

/** The default wait between two polls: a settlement is seen within about a second. */
export const DEFAULT_POLLING_INTERVAL_MS = 1_000;
