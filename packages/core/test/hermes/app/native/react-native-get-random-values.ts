// Stands in for `react-native-get-random-values` in the Metro bundle (see ../../metro.ts): like
// the real module, importing it installs `crypto.getRandomValues` (here over bytes Node drew from
// its CSPRNG). With no bytes given it installs nothing: an app that forgot the import.
import { input, pool } from "../input.js";

const global = globalThis as { crypto?: { getRandomValues?: unknown } };
if (input.randomHex !== "") {
  const next = pool(input.randomHex);
  const getRandomValues = <T extends ArrayBufferView>(array: T): T => {
    if (!(array instanceof Uint8Array))
      throw new TypeError("Expected a Uint8Array in this stand-in");
    if (array.byteLength > 65536) throw new Error("getRandomValues: more than 65536 bytes");
    array.set(next(array.length));
    return array;
  };
  global.crypto = { ...(global.crypto ?? {}), getRandomValues };
}
