import { useSession } from "@signet/react";
import { Redirect, useRouter } from "expo-router";
import { ActivityIndicator } from "react-native";
import { SignInScreen } from "../src/SignInScreen";
import { useWallet } from "../src/WalletRoot";

/** The unlock screen, skipped when this phone still holds a live session of the wallet. */
export default function SignIn() {
  const router = useRouter();
  const { profile } = useWallet();
  const { status } = useSession(profile ? { accountId: profile.accountId } : {});
  if (profile && status === "loading") return <ActivityIndicator accessibilityLabel="Loading" />;
  if (profile && status === "signedIn") return <Redirect href="/wallet" />;
  return <SignInScreen onSignedIn={() => router.replace("/wallet")} />;
}
