// docs/protocol.md §5 (passkeys): registration and assertion checks through @simplewebauthn/server.
import { verifyAuthenticationResponse, verifyRegistrationResponse } from "@simplewebauthn/server";
import { base64urlEncode } from "../crypto/index.js";
import { invalidInput, ServiceError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";

/** The attestation fields of a PASSKEY add (base64url values). */
export type AttestationJson = {
  credentialId: string;
  clientDataJson: string;
  attestationObject: string;
  transports?: string[];
};

/** The assertion fields of a PASSKEY verify (base64url values). */
export type AssertionJson = {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
};

/** A verified registration: what the emulator stores for later assertions. */
export type RegisteredPasskey = {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports?: string[];
};

function reason(error: unknown): string {
  return error instanceof Error ? error.message : "verification failed";
}

/**
 * Verifies a registration against the top-level `challenge`, the configured origins and RP ID,
 * with user verification required and ES256 only. 400 `INVALID_INPUT` on any failure.
 */
export async function verifyPasskeyRegistration(
  rt: Runtime,
  challenge: string,
  attestation: AttestationJson,
): Promise<RegisteredPasskey> {
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await verifyRegistrationResponse({
      response: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          clientDataJSON: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          ...(attestation.transports ? { transports: attestation.transports } : {}),
        },
      },
      expectedChallenge: challenge,
      expectedOrigin: rt.options.origins,
      expectedRPID: rt.options.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: [-7],
    });
  } catch (error) {
    throw invalidInput(
      [{ field: "attestation", message: reason(error) }],
      "The passkey attestation is not valid.",
    );
  }
  if (!result.verified) {
    throw invalidInput([{ field: "attestation", message: "could not be verified" }]);
  }
  const credential = result.registrationInfo.credential;
  if (credential.id !== attestation.credentialId) {
    throw invalidInput([
      {
        field: "attestation.credentialId",
        message: "does not match the credential in attestationObject",
      },
    ]);
  }
  const out: RegisteredPasskey = {
    credentialId: credential.id,
    publicKey: Uint8Array.from(credential.publicKey),
    counter: credential.counter,
  };
  if (attestation.transports) out.transports = [...attestation.transports];
  return out;
}

/**
 * Verifies an assertion whose challenge is the UTF-8 bytes of the 64-hex `challengeHex`.
 * 401 `UNAUTHORIZED` with `details.reason: "PASSKEY_ASSERTION_INVALID"` on failure.
 * @returns the authenticator's new signature counter.
 */
export async function verifyPasskeyAssertion(
  rt: Runtime,
  challengeHex: string,
  stored: RegisteredPasskey,
  assertion: AssertionJson,
): Promise<number> {
  const refuse = (detail: string) =>
    new ServiceError(401, "UNAUTHORIZED", "The passkey assertion is not valid.", {
      reason: "PASSKEY_ASSERTION_INVALID",
      detail,
    });
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response: {
        id: assertion.credentialId,
        rawId: assertion.credentialId,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          clientDataJSON: assertion.clientDataJson,
          authenticatorData: assertion.authenticatorData,
          signature: assertion.signature,
          ...(assertion.userHandle !== undefined ? { userHandle: assertion.userHandle } : {}),
        },
      },
      expectedChallenge: base64urlEncode(challengeHex),
      expectedOrigin: rt.options.origins,
      expectedRPID: rt.options.rpId,
      credential: {
        id: stored.credentialId,
        publicKey: Uint8Array.from(stored.publicKey),
        counter: stored.counter,
        ...(stored.transports ? { transports: stored.transports } : {}),
      },
      requireUserVerification: true,
    });
  } catch (error) {
    throw refuse(reason(error));
  }
  if (!result.verified) throw refuse("signature did not verify");
  return result.authenticationInfo.newCounter;
}

