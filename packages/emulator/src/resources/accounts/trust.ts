// docs/protocol.md §9 (trusted beneficiaries): an SCA customer trusts an external account so that
// sends to it "skip the per-transaction SCA ceremony", and untrusts it so that they "require the
// per-transaction SCA ceremony again". Each change starts (`POST …/trust`, `…/untrust` →
// `BeneficiaryTrustStart` with its `scaChallenge`) and is confirmed with the SCA proof
// (`…/confirm` → `BeneficiaryTrustConfirm`). The emulator issues an SMS_OTP challenge (the
// ScaChallenge's default factor) and takes its sandbox code, or a code of the customer's TOTP
// app when one is enrolled; with `trustChallengeFactor: "PASSKEY"`, a customer with an SCA passkey
// gets a PASSKEY challenge instead, confirmed by an assertion of that passkey (the OpenAPI names no
// way for the start to choose). The OpenAPI names no lock for these routes, so a refused proof is
// a 400 that counts toward none. A new start replaces the change in progress. An external account
// trusted now cannot be deleted (409 `BENEFICIARY_TRUSTED`, external.ts).
import { type AssertionResponseJson, verifyScaPasskeyAssertion } from "../../auth/passkeys.js";
import { base64urlEncode } from "../../crypto/index.js";
import { type RequestContext, readBody } from "../../http/context.js";
import { invalidInput, notFound, ServiceError } from "../../http/errors.js";
import { json } from "../../http/responses.js";
import type { Route } from "../../http/router.js";
import type { ExternalAccountRecord, ScaChallengeRecord, ScaFactor } from "../../state.js";
import { type Infer, nullable, object, optional, string } from "../../validation.js";
import { requiresSca, SCA_SMS_CODE, scaChallengeJson } from "../sca.js";
import { isTotpCode } from "../scaLogin.js";

/** The customer's external account in the path: 404 for none or the platform's own. */
function beneficiaryOf(ctx: RequestContext): ExternalAccountRecord & { customerId: string } {
  const id = ctx.params.externalAccountId ?? "";
  const account = ctx.rt.state.externalAccounts.get(id);
  if (!account || account.customerId === undefined)
    throw notFound("ExternalAccount", id.slice(0, 100));
  if (!requiresSca(ctx.rt, account.customerId)) {
    throw new ServiceError(409, "CONFLICT", "SCA is not required for this customer.");
  }
  return account as ExternalAccountRecord & { customerId: string };
}

/** `POST …/{externalAccountId}/trust` or `/untrust` → 200 `BeneficiaryTrustStart`. */
function startChange(trusted: boolean) {
  return (ctx: RequestContext): Response => {
    const { rt } = ctx;
    const account = beneficiaryOf(ctx);
    const factors = rt.state.scaFactors.get(account.customerId);
    const availableFactors: ScaFactor[] = ["SMS_OTP"];
    if (factors?.totp) availableFactors.push("TOTP");
    if (factors?.passkey) availableFactors.push("PASSKEY");
    const passkey = rt.options.trustChallengeFactor === "PASSKEY" ? factors?.passkey : undefined;
    const challenge: ScaChallengeRecord = {
      id: rt.ids.next("ScaChallenge"),
      factor: passkey ? "PASSKEY" : "SMS_OTP",
      availableFactors,
      purpose: undefined,
      expiresAt: ctx.now() + rt.options.challengeTtlMs,
      resends: [],
      failures: 0,
      ...(passkey
        ? {
            passkey: {
              challenge: base64urlEncode(rt.ids.entropy("sca-passkey-challenge", 32)),
              credentialIds: [passkey.credentialId],
            },
          }
        : {}),
    };
    account.trustChange = { trusted, challenge };
    return json(200, { scaChallenge: scaChallengeJson(rt, challenge) });
  };
}

const confirmSchema = object({
  challengeId: optional(nullable(string({ minLength: 1, maxLength: 100 }))),
  code: optional(nullable(string({ minLength: 1, maxLength: 64 }))),
  passkeyAssertion: optional(nullable(object({}, { open: true }))),
  origin: optional(nullable(string({ minLength: 1, maxLength: 2048 }))),
});

