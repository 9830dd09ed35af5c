import { useRouter } from "expo-router";
import { SignInScreen } from "../src/SignInScreen";

export default function SignIn() {
  const router = useRouter();
  return <SignInScreen onSignedIn={() => router.replace("/wallet")} />;
}