/** A WebAuthn assertion in its standard JSON form (WebAuthn Level 3 `toJSON()`), as SCA sends it. */
export type AssertionResponseJson = {
  id: string;
  rawId: string;
  type: "public-key";
  response: {
    clientDataJSON: string;
    authenticatorData: string;
    signature: string;
    userHandle?: string | null;
  };
  clientExtensionResults?: Record<string, unknown>;
  authenticatorAttachment?: string | null;
};

/** A WebAuthn registration in its standard JSON form (`RegistrationResponseJSON`), as SCA enrolment sends it. */
export type RegistrationResponseJson = {
  id: string;
  rawId: string;
  type: "public-key";
  response: {
    clientDataJSON: string;
    attestationObject: string;
    transports?: string[];
  };
  clientExtensionResults?: Record<string, unknown>;
  authenticatorAttachment?: string | null;
};

/**
 * Verifies an SCA passkey registration (docs/protocol.md §13): over the enrolment's base64url
 * `challenge`, on `origin` (one of the emulator's origins), user verification required, ES256.
 * @returns the passkey to store, or why it was refused (for a 400).
 */
export async function verifyScaPasskeyRegistration(
  rt: Runtime,
  parameters: { credential: RegistrationResponseJson; challenge: string; origin: string },
): Promise<RegisteredPasskey | string> {
  const { credential, origin } = parameters;
  if (!rt.options.origins.includes(origin)) return "origin is not an origin of this relying party";
  try {
    const result = await verifyRegistrationResponse({
      response: {
        ...credential,
        clientExtensionResults: credential.clientExtensionResults ?? {},
      } as Parameters<typeof verifyRegistrationResponse>[0]["response"],
      expectedChallenge: parameters.challenge,
      expectedOrigin: origin,
      expectedRPID: rt.options.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: [-7],
    });
    if (!result.verified) return "the registration could not be verified";
    const registered = result.registrationInfo.credential;
    if (registered.id !== credential.id)
      return "id does not match the credential in attestationObject";
    const out: RegisteredPasskey = {
      credentialId: registered.id,
      publicKey: Uint8Array.from(registered.publicKey),
      counter: registered.counter,
    };
    const transports = credential.response?.transports;
    if (Array.isArray(transports)) out.transports = [...transports];
    return out;
  } catch (error) {
    return reason(error);
  }
}

/**
 * Verifies an SCA passkey assertion (docs/protocol.md §9, §13): over the base64url `challenge`,
 * made by the customer's SCA passkey (`passkey`; their wallet sign-in passkeys do not count), on
 * `origin`, which must be one of the emulator's origins. Updates the passkey's counter when it
 * verifies.
 * @returns `undefined` when it verifies, else why not (for a 400).
 */
export async function verifyScaPasskeyAssertion(
  rt: Runtime,
  parameters: {
    assertion: AssertionResponseJson;
    challenge: string;
    origin: string;
    passkey: RegisteredPasskey | undefined;
  },
): Promise<string | undefined> {
  const { assertion, origin, passkey: stored } = parameters;
  if (!rt.options.origins.includes(origin)) return "origin is not an origin of this relying party";
  const id = typeof assertion?.id === "string" ? assertion.id : undefined;
  if (!stored || id !== stored.credentialId) {
    return "the passkey is not the customer's SCA passkey";
  }
  try {
    const result = await verifyAuthenticationResponse({
      response: {
        ...assertion,
        clientExtensionResults: assertion.clientExtensionResults ?? {},
        response: {
          ...assertion.response,
          userHandle: assertion.response?.userHandle ?? undefined,
        },
      } as Parameters<typeof verifyAuthenticationResponse>[0]["response"],
      expectedChallenge: parameters.challenge,
      expectedOrigin: origin,
      expectedRPID: rt.options.rpId,
      credential: {
        id: stored.credentialId,
        publicKey: Uint8Array.from(stored.publicKey),
        counter: stored.counter,
      },
      requireUserVerification: true,
    });
    if (!result.verified) return "the signature did not verify";
    stored.counter = result.authenticationInfo.newCounter;
    return undefined;
  } catch (error) {
    return reason(error);
  }
}
