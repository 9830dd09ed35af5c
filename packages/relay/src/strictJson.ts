// RFC 8259 JSON, read only to find the ids a body names. Stricter than JSON.parse: duplicate
// keys are refused, so the relay and the service cannot read two different ids from one body.

/** Thrown by {@link parseStrictJson}; the message names the problem, never the input. */
export class StrictJsonError extends Error {
  override readonly name = "StrictJsonError";
}

const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: unescaped control characters end a valid string
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

/**
 * Parses JSON text like `JSON.parse`, and refuses duplicate object keys, nesting deeper than
 * 64 levels, and a leading byte order mark.
 *
 * @throws {StrictJsonError} when the text is not such JSON.
 * @example parseStrictJson('{"a":1,"a":2}') // throws: duplicate key
 */
export function parseStrictJson(text: string): unknown {
  let at = 0;

  const fail = (reason: string): never => {
    throw new StrictJsonError(`${reason} at offset ${at}`);
  };
  const skipSpace = () => {
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      at++;
    }
  };
  const readString = (): string => {
    STRING_BODY.lastIndex = at + 1;
    if (!STRING_BODY.test(text)) fail("bad string");
    const literal = text.slice(at, STRING_BODY.lastIndex);
    at = STRING_BODY.lastIndex;
    return JSON.parse(literal) as string;
  };
  const readValue = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail("too deeply nested");
    skipSpace();
    const c = text[at];
    if (c === "{") {
      at++;
      const object: Record<string, unknown> = Object.create(null);
      const keys = new Set<string>();
      skipSpace();
      if (text[at] === "}") {
        at++;
        return object;
      }
      for (;;) {
        skipSpace();
        if (text[at] !== '"') fail("expected a key");
        const key = readString();
        if (keys.has(key)) fail("duplicate key");
        keys.add(key);
        skipSpace();
        if (text[at] !== ":") fail("expected :");
        at++;
        object[key] = readValue(depth + 1);
        skipSpace();
        if (text[at] === ",") {
          at++;
          continue;
        }
        if (text[at] === "}") {
          at++;
          return object;
        }
        fail("expected , or }");
      }
    }
    if (c === "[") {
      at++;
      const array: unknown[] = [];
      skipSpace();
      if (text[at] === "]") {
        at++;
        return array;
      }
      for (;;) {
        array.push(readValue(depth + 1));
        skipSpace();
        if (text[at] === ",") {
          at++;
          continue;
        }
        if (text[at] === "]") {
          at++;
          return array;
        }
        fail("expected , or ]");
      }
    }
    if (c === '"') return readString();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (number === null) return fail("unexpected character");
    at = NUMBER.lastIndex;
    return Number(number[0]);
  };

  const value = readValue(0);
  skipSpace();
  if (at !== text.length) fail("trailing characters");
  return value;
}
