// Payloads to sign in the service's activity shape (docs/protocol.md §11), written here by hand
// from the service's published 202 examples, so that core's checks are never tested only against
// the emulator's own builder (packages/emulator/src/payloads.ts).

/** `{ organizationId, parameters, timestampMs, type }` as the service's examples write it. */
export function activityPayload(
  type: string,
  parameters: Record<string, unknown>,
  options: { organizationId?: string; timestampMs?: number } = {},
): string {
  return `${JSON.stringify({
    organizationId: options.organizationId ?? "org_2m9F-test",
    parameters,
    timestampMs: String(options.timestampMs ?? Date.now()),
    type,
  })}\n`;
}

/** The refresh payload a service writes for a refresh request's body. */
export function refreshPayloadFor(body: unknown, timestampMs?: number): string {
  const { clientPublicKey } = JSON.parse(String(body)) as { clientPublicKey: string };
  return activityPayload(
    "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
    { targetPublicKey: clientPublicKey },
    timestampMs === undefined ? {} : { timestampMs },
  );
}
