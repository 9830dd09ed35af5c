// Request bodies: bounded reading of the raw bytes and strict JSON parsing.
import { invalidInput, ServiceError } from "./errors.js";

/** Bodies above this many bytes are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** 413 `PAYLOAD_TOO_LARGE`. */
export function payloadTooLarge(): ServiceError {
  return new ServiceError(413, "PAYLOAD_TOO_LARGE", `The body exceeds ${MAX_BODY_BYTES} bytes.`, {
    maxBytes: MAX_BODY_BYTES,
  });
}

/** Reads the raw body bytes, refusing more than `MAX_BODY_BYTES` without reading them all. */
export async function readRawBody(request: Request): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw payloadTooLarge();
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses a JSON body. An empty body gives `emptyAs` when the endpoint allows one (for example
 * the OTP challenge), else 400. A non-empty body must be `application/json` and valid UTF-8 JSON.
 */
export function parseJsonBody(
  raw: Uint8Array,
  contentType: string | null,
  emptyAs?: unknown,
): unknown {
  if (raw.byteLength === 0) {
    if (emptyAs !== undefined) return emptyAs;
    throw invalidInput([{ field: "body", message: "a JSON body is required" }]);
  }
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw invalidInput(
      [{ field: "Content-Type", message: "must be application/json" }],
      "The body must be application/json.",
    );
  }
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    throw invalidInput([{ field: "body", message: "is not valid UTF-8" }]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidInput([{ field: "body", message: "is not valid JSON" }], "Malformed JSON body.");
  }
}

/** Byte-for-byte equality of two bodies. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
