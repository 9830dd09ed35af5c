// The client's public surface, as published: `dist/*.d.ts` after `tsc` with `stripInternal`. The
// seams the actions use are tagged internal and must not reach users' types (they are free to
// change); what is left is the documented interface (core README, "The client"). Run after the
// build (`npm test` builds first).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dist = (path: string) => fileURLToPath(new URL(`../../dist/${path}`, import.meta.url));

/** The member names of `export type <name> = { … };` in a declaration file. */
function members(file: string, name: string): string[] {
  const path = dist(file);
  if (!existsSync(path)) throw new Error(`${path} is missing: build core first (pnpm run build)`);
  const text = readFileSync(path, "utf8");
  // A generic type (`SignetClient<TSigner …>`) is found by its name and its parameters.
  const start = text.search(new RegExp(`export type ${name}(?:<[^\n]*>)? = \\{`));
  expect(start, `${name} in ${file}`).toBeGreaterThanOrEqual(0);
  const body = text.slice(start, text.indexOf("\n};", start));
  return [...body.matchAll(/^ {4}(?:readonly\s+)?([A-Za-z]\w*)\s*[(<?:]/gm)].map(
    (m) => m[1] as string,
  );
}

describe("the published client interface", () => {
  it("SignetClient shows the relay URL, where its keys sign, the service's time, held sessions, calls still processing, persistence and destroy only", () => {
    expect(members("client.d.ts", "SignetClient").sort()).toEqual(
      ["clock", "destroy", "pending", "persistence", "relayUrl", "sessions", "signer"].sort(),
    );
  });

  it("its calls still processing can be read, subscribed to and resumed, not written", () => {
    expect(members("client.d.ts", "SignetPendingCalls").sort()).toEqual(
      ["getSnapshot", "resume", "subscribe"].sort(),
    );
  });

  it("its sessions can be read and subscribed to, not written", () => {
    expect(members("session/sessionStore.d.ts", "SessionStore").sort()).toEqual(
      ["expiryWarningMs", "getSnapshot", "list", "load", "subscribe"].sort(),
    );
  });

  it("createClient's options include the transport's credentials and per-attempt timeout", () => {
    const options = members("clientOptions.d.ts", "CreateClientParameters");
    expect(options).toEqual(expect.arrayContaining(["credentials", "requestTimeoutMs", "retry"]));
  });
});
