// The one way Signet loads a lazily split part of itself.
import { SignetError } from "../errors/errors.js";

/**
 * Imports a lazily loaded part of Signet. A load the runtime itself cannot do is
 * `RUNTIME_UNSUPPORTED`, never retryable, naming the fix: no `import()` (Node's vm without an
 * import callback, as Jest's CommonJS runtime; Jest's own words for it), or ES module syntax run
 * as a script (Signet left untransformed for CommonJS). Any other failed load says nothing about
 * the caller's input: it is a retryable `NETWORK` error, and the next call tries again.
 */
export async function loadChunk<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (cause) {
    // Kept small: this runs on every page, and only its message explains (README, "Errors").
    const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
    const text = `${code} ${message}`;
    const reason = /ERR_VM_DYNAMIC_IMPORT|the VM API/.test(text)
      ? "dynamic-import"
      : /import statement outside|token '?export/.test(text)
        ? "module-syntax"
        : undefined;
    throw reason
      ? new SignetError(
          "RUNTIME_UNSUPPORTED",
          `this runtime cannot load a part of Signet (${reason}); under Jest, use the "@signet/core/jest" preset`,
          { cause, details: { reason } },
        )
      : new SignetError("NETWORK", "could not load a part of Signet", { cause, retryable: true });
  }
}
