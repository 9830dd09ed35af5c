// The app's root: reads the demo server's configuration, creates the Signet client once and holds
// the demo user (the integrator's own login) for every screen.
import type { SignetClient } from "@signet/core";
import { SignetProvider } from "@signet/react";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from "react";
import { ActivityIndicator, Text, View } from "react-native";
import { SafeAreaProvider } from "react-native-safe-area-context";
import { reactNativeAppState } from "./appState";
import { type DemoConfig, type DemoProfile, demoApi } from "./demoApi";
import { loadWallet } from "./journeys";
import { createWalletClient } from "./signet";
import { styles } from "./ui";

type WalletState = {
  demo: DemoConfig;
  profile: DemoProfile | null;
  setProfile(profile: DemoProfile | null): void;
  /** Reads the demo user again (after a contact or sign-in method change). */
  reload(): void;
};

const WalletContext = createContext<WalletState | null>(null);

/** The demo configuration and the signed-in demo user. */
export function useWallet(): WalletState {
  const state = useContext(WalletContext);
  if (!state) throw new Error("useWallet outside <WalletRoot>");
  return state;
}

/** The app's client: its sessions are checked again whenever the app returns to the foreground. */
const createAppClient = (demo: DemoConfig) =>
  createWalletClient(demo, { appState: reactNativeAppState });

export function WalletRoot({
  children,
  createClient = createAppClient,
}: {
  children: ReactNode;
  /** How the client is made (tests pass their own event sink). */
  createClient?: (demo: DemoConfig) => SignetClient;
}) {
  const [demo, setDemo] = useState<DemoConfig>();
  const [profile, setProfile] = useState<DemoProfile | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    loadWallet().then(
      (loaded) => {
        if (!live) return;
        setDemo(loaded.demo);
        setProfile(loaded.profile);
      },
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, []);
  const client = useMemo(() => (demo ? createClient(demo) : undefined), [demo, createClient]);
  const reload = useCallback(() => {
    demoApi.me().then(setProfile, () => undefined);
  }, []);
  const state = useMemo(
    () => (demo ? { demo, profile, setProfile, reload } : undefined),
    [demo, profile, reload],
  );
  if (error)
    return (
      <View style={styles.screen}>
        <Text accessibilityRole="header" style={styles.title}>
          The wallet could not start
        </Text>
        <Text accessibilityRole="alert">{error}</Text>
      </View>
    );
  if (!client || !state)
    return (
      <View style={styles.screen}>
        <ActivityIndicator accessibilityLabel="Loading" />
      </View>
    );
  return (
    <SafeAreaProvider>
      <SignetProvider client={client}>
        <WalletContext.Provider value={state}>{children}</WalletContext.Provider>
      </SignetProvider>
    </SafeAreaProvider>
  );
}
