// PROCESSING answered unprompted (`processingRate`): only where the service's #850 and #854 say a
// signed retry may answer it, at the same requests for the same seed, and never otherwise.
import { describe, expect, it } from "vitest";
import { createFaultQueue, mayAnswerProcessing } from "../src/faults.js";
import { resolveOptions } from "../src/options.js";

const SEVEN = [
  ["POST", "/auth/credentials"],
  ["POST", "/auth/credentials/AuthMethod:1/challenge"],
  ["POST", "/auth/credentials/AuthMethod:1/verify"],
  ["POST", "/auth/sessions/Session:1/refresh"],
  ["DELETE", "/auth/credentials/AuthMethod:1"],
  ["DELETE", "/auth/sessions/Session:1"],
  ["POST", "/grid/2025-10-13/internal-accounts/InternalAccount:1/export"],
] as const;
const OTHERS = [
  ["POST", "/quotes/Quote:1/execute"],
  ["PATCH", "/customers/Customer:1"],
  ["POST", "/auth/delegated-keys"],
  ["PATCH", "/internal-accounts/InternalAccount:1"],
  ["GET", "/auth/sessions"],
  ["POST", "/auth/credentials/AuthMethod:1/verify/extra"],
] as const;

const draws = (queue: ReturnType<typeof createFaultQueue>, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const [method, path] = SEVEN[i % SEVEN.length]!;
    return i % 2 === 0 ? queue.takeProcessing(method, path) : queue.takeSigned(method, path);
  }).map((taken) => (typeof taken === "boolean" ? taken : taken?.kind === "processing"));

describe("processingRate", () => {
  it("names the seven endpoints of #850 and #854 and no other", () => {
    for (const [method, path] of SEVEN) expect(mayAnswerProcessing(method, path)).toBe(true);
    for (const [method, path] of OTHERS) expect(mayAnswerProcessing(method, path)).toBe(false);
  });

  it("draws from the seed: the same requests answer PROCESSING every run, at about the rate", () => {
    const first = draws(createFaultQueue({ processingRate: 0.3, seed: "soak" }), 2_000);
    const again = draws(createFaultQueue({ processingRate: 0.3, seed: "soak" }), 2_000);
    const other = draws(createFaultQueue({ processingRate: 0.3, seed: "other" }), 2_000);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    const share = first.filter(Boolean).length / first.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });

  it("never answers PROCESSING elsewhere, nor at rate 0; an armed fault still goes first", () => {
    const always = createFaultQueue({ processingRate: 1, seed: "x" });
    for (const [method, path] of OTHERS) {
      expect(always.takeProcessing(method, path)).toBe(false);
      expect(always.takeSigned(method, path)).toBeUndefined();
    }
    const never = createFaultQueue({ seed: "x" });
    expect(draws(never, 100).some(Boolean)).toBe(false);
    const armed = createFaultQueue({ processingRate: 1, seed: "x" });
    armed.add({
      kind: "error",
      at: "signed",
      status: 424,
      code: "EMAIL_OTP_CREDENTIAL_SYNC_FAILED",
    });
    expect(armed.takeSigned("DELETE", "/auth/sessions/Session:1")?.kind).toBe("error");
    expect(armed.takeSigned("DELETE", "/auth/sessions/Session:1")?.kind).toBe("processing");
  });

  it("refuses a rate outside [0, 1]", () => {
    expect(resolveOptions({}).processingRate).toBe(0);
    expect(() => resolveOptions({ processingRate: 1.5 })).toThrow(RangeError);
    expect(() => resolveOptions({ processingRate: Number.NaN })).toThrow(RangeError);
  });
});
