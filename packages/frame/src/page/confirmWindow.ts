// The confirmation in a window of the signer's own origin (README "Clickjacking"), for engines
// without IntersectionObserver v2 (Firefox, WebKit): there the frame cannot tell whether the app's
// page made it transparent or laid something over it, so a click on the frame's Confirm does not
// sign; it opens this window, which the app's page can neither style nor cover, and only a tap in
// it counts. The frame and its window talk by `postMessage`, each checking that the other is the
// very window it expects and of the signer's own origin.
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
 */
export function openConfirmWindow(title: string, rows: readonly ConfirmRow[]): ConfirmWindow {
  const nonce = newRequestId();
  const url = new URL(location.pathname, location.origin);
  url.searchParams.set(CONFIRM_PARAM, nonce);
  url.hash = encodeURIComponent(JSON.stringify({ title, rows }));
  const popup = window.open(url.href, `signet-confirm-${nonce}`, "popup,width=460,height=420");
  if (!popup) return { answer: Promise.resolve(undefined), opened: false, close() {} };
  let stop = () => {};
  const answer = new Promise<boolean | undefined>((resolve) => {
    const listen = (event: MessageEvent) => {
      // Only the window this frame opened, of this origin, answering this confirmation.
      const data = event.data as { channel?: unknown; nonce?: unknown; approved?: unknown } | null;
      if (event.source !== popup || event.origin !== location.origin) return;
      if (data?.channel !== CHANNEL || data.nonce !== nonce) return;
      stop();
      resolve(data.approved === true);
    };
    const closed = setInterval(() => {
      if (popup.closed) {
        stop();
        resolve(undefined);
      }
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

/**
 * Runs the page as a confirmation window: only when a frame of this same origin opened it (its
 * opener's location is readable, which a cross-origin opener's is not) and it is not framed. The
 * answer goes to that opener alone, then the window closes. Returns `false` when the page is not a
 * confirmation window it may serve.
 */
export function runConfirmWindow(root: HTMLElement, nonce: string): boolean {
  const opener = window.opener as Window | null;
  let sameOrigin = false;
  try {
    sameOrigin = opener !== null && opener.location.origin === location.origin;
  } catch {
    // A cross-origin opener: not the frame.
  }
  let shown: { title?: unknown; rows?: unknown } = {};
  try {
    shown = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  } catch {
    // Nothing readable to show: refused below.
  }
  const rows = Array.isArray(shown.rows)
    ? shown.rows.filter(
        (row): row is ConfirmRow =>
          typeof row?.label === "string" && typeof row?.value === "string",
      )
    : [];
  if (!sameOrigin || window.parent !== window || typeof shown.title !== "string" || !rows.length)
    return false;
  root.dataset.state = "confirm-window";
  void confirmInFrame(root, shown.title, rows, () => undefined).then((approved) => {
    opener?.postMessage({ channel: CHANNEL, nonce, approved }, location.origin);
    window.close();
  });
  return true;
}
