// The members of the optional native peer dependencies that the adapters in this folder use, as
// each library documents them. Declared here so that the package builds without them installed;
// the emitted declarations of the adapters use Signet's own types only.
declare module "expo-secure-store" {
  export const WHEN_UNLOCKED_THIS_DEVICE_ONLY: number;
  export const WHEN_PASSCODE_SET_THIS_DEVICE_ONLY: number;
  export function getItemAsync(key: string, options?: object): Promise<string | null>;
  export function setItemAsync(key: string, value: string, options?: object): Promise<void>;
  export function deleteItemAsync(key: string, options?: object): Promise<void>;
}

declare module "react-native-keychain" {
  export const ACCESSIBLE: {
    readonly WHEN_UNLOCKED_THIS_DEVICE_ONLY: string;
    readonly WHEN_PASSCODE_SET_THIS_DEVICE_ONLY: string;
  };
  export function setGenericPassword(
    username: string,
    password: string,
    options?: object,
  ): Promise<false | { service: string; storage: string }>;
  export function getGenericPassword(
    options?: object,
  ): Promise<false | { username: string; password: string; service: string; storage: string }>;
  export function resetGenericPassword(options?: object): Promise<boolean>;
}

declare module "react-native-passkeys" {
  export function isSupported(): boolean;
  export function create(request: object): Promise<object | null>;
  export function get(request: object): Promise<object | null>;
}

declare module "react-native" {
  export const Platform: { readonly OS: string };
  export const Settings: {
    get(key: string): unknown;
    set(settings: Record<string, unknown>): void;
  };
}
