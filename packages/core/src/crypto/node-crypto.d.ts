// The two `node:crypto` members that ./node.ts uses, declared here so that Node's global types
// (Buffer, process, …) stay out of the browser and React Native code of this package.
declare module "node:crypto" {
  export class KeyObject {
    private constructor();
    static from(key: CryptoKey): KeyObject;
  }
  export function sign(
    algorithm: string,
    data: Uint8Array,
    key: { key: KeyObject; dsaEncoding: "der" | "ieee-p1363" },
  ): Uint8Array;
}
