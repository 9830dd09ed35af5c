// docs/protocol.md §11: the signed-request engine's only way to a signer. Each payload is read by
// the operation's check first; a refusal is reported and thrown before any key or passkey touches
// the payload, and a payload of a type core does not know is signed only when the app allowed it.
import { defined, type Loose } from "../errors/defined.js";
import { assertArgument, isSignetError, SignetError } from "../errors/errors.js";
import { unlessAborted } from "./abort.js";
import { deliver } from "./deliver.js";
import type { CheckPayload, PayloadEvent } from "./payloadCheck.js";
import { payloadMismatch } from "./payloadVocabulary.js";
import type { SignContext, SignPayload } from "./signedRequestParameters.js";

/** What `checkedSigner` needs from the engine. */
export type CheckedSignerParameters = {
  sign: SignPayload;
  checkPayload: CheckPayload;
  allowUnknownPayloads: boolean;
  operation: string;
  /** The service's time. */
  now: () => number;
  signal?: AbortSignal | undefined;
  onEvent?: ((event: PayloadEvent) => void) | undefined;
};

/**
 * A signer that checks before it signs, counting the payloads of one run (`restart()` when the
 * engine starts the flow over).
 */
export function checkedSigner(parameters: CheckedSignerParameters) {
  const { sign, checkPayload, operation, signal } = parameters;
  assertArgument(
    typeof checkPayload === "function",
    "checkPayload",
    "a function (nothing is signed unchecked)",
    typeof checkPayload,
  );
  let signatures = 0;
  const report = (event: Loose<Omit<PayloadEvent, "type" | "operation" | "signature">>) =>
    deliver(
      defined({ type: "payload", operation, signature: signatures, ...event }) as PayloadEvent,
      parameters.onEvent,
    );
  return {
    restart() {
      signatures = 0;
    },
    /** Checks `payloadToSign` against the operation, then stamps it. */
    async stamp(payloadToSign: string, context: SignContext, expiresAtMs?: number) {
      signatures += 1;
      const checkContext = {
        operation,
        signature: signatures,
        expiresAtMs,
        now: parameters.now(),
        type: context.type,
      };
      try {
        const verdict = await checkPayload(payloadToSign, checkContext);
        if (!verdict.known) {
          if (!parameters.allowUnknownPayloads) {
            throw payloadMismatch(
              checkContext,
              "type",
              "is an activity this version does not know",
              {
                activityType: verdict.activityType,
              },
            );
          }
          report({ action: "signedUnknown", activityType: verdict.activityType });
        }
      } catch (error) {
        if (isSignetError(error, "PAYLOAD_MISMATCH")) {
          report({
            action: "refused",
            field: error.details?.field as string | undefined,
            activityType: error.details?.activityType as string | undefined,
          });
        }
        throw error;
      }
      return callSigner(sign, payloadToSign, context, signal);
    },
  };
}

// Header values cannot hold control characters; a stamp with one would be a signer bug.
const HEADER_VALUE_PATTERN = /^[\x21-\x7e]+$/;

/**
 * Calls the signer, rejecting with `ABORTED` as soon as `signal` fires.
 * @throws {SignetError} `INVALID_ARGUMENT` when it returns anything but a header-safe string.
 */
export async function callSigner(
  sign: SignPayload,
  payloadToSign: string,
  context: SignContext,
  signal: AbortSignal | undefined,
): Promise<string> {
  const value = await unlessAborted(() => sign(payloadToSign, context), signal);
  if (typeof value !== "string" || !HEADER_VALUE_PATTERN.test(value)) {
    throw new SignetError(
      "INVALID_ARGUMENT",
      `"sign" expected to return a non-empty header-safe string, got ${typeof value}`,
    );
  }
  return value;
}
