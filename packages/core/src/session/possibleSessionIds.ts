// The key-store ids of keys whose session this device may have made (./possibleSessions.ts):
// `signet.possible|<accountId>|<sinceMs>|<credentialId>|<public key>`, one per key. Their own
// module, free of the client, so that a kept sign-in's finish (pending/adoptKeptSession.ts) finds
// the one-time key it noted.

/** What a possible session's id names. */
export type PossibleSessionId = {
  accountId: string;
  /** The credential the call signed in with, when it was a sign-in. */
  credentialId?: string;
  /** When the call that sent the key began, on the service's clock (epoch ms). */
  sinceMs: number;
};

export const POSSIBLE_PREFIX = "signet.possible|";

/** The id `entry`'s key with `publicKey` is kept under. */
export const possibleSessionId = (entry: PossibleSessionId, publicKey: string) =>
  `${POSSIBLE_PREFIX}${[entry.accountId, String(entry.sinceMs), entry.credentialId ?? "", publicKey].join("|")}`;

/** What a possible session's id names, with its key's public key. */
export function readPossibleSessionId(id: string): PossibleSessionId & { publicKey: string } {
  const [accountId = "", since = "", credentialId = "", publicKey = ""] = id
    .slice(POSSIBLE_PREFIX.length)
    .split("|");
  return {
    accountId,
    sinceMs: Number(since),
    ...(credentialId ? { credentialId } : {}),
    publicKey,
  };
}
