// Stands in for `expo-crypto` in the Metro bundle (see ../../metro.ts): `getRandomBytes(n)`.
import { input, pool } from "../input.js";

export const getRandomBytes: (length: number) => Uint8Array = pool(input.expoRandomHex);
