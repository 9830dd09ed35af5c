// The emulator serves every route of core's table of actions (docs/architecture.md "Adding an
// action"): each is found in its route tables, and the handler answers it with something other than
// its no-route answer (404 "No route for …") or 405.
import { describe, expect, it } from "vitest";
import { actionRoutes } from "../../core/src/catalog/actionTable.js";
import { createRouter } from "../src/http/router.js";
import { createEmulator } from "../src/index.js";
import { serviceRoutes } from "../src/routes.js";
import { AUTH } from "./testClient.js";

/** A concrete path for a table path: a well-formed id of each `{Kind}` (unknown to the emulator). */
const concrete = (path: string) =>
  path.replace(/\{([A-Za-z]+)\}/g, (_, kind: string) =>
    kind === "WebAuthnCredential"
      ? "AAECAwQFBgcICQoLDA0ODw"
      : `${kind}:0b6c5a3e-7f1d-4c2b-9a8e-1d2c3b4a5f60`,
  );

describe("the emulator and the table of actions", () => {
  const routes = actionRoutes();
  const match = createRouter(serviceRoutes);

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s is in its route tables",
    (_, { method, path }) => {
      expect(match(method, concrete(path)).kind).toBe("found");
    },
  );

  it("answers each with something other than its no-route answer", async () => {
    const emulator = createEmulator();
    for (const { method, path } of routes) {
      const response = await emulator.fetch(
        new Request(`http://e${concrete(path)}`, {
          method,
          headers: { authorization: AUTH, "content-type": "application/json" },
          ...(method === "GET" ? {} : { body: "{}" }),
        }),
      );
      const text = await response.text();
      expect(response.status, `${method} ${path}`).not.toBe(405);
      expect(text, `${method} ${path}`).not.toContain("No route for");
    }
  });
});
