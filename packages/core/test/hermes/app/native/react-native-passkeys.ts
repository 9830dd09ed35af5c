// Stands in for `react-native-passkeys` in the Metro bundle (see ../../metro.ts): the platform
// authenticator's part is an I/O call the Node driver answers with its software authenticator.
import { createFakePasskeys } from "../../../react-native/fakes.js";
import { io } from "../input.js";
import { device } from "./device.js";

const module = createFakePasskeys(
  {
    create: (request) => io("passkey.create", request),
    get: (request) => io("passkey.get", request),
  },
  device,
);

export const { isSupported, create, get } = module;