/**
 * `POST …/trust/confirm` or `/untrust/confirm` (`BeneficiaryTrustConfirmRequest`) → 200
 * `BeneficiaryTrustConfirm`. No change of this kind started, a lapsed challenge, another
 * `challengeId`, a passkey proof for the SMS challenge, or a wrong code: 400 "Invalid or expired
 * proof".
 */
function confirmChange(trusted: boolean) {
  return async (ctx: RequestContext): Promise<Response> => {
    const account = beneficiaryOf(ctx);
    const body = readBody(ctx, confirmSchema);
    const change = account.trustChange;
    const refuse = (field: string, message: string) => {
      throw new ServiceError(400, "INVALID_INPUT", "Invalid or expired proof.", {
        errors: [{ field, message }],
      });
    };
    if (!change || change.trusted !== trusted || ctx.now() >= change.challenge.expiresAt) {
      refuse("challengeId", `has no ${trusted ? "trust" : "untrust"} in progress`);
    }
    const { challenge } = change!;
    if (body.challengeId !== challenge.id) refuse("challengeId", "is not the challenge issued");
    const failure = challenge.passkey
      ? await passkeyFailure(ctx, account.customerId, challenge.passkey, body)
      : codeFailure(ctx, account.customerId, body.code ?? undefined);
    if (failure !== undefined) {
      challenge.failures += 1;
      refuse(failure.field, failure.message);
    }
    delete account.trustChange;
    account.trusted = trusted;
    account.updatedAt = ctx.now();
    return json(200, { trusted });
  };
}

type ConfirmBody = Infer<typeof confirmSchema>;

/** Why a code does not satisfy an SMS_OTP challenge (the sandbox code, or the customer's TOTP). */
function codeFailure(ctx: RequestContext, customerId: string, code: string | undefined) {
  if (code === undefined) {
    throw invalidInput([{ field: "code", message: "is required for an SMS_OTP challenge" }]);
  }
  const totp = ctx.rt.state.scaFactors.get(customerId)?.totp;
  const valid =
    code === SCA_SMS_CODE || (totp !== undefined && isTotpCode(ctx.rt, totp.secret, code));
  return valid ? undefined : { field: "code", message: "is not valid" };
}

/** Why an assertion does not satisfy a PASSKEY challenge: by the SCA passkey, on an origin of ours. */
async function passkeyFailure(
  ctx: RequestContext,
  customerId: string,
  issued: NonNullable<ScaChallengeRecord["passkey"]>,
  body: ConfirmBody,
) {
  const assertion = body.passkeyAssertion ?? undefined;
  if (assertion === undefined || !body.origin) {
    throw invalidInput([
      { field: "passkeyAssertion", message: "and origin are required for a PASSKEY challenge" },
    ]);
  }
  const passkey = ctx.rt.state.scaFactors.get(customerId)?.passkey;
  const message = await verifyScaPasskeyAssertion(ctx.rt, {
    assertion: assertion as unknown as AssertionResponseJson,
    challenge: issued.challenge,
    origin: body.origin,
    passkey: passkey && issued.credentialIds.includes(passkey.credentialId) ? passkey : undefined,
  });
  return message === undefined ? undefined : { field: "passkeyAssertion", message };
}

/** Whether a quote's destination is a trusted beneficiary of the paying customer. */
export function isTrustedBeneficiary(
  ctx: RequestContext,
  customerId: string,
  accountId: string,
): boolean {
  const account = ctx.rt.state.externalAccounts.get(accountId);
  return account?.customerId === customerId && account.trusted === true;
}

const path = "/customers/external-accounts/:externalAccountId";

/** Trusted-beneficiary routes. */
export const trustRoutes: Route[] = [
  { method: "POST", pattern: `${path}/trust`, handler: startChange(true) },
  {
    method: "POST",
    pattern: `${path}/trust/confirm`,
    handler: confirmChange(true),
    body: confirmSchema,
  },
  { method: "POST", pattern: `${path}/untrust`, handler: startChange(false) },
  {
    method: "POST",
    pattern: `${path}/untrust/confirm`,
    handler: confirmChange(false),
    body: confirmSchema,
  },
];
