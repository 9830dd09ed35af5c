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
  /** The public half of a private key; ./node.ts reads it as a JWK to check a restored record. */
  export function createPublicKey(key: KeyObject): {
    export(options: { format: "jwk" }): { x?: string; y?: string };
  };
  export function sign(
    algorithm: string,
    data: Uint8Array,
    key: { key: KeyObject; dsaEncoding: "der" | "ieee-p1363" },
  ): Uint8Array;
}
