// Issue #39: a lazily loaded part that the runtime cannot load (Jest's CommonJS vm without
// import(), Signet's ESM left untransformed) is RUNTIME_UNSUPPORTED with the fix, never NETWORK,
// which would send a developer to debug the server. The failures are the runtime's own: Node's vm
// with no import callback, V8 compiling ES module syntax as a script.
import { createContext, Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { expectDocumentedDetails } from "../../../test/src/errorDetails.js";
import { loadChunk } from "../../src/crypto/chunk.js";
import { SignetError } from "../../src/errors/errors.js";

async function failure(importer: () => Promise<unknown>): Promise<SignetError> {
  try {
    await loadChunk(importer);
  } catch (error) {
    expect(error).toBeInstanceOf(SignetError);
    // Every failure carries exactly the details its code documents (test/errorDetails.test.ts).
    expectDocumentedDetails(error as SignetError);
    return error as SignetError;
  }
  throw new Error("expected a failure");
}

describe("loadChunk: runtime failures are not the network's", () => {
  it("a vm context without an import() callback (Jest's CommonJS runtime): RUNTIME_UNSUPPORTED, reason dynamic-import, not retryable", async () => {
    const context = createContext({});
    const importer = () =>
      new Script('import("./rare.js")').runInContext(context) as Promise<unknown>;
    const error = await failure(importer);
    expect(error.code).toBe("RUNTIME_UNSUPPORTED");
    expect(error.details).toEqual({ reason: "dynamic-import" });
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('use the "@signet/core/jest" preset');
    expect((error.cause as { code?: string }).code).toMatch(
      /^ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING/,
    );
  });

  it("Jest's own refusal (its vm without --experimental-vm-modules): RUNTIME_UNSUPPORTED", async () => {
    // The words jest-runtime throws from its import() callback in that case.
    const error = await failure(async () => {
      throw new Error(
        "You need to run with a version of node that supports ES Modules in the VM API. See https://jestjs.io/docs/ecmascript-modules",
      );
    });
    expect(error.code).toBe("RUNTIME_UNSUPPORTED");
    expect(error.details).toEqual({ reason: "dynamic-import" });
  });

  for (const source of ['import { p256 } from "@noble/curves/nist.js";', "export const a = 1;"]) {
    it(`ES module syntax compiled as a script (${source.split(" ")[0]}): RUNTIME_UNSUPPORTED, reason module-syntax`, async () => {
      const error = await failure(async () => new Script(source).runInThisContext());
      expect(error.code).toBe("RUNTIME_UNSUPPORTED");
      expect(error.details).toEqual({ reason: "module-syntax" });
      expect(error.message).toContain("@signet/core/jest");
      expect(error.retryable).toBe(false);
    });
  }

  it("a failed fetch of the part stays NETWORK, retryable, and the next call loads it", async () => {
    const error = await failure(async () => {
      throw new TypeError(
        "Failed to fetch dynamically imported module: https://app.example/rare.js",
      );
    });
    expect(error.code).toBe("NETWORK");
    expect(error.retryable).toBe(true);
    await expect(loadChunk(async () => ({ loaded: true }))).resolves.toEqual({ loaded: true });
  });

  it("a SyntaxError of another kind (a truncated download) stays NETWORK", async () => {
    const error = await failure(async () => new Script("const a = (").runInThisContext());
    expect(error.code).toBe("NETWORK");
  });
});
