// The one way Signet loads a lazily split part of itself.
import { SignetError } from "../errors.js";

/**
 * Imports a lazily loaded part of Signet. A failed load says nothing about the caller's input:
 * it is a retryable `NETWORK` error, and the next call tries again.
 */
export async function loadChunk<T>(importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (cause) {
    throw new SignetError("NETWORK", "could not load a part of Signet", { cause, retryable: true });
  }
}
