// The frame page's entry (README "Serving the frame"): it runs only framed, and only by the parent
// origin named in its URL (`?parent=`), which the server's `frame-ancestors` must name too. The
// parent's origin is read from `location.ancestorOrigins` where the browser has it, else from the
// referrer; a page opened alone or framed by another origin says so and does nothing else. Opened
// by the frame itself at `?confirm=` it is the frame's confirmation window (confirmWindow.ts).
import { CONFIRM_PARAM, runConfirmWindow } from "./confirmWindow.js";
import { startFrame } from "./frame.js";

const root = document.getElementById("signet-frame");
const parentOrigin = new URLSearchParams(location.search).get("parent") ?? "";
// Opened by the frame itself as its confirmation window (confirmWindow.ts), not framed.
const confirmNonce = new URLSearchParams(location.search).get(CONFIRM_PARAM);

function framedBy(): string | undefined {
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0] ?? undefined;
  try {
    return document.referrer ? new URL(document.referrer).origin : undefined;
  } catch {
    return undefined;
  }
}

if (root && confirmNonce !== null) {
  if (!runConfirmWindow(root, confirmNonce)) {
    root.textContent = "This signer works only inside its app.";
    root.dataset.state = "unframed";
  }
} else if (root) {
  let origin = "";
  try {
    origin = new URL(parentOrigin).origin;
  } catch {
    // No parent named: refused below.
  }
  if (
    window.parent === window ||
    origin === "" ||
    origin !== parentOrigin ||
    framedBy() !== origin
  ) {
    root.textContent = "This signer works only inside its app.";
    root.dataset.state = "unframed";
  } else {
    root.dataset.state = "ready";
    // The export bundle's signers come from the page the signer's origin serves (its own meta
    // tags), never from the parent: absent, core's pinned production keys.
    const meta = (name: string) =>
      document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
    const signers = meta("signet-trusted-export-signers");
    startFrame({
      root,
      parentOrigin: origin,
      ...(signers ? { trustedExportSigners: signers.split(/[\s,]+/).filter(Boolean) } : {}),
      allowUnsignedBundles: meta("signet-allow-unsigned-bundles") === "true",
    });
  }
}
