// The confirmation in a window of the signer's own origin (README "Clickjacking"), for engines
// without IntersectionObserver v2 (Firefox, WebKit): there the frame cannot tell whether the app's
// page made it transparent or laid something over it, so a click on the frame's Confirm does not
// sign; it opens this window, which the app's page can neither style nor cover, and only a tap in
// it counts. The frame and its window talk by `postMessage`, each checking that the other is the
// very window it expects, of the signer's own origin, with the confirmation's random nonce. What
// is shown never travels in the window's URL (which history, the referrer and extensions can
// read): the window, once open, says hello, and the frame sends the rows to that window alone.
import { newRequestId } from "../protocol.js";
import { type ConfirmElsewhere, type ConfirmRow, confirmInFrame } from "./confirm.js";

/** The message's tag between the frame and its confirmation window. */
const CHANNEL = "signet-confirm";
/** The frame page's query parameter that puts it in confirmation-window mode. */
export const CONFIRM_PARAM = "confirm";

/** An opened confirmation window: its answer, and a way to close it when the frame is done. */
export type ConfirmWindow = ReturnType<ConfirmElsewhere>;

/**
 * Opens the confirmation of `title` and `rows` in a window of this page's own origin. Call it
 * from a trusted click's handler, synchronously: browsers open windows only on a user gesture.
 * The URL carries the nonce only; the rows go by `postMessage` to the window once it says hello.
 */
export function openConfirmWindow(title: string, rows: readonly ConfirmRow[]): ConfirmWindow {
  const nonce = newRequestId();
  const popup = window.open(confirmWindowUrl(nonce), `signet-confirm-${nonce}`, WINDOW_FEATURES);
  if (!popup) return { answer: Promise.resolve(undefined), opened: false, close() {} };
  let stop = () => {};
  const answer = new Promise<boolean | undefined>((resolve) => {
    const listen = (event: MessageEvent) => {
      // Only the window this frame opened, of this origin, for this confirmation.
      if (event.source !== popup || event.origin !== location.origin) return;
      const data = event.data as ConfirmMessage | null;
      if (data?.channel !== CHANNEL || data.nonce !== nonce) return;
      if (data.kind === "hello") {
        popup.postMessage({ channel: CHANNEL, nonce, kind: "show", title, rows }, location.origin);
        return;
      }
      if (data.kind !== "answer") return;
      // The window waits for the frame to close it (with a fallback of its own, ANSWERED_CLOSE_MS):
      // closing itself at once could let this frame see it closed before its answer arrives.
      stop();
      popup.close();
      resolve(data.approved === true);
    };
    // Seen closed: one more tick for an answer already on its way, then closed unanswered.
    let seenClosed = false;
    const closed = setInterval(() => {
      if (!popup.closed) return;
      if (!seenClosed) {
        seenClosed = true;
        return;
      }
      stop();
      resolve(undefined);
    }, 250);
    stop = () => {
      clearInterval(closed);
      removeEventListener("message", listen);
    };
    addEventListener("message", listen);
  });
  return {
    answer,
    opened: true,
    close() {
      stop();
      popup.close();
    },
  };
}

/** The window's URL: this page at `?confirm=<nonce>`, with no hash and nothing of what is shown. */
export function confirmWindowUrl(nonce: string): string {
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set(CONFIRM_PARAM, nonce);
  return url.href;
}

const WINDOW_FEATURES = "popup,width=460,height=420";

/**
 * How long an answered window stays open when its frame does not close it (the frame is gone).
 * Long enough that the answer has reached the frame before the frame can see the window closed.
 */
export const ANSWERED_CLOSE_MS = 2_000;

/** The messages between the frame and its window, each with the channel's tag and the nonce. */
type ConfirmMessage = {
  channel?: unknown;
  nonce?: unknown;
  kind?: unknown;
  title?: unknown;
  rows?: unknown;
  approved?: unknown;
};

/** What the frame sends its window to show, or `undefined` when `data` is not that. */
export function readShown(
  data: unknown,
  nonce: string,
): { title: string; rows: ConfirmRow[] } | undefined {
  const message = data as ConfirmMessage | null;
  if (message?.channel !== CHANNEL || message.nonce !== nonce || message.kind !== "show")
    return undefined;
  if (typeof message.title !== "string" || !Array.isArray(message.rows)) return undefined;
  const rows = message.rows.filter(
    (row): row is ConfirmRow => typeof row?.label === "string" && typeof row?.value === "string",
  );
  return rows.length === message.rows.length && rows.length > 0
    ? { title: message.title, rows }
    : undefined;
}

/**
 * Runs the page as a confirmation window: only when a frame of this same origin opened it (its
 * opener's location is readable, which a cross-origin opener's is not) and it is not framed. It
 * says hello to that opener, shows what the opener sends back for this nonce, and answers the
 * opener alone, then closes. Returns `false` when the page is not a confirmation window it may
 * serve.
 */
export function runConfirmWindow(root: HTMLElement, nonce: string): boolean {
  const opener = window.opener as Window | null;
  let sameOrigin = false;
  try {
    sameOrigin = opener !== null && opener.location.origin === location.origin;
  } catch {
    // A cross-origin opener: not the frame.
  }
  if (!opener || !sameOrigin || window.parent !== window) return false;
  root.dataset.state = "confirm-window";
  let shown = false;
  const listen = (event: MessageEvent) => {
    // Only the frame that opened this window, of this origin, for this nonce; once.
    if (shown || event.source !== opener || event.origin !== location.origin) return;
    const asked = readShown(event.data, nonce);
    if (!asked) return;
    shown = true;
    removeEventListener("message", listen);
    void confirmInFrame(root, asked.title, asked.rows, () => undefined).then((approved) => {
      opener.postMessage({ channel: CHANNEL, nonce, kind: "answer", approved }, location.origin);
      // The frame closes this window once the answer reaches it; this window closes itself
      // later only if the frame is gone.
      root.textContent = "Answered. This window closes.";
      setTimeout(() => window.close(), ANSWERED_CLOSE_MS);
    });
  };
  addEventListener("message", listen);
  opener.postMessage({ channel: CHANNEL, nonce, kind: "hello" }, location.origin);
  return true;
}
