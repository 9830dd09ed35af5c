// The one way Signet loads a lazily split part of itself.
import { SignetError } from "../errors.js";

// Where a developer meets a runtime that cannot load the parts, and what to do there: Jest runs
// CommonJS in a vm context without `import()` unless told otherwise, and skips transforming
// node_modules unless a pattern lets Signet's ESM through.
const FIX =
  'under Jest, use the "@signet/core/jest" preset (or add @babel/plugin-transform-dynamic-import ' +
  "to the test Babel config and let @signet, @noble, @hpke, @simplewebauthn and idb-keyval " +
  "through transformIgnorePatterns); elsewhere, bundle Signet with a bundler that supports import()";

/**
 * Imports a lazily loaded part of Signet. A load the runtime itself cannot do (no `import()`, ES
 * module syntax in a CommonJS runtime) is `RUNTIME_UNSUPPORTED`, never retryable, its message
 * naming the fix. Any other failed load says nothing about the caller's input: it is a retryable
 * `NETWORK` error, and the next call tries again.
 */
export async function loadChunk<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (cause) {
    const reason = runtimeReason(cause);
    if (reason)
      throw new SignetError(
        "RUNTIME_UNSUPPORTED",
        reason === "dynamic-import"
          ? `this JavaScript runtime cannot run import(), which loads a part of Signet: ${FIX}`
          : `a part of Signet reached a CommonJS runtime untransformed: ${FIX}`,
        { cause, details: { reason } },
      );
    throw new SignetError("NETWORK", "could not load a part of Signet", { cause, retryable: true });
  }
}

/** Why the runtime, not the network, failed the load; undefined for any other failure. */
function runtimeReason(cause: unknown): "dynamic-import" | "module-syntax" | undefined {
  if (typeof cause !== "object" || cause === null) return undefined;
  const { code, message, name } = cause as { code?: unknown; message?: unknown; name?: unknown };
  const text = typeof message === "string" ? message : "";
  // Node's vm without an import callback (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING[_FLAG]), and
  // Jest's own words when its vm runs without --experimental-vm-modules.
  if (
    (typeof code === "string" && code.startsWith("ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING")) ||
    text.includes("supports ES Modules in the VM API")
  )
    return "dynamic-import";
  // An ES module run as a script: the words of V8 (Node, Chromium) and Hermes. By name, not
  // instanceof: Jest throws it from outside the test's realm.
  if (
    name === "SyntaxError" &&
    /Cannot use import statement outside a module|Unexpected token '?export'?|'import' and 'export' may (only )?appear/.test(
      text,
    )
  )
    return "module-syntax";
  return undefined;
}
