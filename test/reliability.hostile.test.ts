// Hostile input, short run: every parser and answer the client reads, every request the relay and
// emulator receive. No crash, hang, untyped error or 5xx; a tampered bundle is never accepted.
// `pnpm reliability` runs 10,000 cases of each and writes RELIABILITY.md.
import { describe, expect, it } from "vitest";
import { bundles, type HostileCounts, servers, serviceAnswers } from "./reliability/hostile.js";
import { saveCounts } from "./reliability/output.js";

const RUNS = Number(process.env.HOSTILE_RUNS ?? 200);

const mustBeZero = (c: HostileCounts) => ({
  name: c.name,
  untyped: c.untyped,
  hung: c.hung,
  serverErrors: c.serverErrors,
  tamperedAccepted: c.tamperedAccepted,
});

describe(`hostile input, ${RUNS} cases each`, () => {
  for (const [id, name, run] of [
    ["hostile-bundles", "bundles: tampered and junk envelopes", bundles],
    ["hostile-answers", "service answers the client reads", serviceAnswers],
    ["hostile-servers", "relay and emulator requests", servers],
  ] as const) {
    it(
      name,
      async () => {
        const counts = await run(RUNS);
        saveCounts(id, counts);
        for (const c of counts) {
          expect(mustBeZero(c)).toEqual({
            name: c.name,
            untyped: 0,
            hung: 0,
            serverErrors: 0,
            tamperedAccepted: 0,
          });
          expect(c.cases).toBeGreaterThan(RUNS / 2);
        }
      },
      Math.max(600_000, RUNS * 100),
    );
  }
});
