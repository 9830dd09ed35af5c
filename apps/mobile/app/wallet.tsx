import { useRouter } from "expo-router";
import { WalletScreen } from "../src/WalletScreen";

export default function Wallet() {
  const router = useRouter();
  return <WalletScreen onSignedOut={() => router.replace("/")} />;
}
