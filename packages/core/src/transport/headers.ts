// Header names of the signed-request protocol (docs/protocol.md §1–§2), for the transport's files.
// Written once, with the relay's, in `protocol.ts`.
export {
  IDEMPOTENCY_KEY_HEADER,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  WALLET_SIGNATURE_HEADER,
} from "./protocol.js";
