import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseStrictJson, StrictJsonError } from "./strictJson.js";

describe("parseStrictJson", () => {
  it("reads what JSON.parse reads, for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseStrictJson(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it.each([
    '{"a":1,"a":2}',
    '{"a":{"b":1,"b":1}}',
    '[{"x":1,"x":1}]',
    '{"a":1,"\\u0061":2}',
    "\ufeff{}",
    "{'a':1}",
    '{"a":1,}',
    "[1,]",
    "01",
    '"\u0001"',
    "NaN",
    "{} x",
    "",
    `${"[".repeat(100)}${"]".repeat(100)}`,
  ])("refuses %j", (text) => {
    expect(() => parseStrictJson(text)).toThrow(StrictJsonError);
  });

  it("accepts whitespace, escapes and numbers as RFC 8259 writes them", () => {
    expect(parseStrictJson(' { "a" : [ 1.5e3 , -0 , true , null , "\\n\\u00e9" ] } ')).toEqual({
      a: [1500, -0, true, null, "\né"],
    });
  });
});
