// docs/protocol.md §9: the proof that answers a Strong Customer Authentication challenge, for a
// quote's authorization and for the SCA login alike: a code the customer typed, or a passkey
// assertion made from the service's opaque WebAuthn options and sent with its origin.

import type { SignetClient } from "../client.js";
import { assertArgument, SignetError } from "../errors/errors.js";
import { readPasskeyOptions } from "../transport/responseShape.js";
import type { ScaChallengeJson } from "../transport/wire.js";
import { toWebAuthnError } from "../webauthn/errors.js";
import { assertScaPasskeys, type ScaProofSite } from "./scaBinding.js";
import { type ConfirmedQuote, originOf } from "./scaLedger.js";

export type { ScaProofSite } from "./scaBinding.js";
export type { ConfirmedQuote } from "./scaLedger.js";

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
  /**
   * The payment this prompt confirms, as the user confirmed it: show its amount and payee beside
   * the prompt, so a tap or code is never given blind. Set for every challenge of `authorizeQuote`
   * and for a login that `authorizeQuote` or `executeQuote` runs for a payment; absent for a
   * login started on its own (`scaLogin`).
   */
  quote?: ConfirmedQuote | undefined;
};

/**
 * How many refused answers (400) to one challenge are asked again before the last refusal ends the
 * call: the service limits or locks sooner (429, 423), so this only stops a loop on a 400 that no
 * answer can cure (a field the relay should have set, say) when `onChallenge` answers by itself.
 */
export const MAX_REFUSED_ANSWERS = 5;

/**
 * The proof fields of an `ScaAuthorization` / `ScaLoginCompleteRequest` body for `proof`: `code`,
 * or `passkeyAssertion` with `origin` after the passkey ceremony.
 */
export async function scaProofFields(
  client: SignetClient,
  challenge: Pick<ScaChallengeJson, "factor" | "passkeyAssertionOptions" | "passkeyAllowedOrigins">,
  proof: ScaProof,
  site: ScaProofSite,
): Promise<Record<string, unknown>> {
  const given = proof as Partial<{ code: unknown; passkey: unknown }> | undefined;
  if (challenge.factor === "PASSKEY") {
    assertArgument(given?.passkey === true, "onChallenge", "{ passkey: true }", "another proof");
    const options = readPasskeyOptions(challenge.passkeyAssertionOptions);
    // docs/protocol.md §11: the options are opaque (any challenge the service makes is taken), but
    // an SCA ceremony is never one of the wallet's sign-in passkeys this device knows: before the
    // tap by the credentials the options name, after it by the one that answered (not sent).
    const named = Array.isArray(options.allowCredentials) ? options.allowCredentials : [];
    const field = site.operation === "scaLogin" ? "passkeyOptions" : "passkeyAssertionOptions";
    assertScaPasskeys(
      client,
      named.map((c) => c?.id),
      site,
      `${field}.allowCredentials`,
    );
    // The service's options go to the authenticator as they are; only a missing timeout is added.
    const assertion = await client
      .webauthn()
      .authenticate({ timeout: site.timeoutMs ?? 60_000, ...options })
      .catch((error: unknown) => {
        throw toWebAuthnError(error);
      });
    assertScaPasskeys(client, [assertion.rawId, assertion.id], site, "passkeyAssertion.id");
    const origin = site.origin ?? originOf(assertion.response.clientDataJSON);
    assertArgument(typeof origin === "string" && origin !== "", "origin", "a string", "none");
    // ScaAuthorization.origin: "When the challenge lists passkeyAllowedOrigins …, it must be one of
    // those" (a login's `allowedOrigins`): never sent for the service to refuse and count.
    const allowed = challenge.passkeyAllowedOrigins;
    if (Array.isArray(allowed) && allowed.length > 0 && !allowed.includes(origin)) {
      throw new SignetError(
        "SCA_ORIGIN_NOT_ALLOWED",
        "The passkey ceremony ran on an origin the challenge does not allow",
        { details: { origin, allowedOrigins: allowed } },
      );
    }
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
