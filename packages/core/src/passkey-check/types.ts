// The passkey checker's problems, shared by the check (./check.ts) and the file fetcher
// (./fetchFile.ts).

/** Which check found a problem. */
export type PasskeyCheckProblemCode =
  | "INVALID_INPUT"
  | "FILE_MISSING"
  | "FILE_UNREACHABLE"
  /** The file did not arrive, headers and body, within `timeoutMs`. */
  | "FILE_TIMEOUT"
  /** The file is larger than `MAX_FILE_BYTES`: not read past it. */
  | "FILE_TOO_LARGE"
  /** The host is or resolves to a non-public address, and `allowPrivateAddresses` is off. */
  | "ADDRESS_NOT_PUBLIC"
  | "REDIRECT"
  | "WRONG_CONTENT_TYPE"
  | "NOT_JSON"
  | "WEBCREDENTIALS_MISSING_APP"
  | "ASSETLINKS_MISSING_APP"
  | "ASSETLINKS_MISSING_RELATION"
  | "FINGERPRINT_MISMATCH"
  | "ORIGIN_NOT_ALLOWED";

/** One problem, with what to do about it. Plain text: control characters come escaped (`\u001b`). */
export type PasskeyCheckProblem = {
  code: PasskeyCheckProblemCode;
  /** The URL or input the problem is about. */
  subject: string;
  /** What is wrong and how to fix it. */
  message: string;
};
