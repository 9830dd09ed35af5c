import { requestOtp, type SignetClient, verifyOtp } from "@signet/core";

/** Email OTP sign-in with the emulator's code. */
export async function signInWithEmail(client: SignetClient, credentialId: string) {
  const otp = await requestOtp(client, { credentialId });
  return verifyOtp(client, { ...otp, otpCode: "000000" });
}

/** A backend-issued registration challenge (what the app's backend would mint). */
export function registrationChallenge(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

export const passkeyUser = (name: string) => ({
  id: Buffer.from(name).toString("base64url"),
  name,
  displayName: name,
});
