// The parts of @simplewebauthn/browser that Signet uses, in one module so that its lazy chunk
// carries only these (a dynamic import of the package itself would keep every export).
export {
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";
