// The passkey checker's one way to read an association file (./check.ts): the file is another
// party's, so it is read from a public address only (unless told, ./address.ts), within one time
// limit for the answer and its body, and never past MAX_FILE_BYTES, streamed; every failure is a
// problem, never an exception. What it read is printed only through ./check.ts's plainText.

import { nonPublicHost } from "./address.js";
import type { PasskeyCheckProblem, PasskeyCheckProblemCode } from "./types.js";

/**
 * The most of one association file that is read: a few hundred KiB, far above any real file (iOS
 * takes at most 128 KiB), so that an answer of any size costs no more memory than this.
 */
export const MAX_FILE_BYTES = 256 * 1024;

/** Reads a body as text up to MAX_FILE_BYTES: undefined when it is longer (the rest never read). */
async function readCapped(response: Response): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FILE_BYTES) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** A file read: its JSON, or the problem that stopped it. */
export type Fetched =
  | { ok: true; url: string; json: unknown }
  | { ok: false; url: string; problem: PasskeyCheckProblem };

/** What the fetcher needs of the check's options. */
export type FileFetcherSettings = {
  /** `https://<rpId>`, or the `baseUrl` of a test. */
  base: string;
  rpId: string;
  fetch: typeof fetch;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  resolveHost?: ((hostname: string) => Promise<readonly string[]>) | undefined;
};

/**
 * The reader of `settings.base` + a well-known path: `what` names the file and `needed` what fetches
 * it, for the messages. The host is judged once, on first use.
 */
export function createFileFetcher(
  settings: FileFetcherSettings,
): (path: string, what: string, needed: string) => Promise<Fetched> {
  let hostVerdict: Promise<string | undefined> | undefined;
  return async (path: string, what: string, needed: string): Promise<Fetched> => {
    const url = `${settings.base}${path}`;
    const fail = (code: PasskeyCheckProblemCode, message: string): Fetched => ({
      ok: false,
      url,
      problem: { code, subject: url, message },
    });
    if (!settings.allowPrivateAddresses) {
      let host: string;
      try {
        host = new URL(url).hostname;
      } catch {
        return fail("INVALID_INPUT", `${url} is not a URL: check baseUrl.`);
      }
      hostVerdict ??= nonPublicHost(host, settings.resolveHost);
      const why = await hostVerdict;
      if (why !== undefined) {
        return fail(
          "ADDRESS_NOT_PUBLIC",
          `${url} was not fetched: ${why}. The platforms fetch ${what} from the internet; to check a test or staging server on a private network, pass allowPrivateAddresses (--allow-private-addresses).`,
        );
      }
    }
    // One time limit for the answer and its body: a body that trickles ends as FILE_TIMEOUT.
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve("timeout");
      }, settings.timeoutMs);
    });
    const late = () =>
      fail(
        "FILE_TIMEOUT",
        `${url} did not arrive within ${settings.timeoutMs} ms: ${what} must be served quickly (the platforms give up sooner than a browser does).`,
      );
    try {
      let response: Response | "timeout";
      try {
        response = await Promise.race([
          settings.fetch(url, {
            redirect: "manual",
            headers: { accept: "application/json" },
            signal: controller.signal,
          }),
          deadline,
        ]);
      } catch (cause) {
        if (controller.signal.aborted) return late();
        return fail(
          "FILE_UNREACHABLE",
          `${url} could not be fetched (${cause instanceof Error ? cause.message : String(cause)}): ${what} must be reachable over https from the internet, without client certificates or a login.`,
        );
      }
      if (response === "timeout") return late();
      const answered = response;
      const drop = () => answered.body?.cancel().catch(() => undefined);
      if (answered.type === "opaqueredirect" || (answered.status >= 300 && answered.status < 400)) {
        drop();
        const to = answered.headers.get("location");
        return fail(
          "REDIRECT",
          `${url} redirects${to ? ` to ${to.slice(0, 500)}` : ""} (HTTP ${answered.status}); ${needed} does not follow redirects: serve ${what} at exactly this URL with status 200.`,
        );
      }
      if (answered.status === 404 || answered.status === 410) {
        drop();
        return fail(
          "FILE_MISSING",
          `${url} is missing (HTTP ${answered.status}): publish ${what} at exactly this path on ${settings.rpId}.`,
        );
      }
      if (!answered.ok) {
        drop();
        return fail(
          "FILE_UNREACHABLE",
          `${url} answered HTTP ${answered.status}: it must answer 200 with ${what}.`,
        );
      }
      const type = (answered.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
      const tooLarge = () =>
        fail(
          "FILE_TOO_LARGE",
          `${url} is larger than ${MAX_FILE_BYTES / 1024} KiB and was not read past that: ${what} is a short JSON document (iOS reads at most 128 KiB).`,
        );
      if (Number(answered.headers.get("content-length")) > MAX_FILE_BYTES) {
        drop();
        return tooLarge();
      }
      let text: string | undefined | "timeout";
      try {
        text = await Promise.race([readCapped(answered), deadline]);
      } catch {
        if (controller.signal.aborted) return late();
        return fail("FILE_UNREACHABLE", `${url} broke off while it was read: serve ${what} whole.`);
      }
      if (text === "timeout") {
        drop();
        return late();
      }
      if (text === undefined) return tooLarge();
      if (type !== "application/json") {
        return fail(
          "WRONG_CONTENT_TYPE",
          `${url} is served as "${(type || "no content type").slice(0, 100)}"; serve it with "Content-Type: application/json" (the file has no .json extension to go by, so configure it explicitly).`,
        );
      }
      try {
        return { ok: true, url, json: JSON.parse(text) as unknown };
      } catch {
        return fail(
          "NOT_JSON",
          `${url} is not valid JSON: ${what} must be a JSON document (check for a stray comma, comments, or an HTML error page served with status 200).`,
        );
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
