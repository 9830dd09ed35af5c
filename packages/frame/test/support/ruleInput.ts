// What the frame's rule tests share: a rule's input with nothing known (each test overrides what
// its case knows), a payload of the service's activity shape, and core's verdict on a payload.
import type { SigningKey } from "../../../core/src/crypto/backend.js";
import { isSignetError } from "../../../core/src/errors/errors.js";
import type { CheckPayload } from "../../../core/src/transport/payloadCheck.js";
import type { RuleInput } from "../../src/page/rules.js";

/** A stand-in session key (only its public halves are read by the rules). */
export const key = {
  publicKey: `02${"ab".repeat(32)}`,
  publicKeyUncompressed: `04${"ab".repeat(64)}`,
};

/** A rule's input for a stored session of `InternalAccount:1`, with `overrides` applied. */
export const input = (overrides: Partial<RuleInput>): RuleInput => ({
  key: key as SigningKey,
  storedAccountId: "InternalAccount:1",
  ids: [],
  body: undefined,
  isFreshKey: () => false,
  isExportKey: () => false,
  isSessionDecryptionKey: () => false,
  payload: "",
  stampedByFreshKey: false,
  registration: () => undefined,
  ...overrides,
});

/** A `payloadToSign` of the activity shape the service's documents show. */
export const activity = (type: string, parameters: Record<string, unknown>) =>
  JSON.stringify({
    type: `ACTIVITY_TYPE_${type}`,
    timestampMs: String(Date.now()),
    organizationId: "org_1",
    parameters,
  });

/** Why core's check refuses `payload` (its field, or the code), or "signed" when it passes. */
export async function verdict(check: CheckPayload, payload: string): Promise<string> {
  try {
    const result = await check(payload, { operation: "test", signature: 1, now: Date.now() });
    return result.known ? "signed" : "unknown";
  } catch (error) {
    if (isSignetError(error, "PAYLOAD_MISMATCH")) return String(error.details?.field);
    if (isSignetError(error)) return error.code;
    throw error;
  }
}
