// Stands in for `react-native-keychain` in the Metro bundle (see ../../metro.ts).
import { keychain } from "./device.js";

export const {
  ACCESSIBLE,
  SECURITY_LEVEL,
  setGenericPassword,
  getGenericPassword,
  resetGenericPassword,
} = keychain;
