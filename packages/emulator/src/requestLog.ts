// The request log: what was asked and answered, never header values (stamps are secrets) or bodies.

/** One logged service request. */
export type RequestLogEntry = {
  /** Sequence number, from 1. */
  seq: number;
  method: string;
  /** The path as received (including any version prefix), without the query string. */
  path: string;
  status: number;
  /** The error code of an error answer. */
  code?: string;
  /** Emulator time of arrival, RFC 3339. */
  time: string;
  hasSignature: boolean;
  hasRequestId: boolean;
  hasIdempotencyKey: boolean;
  /** The fault kind applied to this request, if any. */
  fault?: string;
};

/** A bounded in-memory log (the most recent 1,000 requests). */
export interface RequestLog {
  add(entry: Omit<RequestLogEntry, "seq">): void;
  list(): RequestLogEntry[];
  clear(): void;
}

/** Creates an empty log. */
export function createRequestLog(limit = 1000): RequestLog {
  let entries: RequestLogEntry[] = [];
  let seq = 0;
  return {
    add(entry) {
      entries.push({ seq: ++seq, ...entry });
      if (entries.length > limit) entries = entries.slice(entries.length - limit);
    },
    list: () => entries.map((e) => ({ ...e })),
    clear() {
      entries = [];
      seq = 0;
    },
  };
}
