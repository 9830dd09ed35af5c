// Reads a request body as raw bytes, never more than the limit: the bytes are forwarded as they came.
import { RelayRefusal } from "./errors.js";

function tooLarge(maxBodyBytes: number): RelayRefusal {
  return new RelayRefusal("PAYLOAD_TOO_LARGE", "The request body is too large.", {
    maxBodyBytes,
  });
}

/**
 * Reads `request`'s body into one `Uint8Array` without decoding it. A `Content-Length` over
 * the limit is refused before reading; the streamed bytes are counted too (a chunked body or a
 * lying `Content-Length`), and reading stops as soon as the limit is passed.
 *
 * @throws {RelayRefusal} 413 `PAYLOAD_TOO_LARGE`, or 400 `INVALID_INPUT` for a malformed `Content-Length`.
 */
export async function readBody(
  request: Request,
  maxBodyBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null) {
    if (!/^[0-9]{1,15}$/.test(declared)) {
      throw new RelayRefusal("INVALID_INPUT", "The Content-Length header is malformed.", {
        header: "Content-Length",
      });
    }
    if (Number(declared) > maxBodyBytes) {
      await request.body?.cancel().catch(() => {});
      throw tooLarge(maxBodyBytes);
    }
  }
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBodyBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBodyBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
