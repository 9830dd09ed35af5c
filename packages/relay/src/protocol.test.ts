// The relay builds from a verbatim copy of core's protocol facts (scripts/sync-protocol.mjs): the
// copy must be current, and every code the relay answers with must be one of core's codes.
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { RelayErrorCode as CoreRelayErrorCode, KnownErrorCode } from "../../core/src/index.js";
import { RELAY_ERROR_STATUS as CORE_RELAY_ERROR_STATUS } from "../../core/src/transport/protocol.js";
import { RelayErrorCode, RelayRefusal, relayErrorResponse, relayErrorStatus } from "./errors.js";

const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");

describe("protocol facts written once", () => {
  it("protocol.ts is the current copy of core's transport/protocol.ts", () => {
    const copy = read("./protocol.ts");
    const source = read("../../core/src/transport/protocol.ts");
    const banner = copy.slice(0, copy.indexOf("\n", copy.indexOf("\n") + 1) + 1);
    expect(banner).toMatch(/^\/\/ GENERATED from packages\/core\/src\/transport\/protocol\.ts/);
    // A stale copy: run `node scripts/sync-protocol.mjs`.
    expect(copy.slice(banner.length)).toBe(source);
  });

  it("every code the relay answers with is one of core's codes, with its status", async () => {
    // Core's `KnownErrorCode` includes the keys of core's RELAY_ERROR_STATUS (the type test below);
    // the relay's runtime codes are exactly those keys.
    const codes = Object.values(RelayErrorCode);
    expect(codes).toEqual(Object.keys(CORE_RELAY_ERROR_STATUS));
    expect(codes).toHaveLength(13);
    for (const code of codes) {
      expect(code).toBe(RelayErrorCode[code]);
      const response = relayErrorResponse(new RelayRefusal(code, "x"));
      expect(response.status).toBe(CORE_RELAY_ERROR_STATUS[code]);
      expect(response.status).toBe(relayErrorStatus(code));
      expect(((await response.json()) as { code: string }).code).toBe(code);
    }
    expectTypeOf<RelayErrorCode>().toEqualTypeOf<CoreRelayErrorCode>();
    expectTypeOf<RelayErrorCode>().toExtend<KnownErrorCode>();
    expectTypeOf<(typeof RelayErrorCode)[RelayErrorCode]>().toExtend<KnownErrorCode>();
  });
});
