// docs/protocol.md §11: a payload's activity JSON and its readable transaction, parsed and not
// judged. The payload checks' reading (./payloadRead.ts, a chunk) and what a page shows before a
// signature (payloads/quotePayload.ts's readQuotePayload) both read with it; a module apart from
// ./payloadVocabulary.ts, whose refusal and expectations only the chunks use.
import { hexToBytes, utf8Decode } from "../crypto/encoding.js";
import { isPlainObject } from "./responseError.js";

/** The activity JSON of a payload, or `undefined` when it is not one. */
export function readActivity(payloadToSign: string): Record<string, unknown> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(payloadToSign);
  } catch {
    return undefined;
  }
  return isPlainObject(json) && typeof json.type === "string" ? json : undefined;
}

/**
 * The fields a readable `unsignedTransaction` (or, for a raw payload, `payload`) names, or
 * `undefined` when it is opaque.
 */
export function readTransaction(parameters: unknown): Record<string, unknown> | undefined {
  const hex = isPlainObject(parameters)
    ? (parameters.unsignedTransaction ?? parameters.payload)
    : undefined;
  if (typeof hex !== "string" || hex.length % 2 !== 0 || hex.length > 8192) return undefined;
  try {
    const json: unknown = JSON.parse(utf8Decode(hexToBytes(hex)));
    return isPlainObject(json) ? json : undefined;
  } catch {
    return undefined;
  }
}
