// What of the service's OpenAPI (the vendored subset) the emulator does not do, one line each.
// test/specCheck.test.ts compares the OpenAPI with the emulator's routes and request schemas:
// every difference it finds must be listed here, every entry here must still be a difference,
// and the README's "Gaps" section must show each `where`.

/** One known difference: where (as the check names it) and why it is left. */
export type SpecGap = { where: string; why: string };

export const SPEC_GAPS: readonly SpecGap[] = [
  {
    where: "DELETE /customers/{customerId}",
    why: "customers are never deleted; a test starts a fresh customer (or resets the emulator)",
  },
  {
    where: "PATCH /internal-accounts/{id}",
    why: "internal account settings are not emulated",
  },
  {
    where: "POST /quotes destination.destinationType=UMA_ADDRESS",
    why: "UMA addresses are not resolved: quotes pay an InternalAccount or ExternalAccount",
  },
  {
    where: "POST /quotes/{quoteId}/execute body",
    why: "execute takes no body: the SCA factor is the quote's `scaFactor` from creation",
  },
  ...[
    "GET /sca/factors",
    "POST /sca/factors",
    "POST /sca/factors/confirm",
    "DELETE /sca/factors/{credentialId}",
    "POST /sca/login/start",
    "POST /sca/login/complete",
    "POST /sca/record-event",
  ].map((where) => ({
    where,
    why: "the SCA factor enrolment and login are not emulated; `SCA_SESSION_REQUIRED` comes from a fault (see SCA)",
  })),
  ...[
    "POST /customers/{customerId}/verify-email",
    "POST /customers/{customerId}/verify-email/confirm",
    "POST /customers/{customerId}/verify-phone",
    "POST /customers/{customerId}/verify-phone/confirm",
  ].map((where) => ({ where, why: "contact verification is not emulated" })),
];
