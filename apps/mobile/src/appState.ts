// When the phone brings the app back to the foreground. Timers stand still while a phone sleeps or
// the app is in the background, so the Signet client checks its held sessions again then: one that
// expired meanwhile is dropped, and one whose refresh time passed is refreshed. Kept apart from
// ./signet.ts, which the Hermes run bundles without React Native's native modules.
import type { AppStateSource } from "@signet/core";
import { AppState } from "react-native";

/** React Native's `AppState` as core's `appState` seam: `onActive` on every return to "active". */
export const reactNativeAppState: AppStateSource = (onActive) => {
  const subscription = AppState.addEventListener("change", (state) => {
    if (state === "active") onActive();
  });
  return () => subscription.remove();
};
