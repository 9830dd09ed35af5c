// docs/protocol.md §9: the proof that answers a Strong Customer Authentication challenge, for a
// quote's authorization and for the SCA login alike: a code the customer typed, or a passkey
// assertion made from the service's opaque WebAuthn options and sent with its origin.

import type { SignetClient } from "../client.js";
import { base64UrlDecode, utf8Decode } from "../crypto/encoding.js";
import { assertArgument, SignetError } from "../errors.js";
import type { EventSink } from "../events.js";
import { payloadMismatch } from "../transport/payloadCheck.js";
import { toWebAuthnError } from "../webauthn/errors.js";
import type { AuthenticationOptionsJSON } from "../webauthn/types.js";
import type { ScaChallengeJson } from "../wire.js";

/** How to answer one challenge: the code the customer typed, or a passkey ceremony. */
export type ScaProof = { code: string } | { passkey: true };

/** What `onChallenge` learns besides the challenge itself. */
export type ScaChallengeContext = {
  /** 1 for the payment's first challenge, 2 for the next (a cross-currency send has two). */
  step: number;
  /**
   * Set when the previous answer to this same challenge was refused (400: a wrong or lapsed
   * code, a passkey assertion the service did not accept): show it and ask again.
   */
  error?: SignetError | undefined;
  /**
   * True when the challenge is the customer's SCA login (the service asked for one with
   * `SCA_SESSION_REQUIRED`, or `scaLogin` was called): its `purpose` is `"SCA_LOGIN"`.
   */
  login?: boolean | undefined;
  /** Sends the SMS code of this challenge again (`SMS_OTP` only). */
  resend: () => Promise<void>;
};

/**
 * How many refused answers (400) to one challenge are asked again before the last refusal ends the
 * call: the service limits or locks sooner (429, 423), so this only stops a loop on a 400 that no
 * answer can cure (a field the relay should have set, say) when `onChallenge` answers by itself.
 */
export const MAX_REFUSED_ANSWERS = 5;

/** Where a proof is made, for the payload-refusal event and error. */
export type ScaProofSite = {
  operation: "authorizeQuote" | "scaLogin";
  step: number;
  origin?: string | undefined;
  timeoutMs?: number | undefined;
  onEvent?: EventSink | undefined;
};

/**
 * Reads the service's opaque WebAuthn request options (the OpenAPI types them as any object):
 * the options themselves, or wrapped as the browser API takes them (`{ publicKey: {...} }`).
 *
 * @throws {SignetError} `MALFORMED_RESPONSE` when neither shape carries a challenge.
 */
export function readPasskeyOptions(options: unknown): AuthenticationOptionsJSON {
  const object = (value: unknown): Record<string, unknown> | undefined =>
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  const outer = object(options);
  const inner = object(outer?.publicKey) ?? outer;
  if (typeof inner?.challenge !== "string" || inner.challenge === "") {
    throw new SignetError("MALFORMED_RESPONSE", "The passkey challenge has no WebAuthn options");
  }
  return inner as AuthenticationOptionsJSON;
}

/**
 * The proof fields of an `ScaAuthorization` / `ScaLoginCompleteRequest` body for `proof`: `code`,
 * or `passkeyAssertion` with `origin` after the passkey ceremony.
 */
export async function scaProofFields(
  client: SignetClient,
  challenge: Pick<ScaChallengeJson, "factor" | "passkeyAssertionOptions">,
  proof: ScaProof,
  site: ScaProofSite,
): Promise<Record<string, unknown>> {
  const given = proof as Partial<{ code: unknown; passkey: unknown }> | undefined;
  if (challenge.factor === "PASSKEY") {
    assertArgument(given?.passkey === true, "onChallenge", "{ passkey: true }", "another proof");
    const options = readPasskeyOptions(challenge.passkeyAssertionOptions);
    // docs/protocol.md §11: the customer's passkey signs nothing shaped like a wallet sign-in
    // challenge (the UTF-8 bytes of 64 hex digits, §5): a backend could otherwise pass off the
    // challenge of a session for its own key as a payment's or a login's, and have the tap
    // authorise it.
    if (isWalletSessionChallenge(options.challenge)) {
      const field = "passkeyAssertionOptions.challenge";
      client.emit(
        {
          type: "payload",
          action: "refused",
          operation: site.operation,
          signature: site.step,
          field,
        },
        site.onEvent,
      );
      throw payloadMismatch(
        { operation: site.operation, signature: site.step },
        field,
        "has the shape of a wallet sign-in challenge",
      );
    }
    // The service's options go to the authenticator as they are; only a missing timeout is added.
    const assertion = await client
      .webauthn()
      .authenticate({ timeout: site.timeoutMs ?? 60_000, ...options })
      .catch((error: unknown) => {
        throw toWebAuthnError(error);
      });
    const origin = site.origin ?? originOf(assertion.response.clientDataJSON);
    assertArgument(typeof origin === "string" && origin !== "", "origin", "a string", "none");
    return { passkeyAssertion: assertion, origin };
  }
  const code = given?.code;
  // The code itself is never echoed in an error.
  assertArgument(
    typeof code === "string" && /^\S{1,64}$/.test(code.trim()),
    "onChallenge",
    "{ code } with the code the customer received",
    "something else",
  );
  return { code: code.trim() };
}

/** Whether a WebAuthn challenge is the UTF-8 bytes of 64 hex digits (a wallet session's, §5). */
function isWalletSessionChallenge(challenge: string): boolean {
  try {
    return /^[0-9a-f]{64}$/i.test(utf8Decode(base64UrlDecode(challenge)));
  } catch {
    return false;
  }
}

/** The origin the authenticator signed over (WebAuthn §5.8.1 `CollectedClientData.origin`). */
export function originOf(clientDataJSON: string): unknown {
  try {
    return JSON.parse(utf8Decode(base64UrlDecode(clientDataJSON))).origin;
  } catch {
    return undefined;
  }
}
