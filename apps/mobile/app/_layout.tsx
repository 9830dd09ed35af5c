import { Stack } from "expo-router";
import { StatusBar } from "expo-status-bar";
import { WalletRoot } from "../src/WalletRoot";

export default function Layout() {
  return (
    <WalletRoot>
      <StatusBar style="auto" />
      <Stack screenOptions={{ headerShown: false }} />
    </WalletRoot>
  );
}
