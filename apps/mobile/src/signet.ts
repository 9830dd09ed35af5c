// The Signet client of the app: keys in expo-secure-store through core's adapter (cleared after a
// reinstall, see packages/core/README.md), passkeys through react-native-passkeys, the relay of the
// demo server. `react-native-get-random-values` gives noble its secure random source.
import "react-native-get-random-values";
import {
  type AppStateSource,
  createClient,
  type SignetClient,
  type SignetEvent,
} from "@signet/core";
import { createSecureStoreKeyStore } from "@signet/core/expo-secure-store";
import { createPasskeysWebAuthn } from "@signet/core/react-native-passkeys";
import { config } from "./config";
import type { DemoConfig } from "./demoApi";

/**
 * The app's Signet client for the demo server's configuration. `appState` tells the client when
 * the app returns to the foreground (the app passes React Native's, ./appState.ts), so a phone
 * that slept checks its session again on resume; `onEvent` receives the client's events.
 */
export function createWalletClient(
  demo: DemoConfig,
  options: { appState?: AppStateSource; onEvent?: (event: SignetEvent) => void } = {},
): SignetClient {
  const { appState, onEvent } = options;
  return createClient({
    relayUrl: `${config.server}/api/grid`,
    keyStore: createSecureStoreKeyStore(),
    webauthn: createPasskeysWebAuthn({ rpId: demo.rpId }),
    ...(demo.trustedKeys ? { trustedKeys: demo.trustedKeys } : {}),
    allowUnsignedBundles: demo.allowUnsignedBundles,
    ...(appState ? { appState } : {}),
    ...(onEvent ? { onEvent } : {}),
  });
}
