// docs/protocol.md §11 and README "Security notes": before a session key, a TEK or a passkey signs a
// `payloadToSign`, the operation's check reads it and finds the device's own request in it. The check
// reads a parsed copy only; the stamp covers the string exactly as received (never re-serialised).
// What each operation expects is written next to its action, as data; this file holds the builders
// (loading ./payloadRead.ts, a chunk, for the reading and the pinning) and passes on the checks'
// shared types from ./payloadVocabulary.ts and the payload's parsing from ./payloadParse.ts, which
// both stand on.
import { loadChunk } from "../crypto/chunk.js";
import type {
  ActivityExpectation,
  CheckPayload,
  PayloadCheckContext,
} from "./payloadVocabulary.js";

export { readActivity, readTransaction } from "./payloadParse.js";
// The vocabulary's types only: the refusal and the expectations' helpers are imported from
// ./payloadVocabulary.ts where they are used (chunks), so this module, which the page loads,
// does not bring them along.
export type {
  ActivityExpectation,
  CheckPayload,
  Expected,
  PayloadCheckContext,
  PayloadEvent,
  PayloadFault,
  PayloadVerdict,
} from "./payloadVocabulary.js";

/** Loads the reading; `preloadPayloadChecks` starts it early. */
const reader = () => loadChunk(() => import("./payloadRead.js"));

/** Starts loading the checks' chunk, so no payload waits for it (a failure is retried on use). */
export function preloadPayloadChecks(): void {
  import("./payloadRead.js").catch(() => undefined);
}

/**
 * A check for Turnkey-style activity JSON `{ organizationId, parameters, timestampMs, type }`: one
 * expectation per signed payload of the call (delegated keys sign two), or a function of the
 * context choosing them. It refuses a known activity of another type, a field that is not what
 * the device asked for, an array of another length, an id or key of the device's own kind that is
 * not the device's, and an organization, enclave user, exported wallet or signing identifier
 * other than the one this client saw for the account before (pinned once a payload passes, per
 * client; `signWith` per the expectation's `signer` kind). It answers "unknown" for a payload that
 * is no activity core knows. Nothing is judged by `timestampMs`: the service's documents relate it
 * to nothing (docs/protocol.md §11).
 *
 * @example
 * ```ts
 * checkPayload: expectActivity(client, accountId, [
 *   { types: ["ACTIVITY_TYPE_EXPORT_WALLET"], equals: { targetPublicKey: hexValue(key) } },
 * ]),
 * ```
 */
export function expectActivity(
  owner: object,
  accountId: string,
  expected:
    | readonly ActivityExpectation[]
    | ((context: PayloadCheckContext) => readonly ActivityExpectation[]),
): CheckPayload {
  return async (payloadToSign, context) =>
    (await reader()).checkActivity(
      owner,
      accountId,
      typeof expected === "function" ? expected(context) : expected,
      payloadToSign,
      context,
    );
}

/**
 * The check of OTP verify, whose payload is the service's verification token (a compact ES256
 * JWT). The device key travels inside the HPKE-sealed OTP bundle, which no backend can open or
 * re-seal; what the device can still check is that it signs a verification token, not an
 * activity, that the token is alive, and, where the token names a public key, that it is the TEK.
 */
export function expectVerificationToken(tekPublicKeys: readonly string[]): CheckPayload {
  return async (payloadToSign, context) =>
    (await reader()).checkVerificationToken(tekPublicKeys, payloadToSign, context);
}
