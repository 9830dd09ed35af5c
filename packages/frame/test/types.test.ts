// Types only (checked by `pnpm typecheck`; nothing here runs a frame): a client made with
// `frameSigner().crypto` is inferred to be a frame's, so its `exportWallet` is typed as what it
// resolves to, `{ shownIn: "frame" }`, while a client of core's own crypto keeps the phrase.
import {
  createClient,
  type ExportShownElsewhere,
  exportWallet,
  type SignetClient,
} from "@signet/core";
import { describe, expectTypeOf, it } from "vitest";
import type { FrameSigner } from "../src/index.js";

const parameters = { accountId: "InternalAccount:00000000-0000-4000-8000-000000000000" };

describe("a frame's client", () => {
  it("is a SignetClient<'frame'>, inferred, whose export resolves to { shownIn: 'frame' }", () => {
    const made = (signer: FrameSigner) =>
      createClient({ relayUrl: "/api/grid", crypto: signer.crypto, keyStore: signer.keyStore });
    expectTypeOf(made).returns.toEqualTypeOf<SignetClient<"frame">>();
    const exported = (signer: FrameSigner) => exportWallet(made(signer), parameters);
    expectTypeOf(exported).returns.resolves.toEqualTypeOf<ExportShownElsewhere>();
    const page = () => exportWallet(createClient({ relayUrl: "/api/grid" }), parameters);
    expectTypeOf(page).returns.resolves.toEqualTypeOf<string>();
  });
});
