// The one device every stand-in module runs on, with the keychain contents earlier runs left.
import {
  createFakeDevice,
  createFakeKeychain,
  createFakeSecureStore,
} from "../../../react-native/fakes.js";
import { input } from "../input.js";

export const device = createFakeDevice();

export const secureStore = createFakeSecureStore(device);
for (const [id, item] of input.secureStore) secureStore.fake.items.set(id, item as never);

export const keychain = createFakeKeychain(device);
for (const [id, item] of input.keychain) keychain.fake.items.set(id, item as never);
