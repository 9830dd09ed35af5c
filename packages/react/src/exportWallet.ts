"use client";
// useExportWallet, written by hand (its catalog row gives no `doc`): what its `data` is follows the
// client's kind, as core's `exportWallet` does. A page's client resolves the phrase (`string`); a
// signer frame's (`@signet/frame`) resolves `{ shownIn: "frame" }`. The provider's client is held
// as a plain `SignetClient`, so the kind comes from the app's own declaration, the way wagmi's
// `Register` carries its config: `declare module "@signet/react" { interface Register { client:
// typeof client } }`, or from an explicit type parameter, `useExportWallet<"frame">()`.
import {
  type ClientSigner,
  type ExportWalletErrorType,
  type ExportWalletParameters,
  type ExportWalletReturnType,
  exportWallet,
  type SignetClient,
} from "@signet/core";
import { type UseMutationReturnType, useSignetMutation } from "./mutation.js";

/**
 * The app's declaration of its client, for the hooks whose types follow the client's kind
 * (`useExportWallet`). Empty until the app augments it; then `client` is the type of the client
 * it gives `<SignetProvider>`.
 *
 * @example
 * ```ts
 * const client = createClient({ relayUrl: "/api/grid", crypto: signer.crypto, keyStore: signer.keyStore });
 * declare module "@signet/react" {
 *   interface Register {
 *     client: typeof client;
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: an interface, so that apps can augment it.
export interface Register {}

/**
 * The signer of a registration: `"frame"` or `"page"` for a registered `SignetClient<…>`, and the
 * default (`ClientSigner`, whose export types as the page's `string`) when nothing is registered.
 */
export type RegisteredSigner<TRegister = Register> = TRegister extends {
  client: SignetClient<infer TSigner>;
}
  ? TSigner
  : ClientSigner;

/** What `useExportWallet` returns for a client whose keys sign in `TSigner`. */
export type UseExportWalletReturnType<TSigner extends ClientSigner = RegisteredSigner> =
  UseMutationReturnType<
    ExportWalletParameters,
    ExportWalletReturnType<TSigner>,
    ExportWalletErrorType
  >;

/**
 * Exports the wallet's recovery phrase (`exportWallet`). Show it only behind an explicit
 * confirmation; never store or log it. With a signer frame's client the phrase is shown in the
 * frame, and `data` is `{ shownIn: "frame" }`: declare the client in `Register` (or pass
 * `"frame"`) and `data` is typed so.
 *
 * @typeParam TSigner - the client's kind, `"page"` or `"frame"`; by default the registered
 *   client's, else the page's.
 * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.
 * @example
 * ```tsx
 * const { mutate, data } = useExportWallet<"frame">();
 * // data: { shownIn: "frame" } | undefined
 * ```
 */
export function useExportWallet<
  TSigner extends ClientSigner = RegisteredSigner,
>(): UseExportWalletReturnType<TSigner> {
  return useSignetMutation(exportWallet, "exportWallet") as UseExportWalletReturnType<TSigner>;
}
