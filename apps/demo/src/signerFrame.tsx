// The signer frame (`DEMO_FRAME=1`, @signet/frame): the client's keys live in a page of another
// origin, framed here; its confirmations and the recovery phrase show inside it, where this page
// cannot read or click them. The frame is placed once in the layout and never moved: moving an
// iframe in the document reloads it, and its held keys and pending confirmation with it.
import { type FrameSigner, frameSigner } from "@signet/frame";
import { createContext, useContext, useLayoutEffect, useRef } from "react";
import { logLine } from "./log.js";

/** The frame the client signs through, and the origin it runs on (for the words on screen). */
export type SignerFrame = { signer: FrameSigner; origin: string };

/**
 * Opens the signer frame at `url` in a holder of its own, not yet in the document: the iframe
 * loads when `SignerSlot` places the holder in the layout (within the channel's 10 s).
 */
export function openSignerFrame(url: string): SignerFrame {
  const holder = document.createElement("div");
  holder.className = "signer-holder";
  const signer = frameSigner({
    url,
    container: holder,
    // A stray, forged or replayed message this page's side refused: the reason, never its data.
    onRefused: (error) =>
      logLine(
        `signer frame: refused a message (${String((error.details as { reason?: unknown }).reason)})`,
        "error",
      ),
    // A confirmation waits for a tap in the frame: bring the frame into view (a payment is asked
    // for at the foot of a long screen, the frame is at the top of the layout).
    onConfirm: () => holder.scrollIntoView({ block: "nearest" }),
  });
  signer.element.className = "signer-frame";
  // This page sends no referrer (`Referrer-Policy: no-referrer`); the adapter's iframe still
  // carries this page's origin to the frame (`referrerpolicy="origin"`), which Firefox's frame
  // checks its parent by.
  return { signer, origin: new URL(url).origin };
}

const SignerFrameContext = createContext<SignerFrame | undefined>(undefined);

/** The signer frame for the screens below, or none (keys in this page). */
export const SignerFrameProvider = SignerFrameContext.Provider;

/** The signer frame the client signs through, when the demo runs with it. */
export const useSignerFrame = (): SignerFrame | undefined => useContext(SignerFrameContext);

/**
 * Where the frame shows what it is asked to sign, and the recovery phrase: the first thing in the
 * main column, so a confirmation is in sight of the button that asked for it.
 */
export function SignerSlot() {
  const frame = useSignerFrame();
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const holder = frame?.signer.element.parentElement;
    // Once: a second run (Strict Mode) finds it placed already and leaves it where it is.
    if (holder && ref.current && holder.parentElement !== ref.current) ref.current.append(holder);
  }, [frame]);
  if (!frame) return null;
  return (
    <section className="card signer-slot" aria-labelledby="signer-slot-title">
      <h2 id="signer-slot-title" className="small">
        Signer frame
      </h2>
      <p className="muted small">
        This wallet's keys live in a separate page on <code>{frame.origin}</code>, not in this one.
        What it is asked to sign, and the recovery phrase, show below; only a tap there confirms.
      </p>
      <div ref={ref} data-testid="signer-slot" />
    </section>
  );
}
