// The data the Node side embeds in each Hermes run of the mobile app's journeys (as
// `__SIGNET_HERMES_INPUT__`): the flow harness's input (../app/input.ts: replayed I/O, random
// bytes, what the phone's secure store held), with the scenario and what the customer types.
import type { FlowInput } from "../app/input.js";

export type MobileScenario = "signIn" | "payment";

export type MobileParams = {
  /** Typed on the sign-in screen (the region as a customer may type it: "de"). */
  email: string;
  region: string;
  /** The email code, as typed (the emulator's is public: 000000). */
  otpCode: string;
  /** The payment as typed on the Pay screen ("5,00": a decimal comma). */
  amount: string;
  /** The SMS code for each SCA challenge (the sandbox's is public: 123456). */
  scaCode: string;
};

export type MobileInput = Omit<FlowInput, "scenario" | "params"> & {
  scenario: MobileScenario;
  params: MobileParams;
};
