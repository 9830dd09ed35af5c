// useExportWallet's `data` follows the client's kind (src/exportWallet.ts), checked by `tsc -p
// tsconfig.test.json` (pnpm typecheck): a page's client gets the phrase (`string`), a signer
// frame's `{ shownIn: "frame" }`, by an explicit type parameter or by the app's `Register`
// declaration. The declaration is read here through `RegisteredSigner`'s parameter: augmenting
// `Register` itself would retype every other test of this program.
import {
  type ClientSigner,
  createClient,
  type ExportShownElsewhere,
  type SignetClient,
} from "@signet/core";
import type { FrameSigner } from "@signet/frame";
import { describe, expectTypeOf, it } from "vitest";
import type {
  Register,
  RegisteredSigner,
  UseExportWalletReturnType,
  useExportWallet,
} from "../src/index.js";

type DataOf<T> = T extends { data: infer TData } ? TData : never;

describe("useExportWallet's data", () => {
  it("is the phrase by default: nothing is registered", () => {
    expectTypeOf<keyof Register>().toEqualTypeOf<never>();
    expectTypeOf<RegisteredSigner>().toEqualTypeOf<ClientSigner>();
    expectTypeOf<DataOf<ReturnType<typeof useExportWallet>>>().toEqualTypeOf<string | undefined>();
  });

  it("is { shownIn: 'frame' } for a frame's client, by type parameter", () => {
    type Frame = ReturnType<typeof useExportWallet<"frame">>;
    expectTypeOf<DataOf<Frame>>().toEqualTypeOf<ExportShownElsewhere | undefined>();
    expectTypeOf<Frame["mutateAsync"]>().returns.resolves.toEqualTypeOf<ExportShownElsewhere>();
    type Page = ReturnType<typeof useExportWallet<"page">>;
    expectTypeOf<DataOf<Page>>().toEqualTypeOf<string | undefined>();
  });

  it("follows a registered client's kind, inferred from createClient", () => {
    const frameClient = (signer: FrameSigner) =>
      createClient({ relayUrl: "/api/grid", crypto: signer.crypto, keyStore: signer.keyStore });
    type FrameRegistration = { client: ReturnType<typeof frameClient> };
    expectTypeOf<RegisteredSigner<FrameRegistration>>().toEqualTypeOf<"frame">();
    expectTypeOf<
      DataOf<UseExportWalletReturnType<RegisteredSigner<FrameRegistration>>>
    >().toEqualTypeOf<ExportShownElsewhere | undefined>();
    const pageClient = () => createClient({ relayUrl: "/api/grid" });
    type PageRegistration = { client: ReturnType<typeof pageClient> };
    expectTypeOf<RegisteredSigner<PageRegistration>>().toEqualTypeOf<"page">();
    expectTypeOf<RegisteredSigner<{ client: SignetClient }>>().toEqualTypeOf<ClientSigner>();
  });
});
