// The signer's confirmation window (src/page/confirmWindow.ts), in Node with the few window pieces
// it touches stood in for (the engines' suite, e2e/engines/frame.test.ts, runs it between real
// windows): what is shown never travels in the window's URL; the frame sends the rows only to the
// window it opened, once that window says hello with the confirmation's nonce, and takes the
// answer from that window alone.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { confirmWindowUrl, openConfirmWindow, readShown } from "../src/page/confirmWindow.js";

const ORIGIN = "https://signer.example";
const rows = [{ label: "Operation", value: "Send a payment" }];

describe("the confirmation window", () => {
  const names = ["location", "window", "addEventListener", "removeEventListener"] as const;
  const saved = Object.fromEntries(
    names.map((name) => [name, (globalThis as Record<string, unknown>)[name]]),
  );
  let listeners: Array<(event: MessageEvent) => void> = [];
  let opened: { url: string; sent: unknown[]; closed: boolean } | undefined;
  const popup = {
    closed: false,
    postMessage(message: unknown, origin: string) {
      if (origin !== ORIGIN) throw new Error("posted to another origin");
      opened?.sent.push(message);
    },
    close() {
      if (opened) opened.closed = true;
    },
  };
  const deliver = (source: unknown, origin: string, data: unknown) => {
    for (const listener of [...listeners])
      listener({ source, origin, data } as unknown as MessageEvent);
  };

  beforeEach(() => {
    listeners = [];
    opened = undefined;
    Object.assign(globalThis, {
      location: { origin: ORIGIN, pathname: "/", href: `${ORIGIN}/` },
      window: {
        open: (url: string) => {
          opened = { url, sent: [], closed: false };
          return popup;
        },
      },
      addEventListener: (_type: string, listener: (event: MessageEvent) => void) =>
        listeners.push(listener),
      removeEventListener: (_type: string, listener: (event: MessageEvent) => void) => {
        listeners = listeners.filter((entry) => entry !== listener);
      },
    });
  });
  afterEach(() => {
    for (const name of names) (globalThis as Record<string, unknown>)[name] = saved[name];
  });

  it("opens at a URL that carries the nonce and nothing of what is shown", () => {
    const url = new URL(confirmWindowUrl("0123456789abcdef0123456789abcdef"));
    expect(url.hash).toBe("");
    expect([...url.searchParams.keys()]).toEqual(["confirm"]);
    const shown = openConfirmWindow("Send a payment", rows);
    expect(shown.opened).toBe(true);
    expect(opened?.url).not.toContain("Send");
    expect(opened?.url).not.toContain("#");
    shown.close();
  });

  it("sends the rows only to the window it opened, on its hello with the nonce", async () => {
    const shown = openConfirmWindow("Send a payment", rows);
    const nonce = new URL(opened!.url).searchParams.get("confirm")!;
    // Another window, another origin or another nonce is not answered.
    deliver({}, ORIGIN, { channel: "signet-confirm", nonce, kind: "hello" });
    deliver(popup, "https://app.example", { channel: "signet-confirm", nonce, kind: "hello" });
    deliver(popup, ORIGIN, { channel: "signet-confirm", nonce: "0".repeat(32), kind: "hello" });
    expect(opened?.sent).toEqual([]);
    deliver(popup, ORIGIN, { channel: "signet-confirm", nonce, kind: "hello" });
    expect(opened?.sent).toEqual([
      { channel: "signet-confirm", nonce, kind: "show", title: "Send a payment", rows },
    ]);
    expect(readShown(opened?.sent[0], nonce)).toEqual({ title: "Send a payment", rows });
    // An answer from elsewhere is not taken; the window's own is.
    deliver({}, ORIGIN, { channel: "signet-confirm", nonce, kind: "answer", approved: true });
    deliver(popup, ORIGIN, { channel: "signet-confirm", nonce, kind: "answer", approved: true });
    expect(await shown.answer).toBe(true);
    expect(listeners).toEqual([]);
  });

  it("closes the window itself once the answer has reached it", async () => {
    const shown = openConfirmWindow("Send a payment", rows);
    const nonce = new URL(opened!.url).searchParams.get("confirm")!;
    deliver(popup, ORIGIN, { channel: "signet-confirm", nonce, kind: "answer", approved: false });
    expect(await shown.answer).toBe(false);
    expect(opened?.closed).toBe(true);
  });

  it("takes an answer that arrives just after its window is seen closed", async () => {
    vi.useFakeTimers();
    try {
      const shown = openConfirmWindow("Send a payment", rows);
      const nonce = new URL(opened!.url).searchParams.get("confirm")!;
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(250);
      deliver(popup, ORIGIN, { channel: "signet-confirm", nonce, kind: "answer", approved: true });
      expect(await shown.answer).toBe(true);
    } finally {
      popup.closed = false;
      vi.useRealTimers();
    }
  });

  it("reports a window closed unanswered", async () => {
    vi.useFakeTimers();
    try {
      const shown = openConfirmWindow("Send a payment", rows);
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(500);
      expect(await shown.answer).toBeUndefined();
      expect(listeners).toEqual([]);
    } finally {
      popup.closed = false;
      vi.useRealTimers();
    }
  });

  it("reads only a complete show message of its nonce", () => {
    const nonce = "0123456789abcdef0123456789abcdef";
    const show = { channel: "signet-confirm", nonce, kind: "show", title: "T", rows };
    expect(readShown(show, nonce)).toEqual({ title: "T", rows });
    expect(readShown({ ...show, nonce: "1".repeat(32) }, nonce)).toBeUndefined();
    expect(readShown({ ...show, kind: "answer" }, nonce)).toBeUndefined();
    expect(readShown({ ...show, rows: [] }, nonce)).toBeUndefined();
    expect(readShown({ ...show, rows: [...rows, { label: 1 }] }, nonce)).toBeUndefined();
    expect(readShown(null, nonce)).toBeUndefined();
  });
});
