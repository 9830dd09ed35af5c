import { expect, it } from "vitest";
import * as emulator from "../src/index.js";

it("exports exactly the documented entry points", () => {
  expect(Object.keys(emulator).sort()).toEqual([
    "DEFAULT_OIDC_ISSUERS",
    "EmulatorDropError",
    "FAULT_HEADER",
    "REQUEST_ID_HEADER",
    "SIGNATURE_HEADER",
    "VERSION_PREFIX",
    "createEmulator",
    "startEmulatorServer",
  ]);
});
