// What the hook tests over the real core, relay and emulator on 127.0.0.1 share: one stack for a
// test file, its faults cleared and the rendered hooks unmounted after each test, and the render
// options that put a provider (and, with `strict`, <StrictMode>) around a hook.
import type { SignetClient } from "@signet/core";
import { cleanup } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll } from "vitest";
import { type Stack, startStack } from "../../../test/support/stack.js";
import { SignetProvider } from "../src/index.js";

/**
 * Starts one stack for the calling test file (stopped after its tests) and resets it after each
 * test; the stack is read through the returned function once the file's tests run.
 */
export function liveStack(): () => Stack {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());
  afterEach(async () => {
    cleanup();
    await fetch(`${running().emulator.url}/_emulator/faults`, { method: "DELETE" });
  });
  const running = () => {
    if (!stack) throw new Error("the stack is read before it started");
    return stack;
  };
  return running;
}

/** A hook's render options: `client`'s provider around it, under <StrictMode> when `strict`. */
export const hookOptions = (client: SignetClient, strict: boolean) => ({
  wrapper: ({ children }: { children: ReactNode }) => (
    <SignetProvider client={client}>{children}</SignetProvider>
  ),
  reactStrictMode: strict,
});
