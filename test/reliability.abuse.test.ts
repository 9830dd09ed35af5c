// Relay abuse by category: every attempt refused, none reaches the service.
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAbuse } from "./reliability/abuse.js";
import { saveCounts } from "./reliability/output.js";
import { type Stack, startStack } from "./support/stack.js";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ settlementDelayMs: 5 });
});
afterAll(() => stack?.close());

it("relay abuse: nothing let through, in any category", async () => {
  const categories = await runAbuse(stack);
  saveCounts("abuse", categories);
  for (const c of categories) {
    expect({ category: c.category, letThrough: c.letThrough, examples: c.examples }).toEqual({
      category: c.category,
      letThrough: 0,
      examples: [],
    });
    expect(c.attempts).toBeGreaterThan(0);
  }
}, 120_000);
