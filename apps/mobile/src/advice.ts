// What to do about an error, in plain words, for the app's screens: no code, enum or service
// wording reaches the screen. Codes the app meets are named; any other gets the general advice.
import type { KnownErrorCode, RelayErrorCode } from "@signet/core";

type Code =
  | KnownErrorCode
  | RelayErrorCode
  | "SIGNED_OUT"
  | "WALLET_SESSION_ENDED"
  | "INVALID_AMOUNT"
  | "INVALID_EMAIL"
  | "INVALID_PHONE"
  | "WRONG_CODE"
  | "TOO_MANY_CODES"
  | "NO_CODE_PENDING"
  | "SERVICE_ERROR";

const NEW_CODE = "Ask for a new code, then enter that one.";
const SIGN_IN_AGAIN = "Sign in to your wallet again.";

const ADVICE: Partial<Record<Code, string>> = {
  INVALID_INPUT: "Check what you typed, then try again.",
  INVALID_AMOUNT: "Type an amount above zero in digits, like 25.00 or 25,00.",
  INVALID_EMAIL: "Type an email address like ada@example.com.",
  INVALID_PHONE: "Type the number with its country code, like +14155550123.",
  UNAUTHORIZED: `That code was not accepted. Type it again, or ${NEW_CODE.toLowerCase()}`,
  WRONG_CODE: `That code is not the one we sent. Type it again, or ${NEW_CODE.toLowerCase()}`,
  TOO_MANY_CODES: NEW_CODE,
  NO_CODE_PENDING: NEW_CODE,
  CHALLENGE_EXPIRED: `The time for this step ran out. ${NEW_CODE}`,
  CHALLENGE_INVALID: `That step is not valid any more. ${NEW_CODE}`,
  RATE_LIMITED: "Too many tries in a short time. Wait a minute, then try again.",
  ACCOUNT_LOCKED: "Too many wrong answers: confirmations are paused. Wait 15 minutes.",
  NO_SESSION: SIGN_IN_AGAIN,
  SESSION_EXPIRED: SIGN_IN_AGAIN,
  WALLET_SESSION_ENDED: SIGN_IN_AGAIN,
  SIGNED_OUT: "Sign in to the demo again with your email.",
  RELAY_UNAUTHENTICATED: "Sign in to the demo again with your email.",
  WEBAUTHN_CANCELLED: "The passkey prompt was closed. Try again and confirm on your phone.",
  WEBAUTHN_TIMEOUT: "The passkey prompt timed out. Try again and confirm on your phone.",
  WEBAUTHN_UNSUPPORTED: "This phone cannot use passkeys here. Use a code instead.",
  INSUFFICIENT_FUNDS: "The wallet has too little money. Add test funds, then get a new quote.",
  QUOTE_EXPIRED: "The quote ran out before it was sent; nothing was sent. Get a new quote.",
  PAYLOAD_MISMATCH:
    "This phone refused to sign: what the server asked it to sign is not what you asked for. Nothing was signed or sent.",
  NETWORK: "The demo server did not answer. Check it is running and this phone can reach it.",
  TIMEOUT: "The server took too long. Try again.",
  SERVICE_ERROR: "The wallet service could not do this now. Try again in a moment.",
  CONFLICT: "This payment has nothing waiting for you any more. Check Activity.",
};

const GENERAL = "Try again in a moment. If it keeps failing, restart the app.";

/** The advice for a code (the general one for codes the app does not name). */
export const adviceFor = (code: string): string =>
  (ADVICE as Record<string, string>)[code] ?? GENERAL;
