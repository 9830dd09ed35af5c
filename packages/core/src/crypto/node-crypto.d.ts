// The `node:crypto` members that ./node.ts uses, declared here so that Node's global types
// (Buffer, process, …) stay out of the browser and React Native code of this package.
declare module "node:crypto" {
  export class KeyObject {
    private constructor();
    static from(key: CryptoKey): KeyObject;
  }
  /** ECDH over a named curve; ./node.ts uses it only to derive a public key from a scalar. */
  export function createECDH(curve: "prime256v1"): {
    setPrivateKey(key: Uint8Array): void;
    getPublicKey(): Uint8Array;
  };
  export function sign(
    algorithm: string,
    data: Uint8Array,
    key: { key: KeyObject; dsaEncoding: "der" | "ieee-p1363" },
  ): Uint8Array;
}
