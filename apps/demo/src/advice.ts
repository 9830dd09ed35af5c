// What to do about every error the demo can meet, in plain words: every code of core, the relay
// and the demo's own server and screens. The table's type lists them all, so a code without
// advice does not compile. Codes never reach the screen; they stay in a data attribute.
import type { KnownErrorCode, RelayErrorCode } from "@signet/core";

/** Codes of the demo server's refusals (apps/demo/server) and of the demo's own checks. */
export type DemoErrorCode =
  | "SIGNED_OUT"
  | "WALLET_SESSION_ENDED"
  | "INVALID_EMAIL"
  | "INVALID_PHONE"
  | "INVALID_CONTACT"
  | "INVALID_REGION"
  | "INVALID_AMOUNT"
  | "INVALID_SCA_FACTOR"
  | "INVALID_SESSION"
  | "INVALID_NONCE"
  | "INVALID_JSON"
  | "NO_SUCH_SESSION"
  | "NO_CODE_PENDING"
  | "TOO_MANY_CODES"
  | "WRONG_CODE"
  | "TOO_LARGE"
  | "JSON_ONLY"
  | "BAD_PATH"
  | "SERVICE_ERROR"
  | "NO_WALLET"
  | "INTERNAL"
  | "SERVER_RESTARTED"
  | "STEP_UP_REQUIRED"
  | "ERROR";

const AGAIN = "Try again in a moment. If it keeps failing, reload the page.";
const NEW_CODE = "Press “Send a new code”, then enter the new one.";
const SIGN_IN_AGAIN = "Sign in to your wallet again on this screen.";
const APP_BUG =
  "This is a fault in the demo, not something you did. Reload the page; if it repeats, restart the demo.";
const SERVICE_REFUSED =
  "The wallet service could not do this now. Try again in a moment; if it repeats, restart the demo.";

