// The page is a server component: it reads the demo login's cookie and the trusted keys on the
// server, then hands them to the client components (the provider and the wallet) as props.
// Under cacheComponents anything read per request (cookies, searchParams, the environment) goes
// inside <Suspense>.
import { cookies } from "next/headers";
import { Suspense } from "react";
import { serverEnv } from "../lib/server/env";
import { trustedKeys } from "../lib/server/platform";
import { COOKIE_NAME, openSession } from "../lib/server/session";
import { Providers } from "./providers";
import { SignInToDemo, Wallet } from "./wallet";

export default function Page({ searchParams }: PageProps<"/">) {
  return (
    <main>
      <h1>Signet · Next.js</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <WalletRoot searchParams={searchParams} />
      </Suspense>
    </main>
  );
}

async function WalletRoot({ searchParams }: Pick<PageProps<"/">, "searchParams">) {
  const { relay } = await searchParams;
  const env = serverEnv();
  const user = await openSession((await cookies()).get(COOKIE_NAME)?.value, env.sessionSecret);
  if (!user) return <SignInToDemo />;
  // `?relay=edge`: the same app through the edge-runtime route handler.
  const relayUrl = relay === "edge" ? "/api/grid-edge" : "/api/grid";
  return (
    <Providers
      relayUrl={relayUrl}
      trustedKeys={await trustedKeys(env)}
      allowUnsignedBundles={!env.emulator}
    >
      <Wallet user={user} relayUrl={relayUrl} />
    </Providers>
  );
}
