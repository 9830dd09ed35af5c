// The channel's reading of messages (protocol.ts) and the page side's refusals (channel.ts), in
// Node with the few DOM pieces the page side touches stood in for: the browser suite
// (e2e/frame.spec.ts) runs the same code between real origins.
import { afterEach, describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../../test/src/errorDetails.js";
import { openChannel } from "../src/channel.js";
import { CHANNEL, readAnswer, readRequest } from "../src/protocol.js";

const id = "0123456789abcdef0123456789abcdef";

describe("readRequest", () => {
  it.each([
    ["no object", null],
    ["another channel", { channel: "x", v: 1, id, kind: "list" }],
    ["another version", { channel: CHANNEL, v: 2, id, kind: "list" }],
    ["a short id", { channel: CHANNEL, v: 1, id: "abc", kind: "list" }],
    ["an unknown kind", { channel: CHANNEL, v: 1, id, kind: "sign" }],
    ["a stamp without payload", { channel: CHANNEL, v: 1, id, kind: "stamp", handle: "h" }],
    ["an export without a bundle", { channel: CHANNEL, v: 1, id, kind: "showExport", handle: "h" }],
    ["a registration without options", { channel: CHANNEL, v: 1, id, kind: "register" }],
    [
      "a session opening without a bundle",
      { channel: CHANNEL, v: 1, id, kind: "openSession", handle: "h" },
    ],
    [
      "a session opening without a handle",
      { channel: CHANNEL, v: 1, id, kind: "openSession", bundle: "b" },
    ],
  ])("refuses %s", (_name, message) => {
    expect(readRequest(message)).toBe("unexpected");
  });

  it("reads a stamp request", () => {
    const message = {
      channel: CHANNEL,
      v: 1,
      id,
      kind: "stamp",
      handle: "h",
      payload: "{}",
      operation: "exportWallet",
      method: "POST",
      path: "/internal-accounts/InternalAccount:1/export",
    };
    expect(readRequest(message)).toEqual(message);
  });
  it("reads a legacy session opening: a handle and a bundle", () => {
    const message = { channel: CHANNEL, v: 1, id, kind: "openSession", handle: "h", bundle: "b" };
    expect(readRequest(message)).toEqual(message);
  });
});

describe("readAnswer", () => {
  it("reads ready, results and errors, and refuses the rest", () => {
    expect(readAnswer({ channel: CHANNEL, v: 1, kind: "ready" })).not.toBe("unexpected");
    expect(
      readAnswer({ channel: CHANNEL, v: 1, kind: "answer", id, ok: true, result: null }),
    ).not.toBe("unexpected");
    expect(readAnswer({ channel: CHANNEL, v: 1, kind: "answer", id, ok: false })).toBe(
      "unexpected",
    );
    expect(readAnswer({ channel: CHANNEL, v: 1, kind: "answer", id: "x", ok: true })).toBe(
      "unexpected",
    );
    expect(
      readAnswer({ channel: CHANNEL, v: 1, kind: "confirming", id, operation: "executeQuote" }),
    ).not.toBe("unexpected");
    expect(readAnswer({ channel: CHANNEL, v: 1, kind: "confirming", id })).toBe("unexpected");
    expect(
      readAnswer({ channel: CHANNEL, v: 1, kind: "confirming", id: "x", operation: "o" }),
    ).toBe("unexpected");
  });
});

describe("openChannel", () => {
  const saved = { ...globalThis } as Record<string, unknown>;
  let listener: ((event: MessageEvent) => void) | undefined;
  const contentWindow = { postMessage: () => undefined };
  const install = () => {
    Object.assign(globalThis, {
      location: { href: "https://app.example/", origin: "https://app.example" },
      document: {
        createElement: () => ({
          setAttribute: () => undefined,
          remove: () => undefined,
          contentWindow,
        }),
        body: { append: () => undefined },
      },
      addEventListener: (_type: string, handler: (event: MessageEvent) => void) => {
        listener = handler;
      },
      removeEventListener: () => undefined,
    });
  };
  afterEach(() => {
    for (const name of ["location", "document", "addEventListener", "removeEventListener"])
      (globalThis as Record<string, unknown>)[name] = saved[name];
  });

  it("refuses a message of another origin or window, and a stray answer", () => {
    install();
    const refused: unknown[] = [];
    const channel = openChannel({
      url: "https://signer.example/",
      onRefused: (error) => refused.push(error),
    });
    listener!({ origin: "https://evil.example", source: contentWindow, data: {} } as never);
    listener!({ origin: "https://signer.example", source: {}, data: {} } as never);
    listener!({
      origin: "https://signer.example",
      source: contentWindow,
      data: { channel: CHANNEL, v: 1, kind: "answer", id, ok: true, result: { stamp: "s" } },
    } as never);
    channel.close();
    expect(
      refused.map((error) => (error as { details: { reason: string } }).details.reason),
    ).toEqual(["origin", "origin", "replay"]);
    expect(refused[0]).toMatchObject({ code: "FRAME_REFUSED" });
    expectDocumentedDetails(refused[0] as never);
  });

  it("opens the frame at the page's origin as its parent, and sends that origin as the referrer only", () => {
    install();
    const channel = openChannel({ url: "https://signer.example/page/" });
    const element = channel.element as unknown as { src: string; referrerPolicy: string };
    expect(new URL(element.src).searchParams.get("parent")).toBe("https://app.example");
    expect(element.referrerPolicy).toBe("origin");
    channel.close();
  });

  it("tells the page when the frame waits for a tap on one of its requests, and only then", async () => {
    install();
    const posted: Array<{ id: string }> = [];
    contentWindow.postMessage = ((message: { id: string }) => posted.push(message)) as never;
    const refused: unknown[] = [];
    const confirms: unknown[] = [];
    const channel = openChannel({
      url: "https://signer.example/",
      onRefused: (error) => refused.push((error.details as { reason: string }).reason),
      onConfirm: (request) => confirms.push(request),
    });
    const from = (data: unknown) =>
      listener!({ origin: "https://signer.example", source: contentWindow, data } as never);
    from({ channel: CHANNEL, v: 1, kind: "ready" });
    const answered = channel.request({
      kind: "stamp",
      handle: "h",
      payload: "{}",
      operation: "executeQuote",
      method: "POST",
      path: "/quotes/Quote:1/execute",
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const sent = posted[0]!.id;
    // For no waiting request, or from another origin: refused, nobody told.
    from({ channel: CHANNEL, v: 1, kind: "confirming", id, operation: "exportWallet" });
    listener!({
      origin: "https://evil.example",
      source: contentWindow,
      data: { channel: CHANNEL, v: 1, kind: "confirming", id: sent, operation: "x" },
    } as never);
    expect(confirms).toEqual([]);
    // For the waiting request: told, and the request still waits for its answer.
    from({ channel: CHANNEL, v: 1, kind: "confirming", id: sent, operation: "executeQuote" });
    expect(confirms).toEqual([{ operation: "executeQuote" }]);
    from({ channel: CHANNEL, v: 1, kind: "answer", id: sent, ok: true, result: { stamp: "s" } });
    expect(await answered).toEqual({ stamp: "s" });
    expect(refused).toEqual(["replay", "origin"]);
    channel.close();
    contentWindow.postMessage = () => undefined;
  });

  it("reports a frame that never says it is ready", async () => {
    install();
    const channel = openChannel({ url: "https://signer.example/", timeoutMs: 20 });
    const error = await channel.request({ kind: "list" }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: "FRAME_UNAVAILABLE", details: { timeoutMs: 20 } });
    expectDocumentedDetails(error as never);
    channel.close();
  });
});
