// The signer frame's UI as a user meets it in Firefox and WebKit, shared by the engine suites that
// show it (frame.test.ts on the frame's fixture app, demo.test.ts on the demo): where its buttons
// are on the screen, what it shows, and the confirmation window of the signer's origin that these
// engines get instead of a counted click in the frame (packages/frame README "Clickjacking").
import { type EnginePage, waitUntil } from "./engines.js";

/** How long a confirmation must have been shown before a click counts (confirm.ts), and a margin. */
export const SEEN_MS = 900;

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Point = { x: number; y: number };

/**
 * Where `selector` inside the frame at `frameXpath` is on the screen: the iframe's place in the
 * app's page plus the element's centre in the frame's document. `undefined` while the frame shows
 * no such element.
 */
export async function pointOf(
  page: EnginePage,
  frameXpath: string,
  selector: string,
): Promise<Point | undefined> {
  const inFrame = await page.evaluateInFrame(
    frameXpath,
    (wanted) => {
      const box = document.querySelector(wanted)?.getBoundingClientRect();
      return box ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
    },
    selector,
  );
  if (!inFrame) return undefined;
  const frame = await page.evaluate((path) => {
    const found = document.evaluate(path, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE);
    const box = (found.singleNodeValue as Element).getBoundingClientRect();
    return { x: box.left, y: box.top };
  }, frameXpath);
  return { x: frame.x + inFrame.x, y: frame.y + inFrame.y };
}

/** What the frame shows: the confirmation's rows and note, and the phrase's words. */
export function frameShows(page: EnginePage, frameXpath: string) {
  return page.evaluateInFrame(
    frameXpath,
    () => ({
      confirming: document.getElementById("signet-confirm") !== null,
      rows: Array.from(document.querySelectorAll("dd"), (row) => row.textContent ?? ""),
      note: document.querySelector(".note")?.textContent ?? "",
      words: Array.from(document.querySelectorAll("#signet-phrase li"), (li) =>
        (li.textContent ?? "").trim(),
      ),
    }),
    null,
  );
}

/**
 * After a counted click on the frame's Confirm: the frame says to confirm in the signer's window,
 * which shows the same operation; the user looks, then taps `button` there (a trusted click). The
 * rows the window showed.
 */
export async function answerInWindow(
  page: EnginePage,
  frameXpath: string,
  button: "confirm" | "cancel",
): Promise<string[]> {
  await waitUntil(
    async () => (await frameShows(page, frameXpath)).note.includes("signer's window"),
    "the frame to send the confirmation to the signer's window",
  );
  const window = await page.window("?confirm=");
  try {
    const rows = await waitUntil(
      () =>
        window.evaluate(
          () =>
            document.getElementById("signet-confirm") === null
              ? undefined
              : Array.from(document.querySelectorAll("dd"), (row) => row.textContent ?? ""),
          null,
        ),
      "the confirmation in the signer's window",
    );
    await pause(SEEN_MS);
    await window.click(`//button[@id="signet-${button}"]`);
    // The frame closes its window once the answer has reached it.
    await waitUntil(
      () => window.evaluate(() => false, null).catch(() => true),
      "the frame to close its window once answered",
    );
    return rows;
  } finally {
    await window.close().catch(() => undefined);
  }
}
