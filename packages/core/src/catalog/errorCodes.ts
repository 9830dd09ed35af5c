// What each action can throw, keyed by action name, read from the table of actions (the rows'
// `errors` and the service operations their requests call, which the generator matched to the
// OpenAPI: their codes come through the generated transport/operationErrorCodes.ts). Each
// action's `XErrorType` is `SignetError<ActionErrorCode<"x">>`. Types only: no bundle carries the
// table (catalog/errorCodes.test.ts checks the rows against the OpenAPI, the emulator and the
// exports).
import type {
  KnownErrorCode,
  RelayErrorCode,
  ServiceErrorCode,
  WebAuthnErrorCode,
} from "../errors/errors.js";
import type { OperationErrorCode, ServiceOperation } from "../transport/operationErrorCodes.js";
import type { actionErrors } from "./actionTable.js";

/** One action's codes as the table of actions holds them. */
export type ActionErrorRow = {
  /** The service operations its requests call, as the OpenAPI spells them. */
  readonly operations: readonly ServiceOperation[];
  /** It reaches the relay: the relay's codes are in its union. */
  readonly relay?: true;
  /** Service codes an operation answers beyond its OpenAPI schema (docs/protocol.md). */
  readonly undocumented?: readonly ServiceErrorCode[];
  /** The client codes of its code paths. */
  readonly client: readonly KnownErrorCode[];
  /** Runs a passkey ceremony: every `WebAuthnErrorCode` (`webauthn/errors.ts`). */
  readonly passkey?: true;
};

/** An action of the table of actions (each has its row of codes). */
export type ErrorCodedAction = keyof typeof actionErrors;

type Row<TAction extends ErrorCodedAction> = (typeof actionErrors)[TAction];

/**
 * The codes an action can throw: the service's codes for the operations it calls (the OpenAPI's
 * per-status enums, kept to the codes a wallet path answers, `ServiceErrorCode`), the codes those
 * operations answer beyond their schema, the relay's codes when it calls any, the client codes of
 * its code paths, and the passkey codes when it runs a ceremony.
 */
export type ActionErrorCode<TAction extends ErrorCodedAction> =
  | Extract<OperationErrorCode<Row<TAction>["operations"][number]>, ServiceErrorCode>
  | (Row<TAction> extends { undocumented: readonly (infer U)[] } ? U : never)
  | (Row<TAction> extends { relay: true } ? RelayErrorCode : never)
  | Row<TAction>["client"][number]
  | (Row<TAction> extends { passkey: true } ? WebAuthnErrorCode : never);
