// The step-up rule (docs/security.md "Step-up"), pure: whether an action needs a new verification,
// from its name, the user's last verification and now. Nothing here reads a client, so a signer
// outside the page (an isolated frame) can hold the very same rule; catalog/stepUpCheck.ts applies it.
/** A resolved step-up policy: the actions it guards and how long a verification lasts. */
export type StepUpPolicy = {
  readonly actions: ReadonlySet<string>;
  readonly maxAgeMs: number;
};

/**
 * Whether `action` needs a new verification under `policy` at `now` (epoch ms, the device's
 * clock), when the user last verified at `verifiedAt` (RFC 3339, or none). A verification counts
 * from its moment until `maxAgeMs` later; none, or one dated after `now` (a clock set back), never
 * counts. No policy, or an action it does not name: never.
 */
export function stepUpRequired(
  policy: StepUpPolicy | undefined,
  action: string,
  verifiedAt: string | undefined,
  now: number,
): boolean {
  if (!policy?.actions.has(action)) return false;
  const age = now - (verifiedAt === undefined ? Number.NaN : Date.parse(verifiedAt));
  return !(age >= 0 && age < policy.maxAgeMs);
}
