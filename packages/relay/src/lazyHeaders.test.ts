// The Headers resolveUser reads behind toNodeHandler: get and has answer from Node's parse, and
// anything else fills the real Headers once, which then answers everything, as Headers would.
import { describe, expect, it } from "vitest";
import { lazyHeaders } from "./lazyHeaders.js";

const raw: Record<string, string> = { cookie: "a=1; b=2", "x-user": "Customer:1" };

function make() {
  let builds = 0;
  const headers = lazyHeaders(
    (name) => raw[name] ?? null,
    () => {
      builds++;
      return new Headers(raw);
    },
  );
  return { headers, builds: () => builds };
}

describe("lazyHeaders", () => {
  it("answers get and has by any case without filling a Headers", () => {
    const { headers, builds } = make();
    expect(headers.get("Cookie")).toBe("a=1; b=2");
    expect(headers.get("X-USER")).toBe("Customer:1");
    expect(headers.get("authorization")).toBeNull();
    expect(headers.has("x-user")).toBe(true);
    expect(headers.has("authorization")).toBe(false);
    expect(headers instanceof Headers).toBe(true);
    expect(builds()).toBe(0);
  });

  it("refuses a name Headers refuses, with the same TypeError", () => {
    const { headers } = make();
    expect(() => headers.get("bad name")).toThrow(TypeError);
    expect(() => new Headers().get("bad name")).toThrow(TypeError);
  });

  it("fills the real Headers once for anything else, which then answers get too", () => {
    const { headers, builds } = make();
    expect([...headers.keys()]).toEqual(["cookie", "x-user"]);
    headers.set("x-user", "Customer:2");
    expect(headers.get("x-user")).toBe("Customer:2");
    expect(new Headers(headers).get("cookie")).toBe("a=1; b=2");
    expect(Object.prototype.toString.call(headers)).toBe("[object Headers]");
    expect(builds()).toBe(1);
  });
});
