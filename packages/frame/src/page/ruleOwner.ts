// The one owner of the pins of organization and enclave user that core's payload reading keeps
// (per owner, as a client's checks share one): every rule of the frame (rules.ts and its rule
// files) checks under it, so that a payload of one route is held to what another route saw.
import type { SignetClient } from "../../../core/src/client.js";

/** The owner every check of the frame passes to core's checks. */
export const owner = {} as SignetClient;
