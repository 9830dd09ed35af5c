// The frame's own confirmation (README "Clickjacking"): what will be signed, and a button that
// counts only a trusted click the user could see. A click is refused while the frame is obscured:
// where IntersectionObserver v2 exists (Chromium) the button must have been reported `isVisible`
// (not covered, not transparent, not transformed) for CONFIRM_DELAY_MS; elsewhere the page must
// have been visible and the button shown for that long, and the point clicked must be the button.

/** How long the confirmation must have been seen, unobscured, before a click counts. */
export const CONFIRM_DELAY_MS = 600;

/** A row of what will be signed. */
export type ConfirmRow = { label: string; value: string };

/** Why a click was not taken (the frame shows it; the confirmation keeps waiting). */
export type IgnoredClick = "untrusted" | "obscured";

type VisibilityEntry = IntersectionObserverEntry & { isVisible?: boolean };

/**
 * Shows `rows` under `title` in `root` and resolves `true` on a counted click of Confirm, `false`
 * on Cancel. `onIgnored` hears each click refused.
 */
export function confirmInFrame(
  root: HTMLElement,
  title: string,
  rows: readonly ConfirmRow[],
  onIgnored: (why: IgnoredClick) => void,
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
    const finish = (value: boolean) => {
      observer?.disconnect();
      root.replaceChildren();
      resolve(value);
    };
    confirm.addEventListener("click", (event) => {
      if (!event.isTrusted) return onIgnored("untrusted");
      if (!unobscured(event)) {
        note.textContent =
          "This confirmation was covered or had just appeared: look, then tap again.";
        return onIgnored("obscured");
      }
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
