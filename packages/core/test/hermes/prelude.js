// Runs in Hermes before the bundle, in place of what a React Native app installs: Hermes has
// `print` but no TextEncoder/TextDecoder (React Native's newer Hermes has TextEncoder only) and no
// `crypto.getRandomValues` (apps add react-native-get-random-values). No dependencies, and only
// syntax the Hermes of hermes-engine-cli 0.12 parses (this file skips Babel).
// `__SIGNET_HERMES_INPUT__` (defined just before this file) carries `randomHex`: bytes generated
// by Node's CSPRNG; they are handed out once each and running out throws. In mode `injected` no
// `crypto` global is installed at all.
((global) => {
  const input = global.__SIGNET_HERMES_INPUT__;
  const usage = { textEncoder: 0, textDecoder: 0, getRandomValues: 0, randomBytes: 0 };
  global.__SIGNET_SHIM_USAGE__ = usage;

  const utf8Encode = (text) => {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else
        out.push(
          0xf0 | (c >> 18),
          0x80 | ((c >> 12) & 63),
          0x80 | ((c >> 6) & 63),
          0x80 | (c & 63),
        );
    }
    return new Uint8Array(out);
  };

  // Lenient like WHATWG's decoder (malformed sequences become U+FFFD); enough for a shim.
  const utf8Decode = (bytes) => {
    let out = "";
    let i = 0;
    const more = () => bytes[i++] & 63;
    while (i < bytes.length) {
      const b = bytes[i++];
      let c = 0xfffd;
      if (b < 0x80) c = b;
      else if (b >= 0xc2 && b < 0xe0) c = ((b & 31) << 6) | more();
      else if (b >= 0xe0 && b < 0xf0) c = ((b & 15) << 12) | (more() << 6) | more();
      else if (b >= 0xf0 && b < 0xf5) c = ((b & 7) << 18) | (more() << 12) | (more() << 6) | more();
      if (c >= 0x10000) {
        c -= 0x10000;
        out += String.fromCharCode(0xd800 + (c >> 10), 0xdc00 + (c & 1023));
      } else out += String.fromCharCode(c);
    }
    return out;
  };

  function TextEncoder() {}
  TextEncoder.prototype.encoding = "utf-8";
  TextEncoder.prototype.encode = (text) => {
    usage.textEncoder++;
    return utf8Encode(text === undefined ? "" : String(text));
  };
  function TextDecoder() {}
  TextDecoder.prototype.encoding = "utf-8";
  TextDecoder.prototype.decode = (bytes) => {
    usage.textDecoder++;
    if (bytes === undefined) return "";
    const view = ArrayBuffer.isView(bytes)
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : new Uint8Array(bytes);
    return utf8Decode(view);
  };
  global.TextEncoder = TextEncoder;
  global.TextDecoder = TextDecoder;

  const pool = input.randomHex;
  let offset = 0;
  const getRandomValues = (array) => {
    usage.getRandomValues++;
    if (
      !ArrayBuffer.isView(array) ||
      array instanceof DataView ||
      array instanceof Float32Array ||
      array instanceof Float64Array
    ) {
      throw new TypeError("getRandomValues: expected an integer TypedArray");
    }
    if (array.byteLength > 65536) throw new RangeError("getRandomValues: more than 65536 bytes");
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    if (offset + bytes.length * 2 > pool.length) {
      throw new Error("getRandomValues: the embedded random pool ran out");
    }
    for (let i = 0; i < bytes.length; i++, offset += 2)
      bytes[i] = parseInt(pool.substr(offset, 2), 16);
    usage.randomBytes += bytes.length;
    return array;
  };
  if (input.mode === "default") global.crypto = { getRandomValues };

  // console is collected, not printed: the test expects core to stay quiet.
  const logged = [];
  global.__SIGNET_CONSOLE__ = logged;
  const logger =
    (level) =>
    (...parts) => {
      logged.push({ level, message: parts.map(String).join(" ") });
    };
  global.console = {
    log: logger("log"),
    info: logger("info"),
    warn: logger("warn"),
    error: logger("error"),
    debug: logger("debug"),
  };
})(globalThis);
