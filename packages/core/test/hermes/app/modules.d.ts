// The app-side imports that only the Hermes bundle resolves (to ./native): declared for tsc.
declare module "react-native-get-random-values" {}
declare module "expo-crypto" {
  export function getRandomBytes(length: number): Uint8Array;
}