export const ADVICE: Record<KnownErrorCode | RelayErrorCode | DemoErrorCode, string> = {
  // What the user typed or chose.
  INVALID_INPUT: "Check what you typed, then try again.",
  INVALID_ARGUMENT: APP_BUG,
  INVALID_AMOUNT: "Type an amount above zero in digits, like 25.00 or 25,00, then get a quote.",
  INVALID_EMAIL: "Type an email address like ada@example.com, then continue.",
  INVALID_PHONE: "Type the number with its country code, like +14155550123.",
  INVALID_CONTACT: "Pick email or phone, type the new one, then send a code.",
  INVALID_REGION: "Pick where you live from the list.",
  INVALID_SCA_FACTOR: "Pick an SMS code or your passkey to confirm payments.",
  // Codes and confirmations.
  UNAUTHORIZED: `That code was not accepted. Check it, or ${NEW_CODE.toLowerCase()}`,
  WRONG_CODE: `That code is not the one we sent. Check it, or ${NEW_CODE.toLowerCase()}`,
  NO_CODE_PENDING: NEW_CODE,
  TOO_MANY_CODES: NEW_CODE,
  CHALLENGE_EXPIRED: `The time for this step ran out. ${NEW_CODE}`,
  CHALLENGE_INVALID: `That step is not valid any more. ${NEW_CODE}`,
  ACCOUNT_LOCKED:
    "Too many wrong answers: your bank paused confirmations for a while. Wait 15 minutes, then try again.",
  SCA_SESSION_REQUIRED:
    "Your bank wants you to confirm it is you before it takes this payment; nothing was sent. Press “Confirm it is you” and answer with your code or passkey: the payment then goes on.",
  SCA_LOGIN_FAILED: "Confirming it is you did not finish. Try again, with a new code if needed.",
  SCA_ORIGIN_NOT_ALLOWED:
    "This page's address is not one your bank accepts passkeys from. Open the demo at http://localhost.",
  PASSKEY_ALREADY_ENROLLED: "A passkey already confirms your payments; nothing to add.",
  // Sessions and sign-in.
  NO_SESSION: SIGN_IN_AGAIN,
  SESSION_EXPIRED: SIGN_IN_AGAIN,
  WALLET_SESSION_ENDED: SIGN_IN_AGAIN,
  KEY_NOT_FOUND: SIGN_IN_AGAIN,
  KEY_INVALID: SIGN_IN_AGAIN,
  KEY_STORAGE_UNAVAILABLE:
    "This browser cannot keep keys (a private window, or storage turned off). Use a normal window, then sign in again.",
  SIGNED_OUT: "Sign in to the demo again with your email below.",
  RELAY_UNAUTHENTICATED: "Sign in to the demo again with your email below.",
  SERVER_RESTARTED: "Sign in again below: the demo server starts a new, empty wallet.",
  STEP_UP_REQUIRED:
    "This needs a recent sign-in, and yours is a few minutes old; nothing was sent. Confirm it is you with a code or your passkey (Export asks for it; elsewhere, sign in again), then try once more.",
  INVALID_SESSION: SIGN_IN_AGAIN,
  NO_SUCH_SESSION: SIGN_IN_AGAIN,
  USER_NOT_FOUND: SIGN_IN_AGAIN,
  USER_NOT_READY: "Your wallet is still being set up. Wait a minute, then try again.",
  CUSTOMER_DELETED:
    "This wallet's customer was deleted. Leave the demo and sign in with another email.",
  FORBIDDEN: "This device may not do that for this wallet. Sign in again, then try once more.",
  RELAY_FORBIDDEN:
    "This device may not do that for this wallet. Sign in again, then try once more.",
  // Passkeys.
  WEBAUTHN_CANCELLED: "The passkey prompt was closed. Try again and confirm on your device.",
  WEBAUTHN_TIMEOUT:
    "The passkey prompt timed out before you confirmed. Try again and confirm on your device.",
  WEBAUTHN_RP_ID_INVALID:
    "This page's address does not match the passkey's site. Open the demo at http://localhost, not 127.0.0.1 or another name.",
  WEBAUTHN_DOMAIN_INVALID:
    "Passkeys need a domain name. Open the demo at http://localhost, not an IP address.",
  WEBAUTHN_INVALID_STATE: "This device already holds a passkey for this wallet.",
  WEBAUTHN_UNSUPPORTED: "This browser cannot use passkeys. Use the email code instead.",
  WEBAUTHN_WRONG_CREDENTIAL: "That passkey belongs to another wallet. Pick this wallet's passkey.",
  WEBAUTHN_SECURITY:
    "The browser refused the passkey for this address. Open the demo at http://localhost.",
  WEBAUTHN_FAILED: "The passkey did not answer. Try again, or use a code instead.",
  PASSKEY_CREDENTIAL_ALREADY_EXISTS: "This passkey is already on the wallet.",
  EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS: "Email codes already sign in to this wallet.",
  SMS_OTP_CREDENTIAL_ALREADY_EXISTS: "SMS codes already sign in to this wallet.",
  EMAIL_OTP_EMAIL_ALREADY_EXISTS: "Another wallet uses that email. Pick another address.",
  EMAIL_OTP_CREDENTIAL_SET_CHANGED:
    "Your sign-in methods changed meanwhile. Reload the page, then try again.",
  EMAIL_OTP_CREDENTIAL_SYNC_FAILED: SERVICE_REFUSED,
  SMS_OTP_PHONE_ALREADY_EXISTS: "Another wallet uses that phone number. Pick another one.",
  SMS_OTP_CREDENTIAL_SET_CHANGED:
    "Your sign-in methods changed meanwhile. Reload the page, then try again.",
  SMS_OTP_CREDENTIAL_SYNC_FAILED: SERVICE_REFUSED,
  CONTACT_CHANGE_PENDING:
    "Another change of this contact is waiting to be signed. Finish or cancel it first.",
  CONTACT_CHANGE_NOT_AWAITING_SIGNATURE: "That change has ended. Start a new one.",
  AUTH_CREDENTIAL_OPERATION_IN_FLIGHT:
    "A sign-in method is still being added. Wait a moment, then try again.",
  // Money.
  INSUFFICIENT_FUNDS: "The wallet has too little money. Add test funds, then get a new quote.",
  QUOTE_EXPIRED: "The quote ran out before it was sent; nothing was sent. Get a new quote.",
  QUOTE_FAILED: "The payment did not go through and nothing left the wallet. Get a new quote.",
  QUOTE_NOT_FOUND: "The service no longer knows this quote. Get a new quote.",
  QUOTE_REQUEST_FAILED: "The service could not price this payment now. Try again in a moment.",
  TRANSACTION_NOT_FOUND: "The service no longer knows this payment. Check Activity.",
  REFERENCE_NOT_FOUND: "The service no longer knows this item. Reload the page.",
  CONFLICT:
    "This payment has nothing waiting for you any more. Check Activity for where it stands.",
  DAILY_VOLUME_LIMIT_EXCEEDED: "You reached today's payment limit. Try again tomorrow.",
  VELOCITY_LIMIT_EXCEEDED: "Too many payments in a short time. Wait a few minutes, then try again.",
  TRANSACTION_SIZE_LIMIT_EXCEEDED: "That amount is above the limit for one payment. Send less.",
  EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED:
    "The payee's bank account is not verified yet. Try again later.",
  END_USER_TERMS_NOT_ACCEPTED: "Accept the service's terms first, then try again.",
  INVALID_STATE_TRANSITION: "This item changed meanwhile. Reload the page to see where it stands.",
  PAYLOAD_MISMATCH:
    "This device refused to sign: what the server asked it to sign is not what you asked for. Nothing was signed or sent. If it repeats, the app's server may be compromised; stop and tell its operator.",
  // Bundles the device checks.
  BUNDLE_SIGNER_UNTRUSTED:
    "This page trusts other keys than the server's (it restarted). Reload the page, then sign in again.",
  BUNDLE_SIGNATURE_INVALID:
    "The wallet service's sealed answer failed its check, so the device used nothing. Try again; if it repeats, stop and tell the operator.",
  BUNDLE_MALFORMED: SERVICE_REFUSED,
  BUNDLE_ORGANIZATION_MISMATCH:
    "The sealed answer was for another organization, so the device used nothing. Stop and tell the operator.",
  DECRYPTION_FAILED: "The device could not open the sealed answer. Try again.",
  // The network and the service.
  NETWORK: "The server did not answer. Check that the demo is still running, then try again.",
  RELAY_MISCONFIGURED:
    "This server is not set up for EU payment confirmations yet. Nothing was sent; tell the site's operator.",
  SESSION_KEY_MISMATCH:
    "This device refused the passkey sign-in: the session was made for a key that is not this device's. Nothing was signed with it. If it repeats, the app's server may be compromised; stop and tell its operator.",
  RUNTIME_UNSUPPORTED:
    "This browser could not load part of the wallet. Update the browser or try another one.",
  TIMEOUT: "The server took too long. Try again.",
  PROCESSING_TIMEOUT: "The service is still working on it. Wait a moment, then check again.",
  OUTCOME_UNKNOWN:
    "The connection dropped before the answer came back, so it is not known whether this went through. Check your activity and balance before you try again.",
  RATE_LIMITED: "Too many tries in a short time. Wait a minute, then try again.",
  UPSTREAM_UNAVAILABLE: SERVICE_REFUSED,
  UPSTREAM_TIMEOUT: SERVICE_REFUSED,
  RELAY_STORE_UNAVAILABLE: SERVICE_REFUSED,
  SERVICE_ERROR: SERVICE_REFUSED,
  NO_WALLET: SERVICE_REFUSED,
  GRID_SWITCH_ERROR: SERVICE_REFUSED,
  INTERNAL_ERROR: SERVICE_REFUSED,
  INTERNAL: "The demo server had a fault. Try again; if it repeats, restart the demo.",
  NOT_IMPLEMENTED: "The wallet service does not offer this yet.",
  // Faults of the demo or its setup, never the user's.
  NOT_FOUND: "The service no longer knows this item. Reload the page to see where things stand.",
  RELAY_NOT_FOUND: APP_BUG,
  METHOD_NOT_ALLOWED: APP_BUG,
  PAYLOAD_TOO_LARGE: APP_BUG,
  UNSUPPORTED_MEDIA_TYPE: APP_BUG,
  INVALID_NONCE: APP_BUG,
  INVALID_JSON: APP_BUG,
  TOO_LARGE: APP_BUG,
  JSON_ONLY: APP_BUG,
  BAD_PATH: APP_BUG,
  MALFORMED_RESPONSE: SERVICE_REFUSED,
  UNEXPECTED_STATUS: SERVICE_REFUSED,
  INVALID_SIGNATURE: APP_BUG,
  WALLET_SIGNATURE_MISSING: APP_BUG,
  WALLET_SIGNATURE_MALFORMED: APP_BUG,
  WALLET_SIGNATURE_BODY_MISMATCH: APP_BUG,
  WALLET_SIGNATURE_INVALID: SIGN_IN_AGAIN,
  REQUEST_ID_MISSING: APP_BUG,
  SIGNATURE_INVALID: APP_BUG,
  CHECKSUM_INVALID: APP_BUG,
  ENCODING_INVALID: APP_BUG,
  POINT_INVALID: APP_BUG,
  CRYPTO_UNAVAILABLE:
    "This browser lacks the cryptography the wallet needs. Use a current Chrome, Firefox or Safari.",
  PROVIDER_MISSING: APP_BUG,
  // The signer frame (@signet/frame): a refusal it showed the reason of, or a frame that did not load.
  FRAME_REFUSED:
    "The signer refused this request and signed nothing. Try again from the app's button.",
  FRAME_UNAVAILABLE: AGAIN,
  UNEXPECTED_ERROR: APP_BUG,
  ABORTED: "It was stopped before it finished. Try again.",
  ERROR: AGAIN,
};

