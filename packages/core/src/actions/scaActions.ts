// The chunk of the SCA login and the payment authorization that runs it (./lazy.ts loads it): one
// chunk, as they share their proof and its bindings.
export { authorizeQuote } from "./authorizeQuote.js";
export { scaLogin } from "./scaLogin.js";
