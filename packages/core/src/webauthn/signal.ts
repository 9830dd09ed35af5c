// WebAuthn Level 3 §5.1.10, the Signal API: tells the browser's passkey manager what the service
// knows, so it stops offering passkeys that can no longer sign in. Best effort: where the browser
// lacks it (or outside browsers) nothing happens, and nothing here ever fails a flow.

/** `PublicKeyCredential.signalUnknownCredential` or `.signalAllAcceptedCredentials`. */
export function signalPasskeys(
  kind: "UnknownCredential" | "AllAcceptedCredentials",
  options: { rpId?: string | undefined } & Record<string, unknown>,
): void {
  const pkc = (
    globalThis as unknown as { PublicKeyCredential?: Record<string, (o: unknown) => unknown> }
  ).PublicKeyCredential;
  // The relying party id defaults to the page's host, as in a ceremony.
  Promise.resolve()
    .then(() => pkc?.[`signal${kind}`]?.({ ...options, rpId: options.rpId ?? location.hostname }))
    .catch(() => undefined);
}