/**
 * The signer frame's refusals by `details.reason` (@signet/frame README "The channel"): what
 * happened, then what to do. A reason not listed here gets `FRAME_REFUSED`'s own advice.
 */
export const FRAME_REFUSALS: Record<string, { what: string; todo: string }> = {
  unsupported: {
    what: "The signer frame does not sign this kind of request yet: it signed nothing, and nothing was done.",
    todo: "Everything else works with the frame. To try this one, restart the demo without DEMO_FRAME.",
  },
  declined: {
    what: "You cancelled this in the signer frame: nothing was signed.",
    todo: "Start again from the button, and confirm in the frame if you meant it.",
  },
  busy: {
    what: "The signer frame is already waiting for you to confirm something else.",
    todo: "Confirm or cancel that in the frame first, then try again.",
  },
  check: {
    what: "The signer frame read what it was asked to sign and it did not match this request: it signed nothing.",
    todo: "Do not retry blindly: the server may be compromised. Reload the page and start again.",
  },
  passkey: {
    what: "The signer frame signs only a passkey it created itself, and this demo creates passkeys on its page: nothing was added.",
    todo: "Everything else works with the frame. To add a passkey, restart the demo without DEMO_FRAME.",
  },
  key: {
    what: "The signer frame no longer holds the key this needs (it was reloaded, or the session ended).",
    todo: "Sign in to your wallet again.",
  },
};

/** A known code, or `ERROR`. */
export const adviceFor = (code: string): string =>
  (ADVICE as Record<string, string>)[code] ?? ADVICE.ERROR;
