// Debian's Chromium and the flags it needs on this kind of machine (no sandbox as root, no GPU, no
// background network traffic to hosts that are not reachable): one place for every browser run.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];
