// The app's Signet client, as packages/core/README.md's Expo path sets it up: noble crypto with
// expo-crypto's random source, session keys in expo-secure-store, passkeys through
// react-native-passkeys. The relay is the backend's (here the repository's demo server, whose
// address comes from EXPO_PUBLIC_SIGNET_SERVER), and so are the keys that sign its bundles.
import { getRandomBytes } from 'expo-crypto';
import { createClient, createCryptoApi, createNobleBackend, type SignetClient } from '@signet/core';
import { createSecureStoreKeyStore } from '@signet/core/expo-secure-store';
import { createPasskeysWebAuthn } from '@signet/core/react-native-passkeys';

/** Where the backend is: its relay answers at `<server>/api/grid`. */
export const server = (process.env.EXPO_PUBLIC_SIGNET_SERVER ?? 'http://localhost:5173').replace(
  /\/+$/,
  ''
);

/** What the backend says about its wallet service (the demo server's `/api/demo/config`). */
export type Backend = {
  rpId: string;
  trustedKeys?: { otpTargetBundle: string[]; exportBundle: string[] };
  allowUnsignedBundles?: boolean;
};

/** The app's client for `backend`, on the relay at `<origin>/api/grid`. */
export function createWalletClient(backend: Backend, origin: string = server): SignetClient {
  return createClient({
    relayUrl: `${origin}/api/grid`, // absolute: there is no page origin
    crypto: createCryptoApi(createNobleBackend({ randomBytes: getRandomBytes })),
    keyStore: createSecureStoreKeyStore(),
    webauthn: createPasskeysWebAuthn({ rpId: backend.rpId }),
    ...(backend.trustedKeys ? { trustedKeys: backend.trustedKeys } : {}),
    ...(backend.allowUnsignedBundles ? { allowUnsignedBundles: true } : {}),
  });
}
