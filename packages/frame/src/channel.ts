// The page's side of the channel (README "The channel"): one iframe of the frame's origin, requests
// with fresh ids, answers matched by id. A message is taken only from the frame's origin and from
// its window (`event.source === iframe.contentWindow`), only in the channel's shape and version,
// and only as the answer to a request still waiting; anything else is refused (`onRefused`) and
// changes nothing.
import { SignetError } from "@signet/core";
import {
  CHANNEL,
  CHANNEL_VERSION,
  type FrameRequestBody,
  type FrameRequestKind,
  type FrameResults,
  newRequestId,
  readAnswer,
} from "./protocol.js";

/** What the page's side of the channel needs. */
export type ChannelOptions = {
  /** The frame page's URL on its own origin. */
  url: string;
  /** Where the iframe goes. Default: `document.body`. */
  container?: HTMLElement | undefined;
  /** How long the frame may take to load and announce itself, in ms. Default 10 000. */
  timeoutMs?: number | undefined;
  /** Told about every message refused (a forged, stray or replayed answer), as a `SignetError`. */
  onRefused?: ((error: SignetError) => void) | undefined;
  /**
   * Told when the frame shows a confirmation for one of this page's requests and waits for the
   * user's tap in it (`operation`: the action asked for): bring the frame into view, say where to
   * look. Only for a request still waiting, from the frame itself.
   */
  onConfirm?: ((request: { operation: string }) => void) | undefined;
};

/** The page's side of the channel. */
export type FrameChannel = {
  /** The iframe, for layout (the frame shows its confirmations inside it). */
  readonly element: HTMLIFrameElement;
  /** Sends a request and resolves with its answer, or rejects with the frame's typed error. */
  request<K extends FrameRequestKind>(
    body: Extract<FrameRequestBody, { kind: K }>,
  ): Promise<FrameResults[K]>;
  /** Removes the iframe and rejects what still waits. */
  close(): void;
};

const refused = (reason: string, message: string) =>
  new SignetError("FRAME_REFUSED", message, { details: { reason } });

/** Opens the frame and its channel; nothing is sent before the frame says it is ready. */
export function openChannel(options: ChannelOptions): FrameChannel {
  const frameUrl = new URL(options.url, location.href);
  const frameOrigin = frameUrl.origin;
  // The frame serves only this origin as its parent (and checks it, README "Serving the frame").
  frameUrl.searchParams.set("parent", location.origin);
  const element = document.createElement("iframe");
  element.src = frameUrl.href;
  element.title = "Signet signer";
  // One permission: creating a passkey, which the frame does itself (README "Passkeys"); a
  // passkey sign-in's assertion is made by the app's page.
  element.setAttribute("allow", "publickey-credentials-create");
  // The frame checks who framed it by `location.ancestorOrigins`, or, where a browser has none
  // (Firefox), by the referrer: its navigation carries the app's origin even when the app's page
  // sends no referrer, and never the app's path or query.
  element.referrerPolicy = "origin";
  const timeoutMs = options.timeoutMs ?? 10_000;
  const waiting = new Map<
    string,
    { resolve(value: unknown): void; reject(error: unknown): void }
  >();
  let resolveReady: () => void;
  let rejectReady: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined);
  const timer = setTimeout(
    () =>
      rejectReady(
        new SignetError("FRAME_UNAVAILABLE", "The signer frame did not load in time", {
          details: { timeoutMs },
        }),
      ),
    timeoutMs,
  );
  const refuse = (reason: string, message: string) => options.onRefused?.(refused(reason, message));

  const onMessage = (event: MessageEvent) => {
    // Both checks: another origin, or another window of the frame's origin (a second frame a
    // script opened), is not the frame this channel talks to.
    if (event.origin !== frameOrigin || event.source !== element.contentWindow)
      return refuse("origin", "A message from another origin or window was refused");
    const answer = readAnswer(event.data);
    if (answer === "unexpected")
      return refuse("unexpected", "A message not in the channel's shape was refused");
    if (answer.kind === "ready") {
      clearTimeout(timer);
      return resolveReady();
    }
    const pending = waiting.get(answer.id);
    if (answer.kind === "confirming") {
      // A notice, not an answer: the request still waits for its answer.
      if (!pending) return refuse("replay", "A notice for no waiting request was refused");
      return void options.onConfirm?.({ operation: answer.operation });
    }
    // An id answered once is forgotten: a second answer for it is refused, never taken.
    if (!pending) return refuse("replay", "An answer for no waiting request was refused");
    waiting.delete(answer.id);
    if (answer.ok) pending.resolve(answer.result);
    else
      pending.reject(
        new SignetError(answer.error.code, answer.error.message, {
          ...(answer.error.details ? { details: answer.error.details as never } : {}),
        }),
      );
  };
  addEventListener("message", onMessage);
  (options.container ?? document.body).append(element);

  return {
    element,
    async request(body) {
      await ready;
      const id = newRequestId();
      const answer = new Promise<unknown>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
      });
      element.contentWindow?.postMessage(
        { ...body, channel: CHANNEL, v: CHANNEL_VERSION, id },
        frameOrigin,
      );
      return answer as never;
    },
    close() {
      clearTimeout(timer);
      removeEventListener("message", onMessage);
      element.remove();
      const closed = new SignetError("FRAME_UNAVAILABLE", "The signer frame was closed", {
        details: {},
      });
      rejectReady(closed);
      for (const pending of waiting.values()) pending.reject(closed);
      waiting.clear();
    },
  };
}
