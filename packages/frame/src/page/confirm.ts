// The frame's own confirmation (README "Clickjacking"): what will be signed, and a button that
// counts only a trusted click the user could see. A click is refused while the frame is obscured:
// where IntersectionObserver v2 exists (Chromium) the button must have been reported `isVisible`
// (not covered, not transparent, not transformed) for CONFIRM_DELAY_MS; elsewhere the page must
// have been visible and the button shown for that long, and the point clicked must be the button;
// there, given `elsewhere`, such a click only opens the confirmation in a window of the signer's
// origin (confirmWindow.ts), where the tap that counts is made.

/** How long the confirmation must have been seen, unobscured, before a click counts. */
export const CONFIRM_DELAY_MS = 600;

/** A row of what will be signed. */
export type ConfirmRow = { label: string; value: string };

/** Why a click was not taken (the frame shows it; the confirmation keeps waiting). */
export type IgnoredClick = "untrusted" | "obscured";

/**
 * Opens the confirmation somewhere the app's page cannot cover (confirmWindow.ts's window), from
 * within a trusted click's handler; `answer` is `undefined` when it closed unanswered.
 */
export type ConfirmElsewhere = (
  title: string,
  rows: readonly ConfirmRow[],
) => {
  /** `true` confirmed, `false` cancelled, `undefined` closed unanswered or never opened. */
  answer: Promise<boolean | undefined>;
  /** `false` when the browser refused to open it (a popup blocker). */
  opened: boolean;
  close(): void;
};

type VisibilityEntry = IntersectionObserverEntry & { isVisible?: boolean };

/**
 * Shows `rows` under `title` in `root` and resolves `true` on a counted click of Confirm, `false`
 * on Cancel. `onIgnored` hears each click refused. Without IntersectionObserver v2 and given
 * `elsewhere`, a counted click opens the confirmation there, and its answer is the answer.
 */
export function confirmInFrame(
  root: HTMLElement,
  title: string,
  rows: readonly ConfirmRow[],
  onIgnored: (why: IgnoredClick) => void,
  elsewhere?: ConfirmElsewhere,
): Promise<boolean> {
  root.replaceChildren();
  const panel = document.createElement("section");
  panel.className = "confirm";
  const heading = document.createElement("h1");
  heading.textContent = title;
  const list = document.createElement("dl");
  for (const { label, value } of rows) {
    const term = document.createElement("dt");
    term.textContent = label;
    const detail = document.createElement("dd");
    detail.textContent = value;
    list.append(term, detail);
  }
  const note = document.createElement("p");
  note.className = "note";
  note.setAttribute("role", "status");
  const confirm = document.createElement("button");
  confirm.type = "button";
  confirm.id = "signet-confirm";
  confirm.textContent = "Confirm";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.id = "signet-cancel";
  cancel.textContent = "Cancel";
  panel.append(heading, list, confirm, cancel, note);
  root.append(panel);

  const shownAt = performance.now();
  // With IntersectionObserver v2, the time since the button was last reported fully visible;
  // `undefined` while it is not.
  let visibleSince: number | undefined;
  const observed = "isVisible" in IntersectionObserverEntry.prototype;
  let observer: IntersectionObserver | undefined;
  if (observed) {
    observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries as VisibilityEntry[])
          visibleSince = entry.isVisible ? (visibleSince ?? entry.time) : undefined;
      },
      // trackVisibility and delay are v2's options (not in every DOM typing).
      { threshold: [1], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
    );
    observer.observe(confirm);
  }

  const unobscured = (event: MouseEvent): boolean => {
    const now = performance.now();
    if (observed) {
      if (visibleSince === undefined || now - visibleSince < CONFIRM_DELAY_MS) return false;
    } else if (document.visibilityState !== "visible" || now - shownAt < CONFIRM_DELAY_MS) {
      return false;
    }
    // Nothing of the frame's own lies over the button where the click landed.
    const hit = document.elementFromPoint(event.clientX, event.clientY);
    return hit === confirm || confirm.contains(hit);
  };

  return new Promise<boolean>((resolve) => {
    let done = false;
    let pending: ReturnType<ConfirmElsewhere> | undefined;
    const finish = (value: boolean) => {
      if (done) return;
      done = true;
      observer?.disconnect();
      pending?.close();
      root.replaceChildren();
      resolve(value);
    };
    // One window at a time; a blocked or closed one leaves the frame's confirmation waiting.
    const openElsewhere = (open: ConfirmElsewhere) => {
      if (pending) return;
      const opened = open(title, rows);
      if (!opened.opened) {
        note.textContent = "The browser blocked the signer's window: allow it, then tap again.";
        return;
      }
      pending = opened;
      note.textContent = "Confirm in the signer's window.";
      void opened.answer.then((approved) => {
        pending = undefined;
        if (approved !== undefined) return finish(approved);
        if (!done) note.textContent = "The signer's window closed: tap Confirm to open it again.";
      });
    };
    confirm.addEventListener("click", (event) => {
      if (!event.isTrusted) return onIgnored("untrusted");
      if (!unobscured(event)) {
        note.textContent =
          "This confirmation was covered or had just appeared: look, then tap again.";
        return onIgnored("obscured");
      }
      if (!observed && elsewhere) return openElsewhere(elsewhere);
      finish(true);
    });
    cancel.addEventListener("click", (event) => {
      if (event.isTrusted) finish(false);
    });
  });
}

/** Shows the recovery phrase in `root` until the user closes it; resolves when it is shown. */
export function showPhrase(root: HTMLElement, phrase: string): void {
  root.replaceChildren();
  const panel = document.createElement("section");
  panel.className = "phrase";
  const heading = document.createElement("h1");
  heading.textContent = "Your recovery phrase";
  const words = document.createElement("ol");
  words.id = "signet-phrase";
  for (const word of phrase.split(/\s+/).filter(Boolean)) {
    const item = document.createElement("li");
    item.textContent = word;
    words.append(item);
  }
  const done = document.createElement("button");
  done.type = "button";
  done.id = "signet-done";
  done.textContent = "Done";
  done.addEventListener("click", () => root.replaceChildren());
  panel.append(heading, words, done);
  root.append(panel);
}
