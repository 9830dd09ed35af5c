// The corpus of the service's own words (packages/test/corpus/README.md): every payload to sign,
// 202 and answer the service's OpenAPI and Global Accounts guides show, with the request the
// device would have made, and the shapes its prose names where it shows none.
import { readFileSync } from "node:fs";

/** Where a value was taken from: a file of lightsparkdev/grid-api at the corpus's commit. */
export type CorpusSource = { file: string; line: number; example: string };

/** A 202 body as documented. */
export type CorpusChallenge = {
  payloadToSign: string;
  requestId: string;
  expiresAt: string;
  type?: string;
};

/**
 * A value of the device's own inside a documented payload: the document wrote the example
 * request's value (`documented`, sometimes elided); the service writes the value the device sent,
 * found at `request` (`body.clientPublicKey`) in the device's actual request.
 */
export type CorpusOwnValue = {
  documented: unknown;
  request: string;
  elided?: boolean;
  note?: string;
};

export type CorpusEntry = {
  id: string;
  /** The public action that signs it (`null` for the schema's placeholder). */
  operation: string | null;
  /** `documented`: shown by the documents; `derived`: implied by their prose (see `prose`). */
  origin: "documented" | "derived";
  /** `placeholder`: no operation's payload; `elided`: shown cut short (`…`), not replayable. */
  kind?: "placeholder" | "elided";
  /**
   * A pull request after the corpus's commit that documents the entry (its files are the PR's, and
   * their lines those of the PR's version): its number, its state when copied, and its base.
   */
  pullRequest?: { number: number; state: "open" | "merged"; base: string };
  sources: CorpusSource[];
  prose?: { quote: string; file: string; line: number; where: string }[];
  vocabulary?: string;
  note?: string;
  /** The action's arguments besides the account (and the quote, for execute). */
  call?: Record<string, unknown>;
  request?: {
    method: string;
    path: string;
    body?: unknown;
    bodyNote?: string;
    source?: CorpusSource;
  };
  challenges: CorpusChallenge[];
  ownValues: CorpusOwnValue[];
  answer?: { status: number; body?: unknown; source?: CorpusSource; made?: string };
  /**
   * A resource that holds its challenge (#853's contact change): the create's answer, which carries
   * the `payloadToSign` of `challenges[0]`; the signed submit then goes to its own path.
   */
  change?: { status: number; body: Record<string, unknown>; source: CorpusSource };
  quote?: Record<string, unknown>;
  quoteSource?: CorpusSource;
  otpChallenge?: { body: Record<string, unknown>; source: CorpusSource; made: string };
  passkeyChallenge?: Record<string, unknown>;
};

export type Corpus = {
  source: { repository: string; commit: string; date: string; license: string };
  entries: CorpusEntry[];
};

/** The vendored corpus. */
export function loadCorpus(): Corpus {
  return JSON.parse(
    readFileSync(new URL("../corpus/corpus.json", import.meta.url), "utf8"),
  ) as Corpus;
}

/** A value at a dotted path (`body.attestation.credentialId`) of a JSON value. */
export function valueAt(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * The documented payload with each of the device's own values written in, as the service binds
 * what the device sent: the documented value's JSON text, found exactly once, is replaced by the
 * device's. Everything else stays byte for byte.
 * @throws Error when a documented value is not found exactly once.
 */
export function withOwnValues(
  payloadToSign: string,
  own: readonly CorpusOwnValue[],
  actual: (path: string) => unknown,
): string {
  let payload = payloadToSign;
  for (const value of own) {
    const sent = actual(value.request);
    if (sent === undefined) continue;
    const documented = JSON.stringify(value.documented);
    const at = payload.indexOf(documented);
    if (at < 0 || payload.indexOf(documented, at + 1) >= 0) {
      throw new Error(`${value.request}: the documented value is not in the payload exactly once`);
    }
    payload = payload.slice(0, at) + JSON.stringify(sent) + payload.slice(at + documented.length);
  }
  return payload;
}
