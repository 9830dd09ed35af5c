"use client";
// The provider pattern of the App Router: a client component that creates the Signet client
// once (useState, so neither a re-render nor Strict Mode's double render makes a second one)
// from props the server passed (the relay's URL, the keys to trust), and wraps its children.
import { createClient } from "@signet/core";
import { SignetProvider } from "@signet/react";
import { type ReactNode, useState } from "react";

export function Providers({
  relayUrl,
  trustedKeys,
  allowUnsignedBundles,
  children,
}: {
  relayUrl: string;
  trustedKeys: { otpTargetBundle: string[]; exportBundle: string[] } | undefined;
  allowUnsignedBundles: boolean;
  children: ReactNode;
}) {
  const [client] = useState(() =>
    createClient({
      relayUrl,
      ...(trustedKeys ? { trustedKeys } : {}),
      allowUnsignedBundles,
    }),
  );
  return <SignetProvider client={client}>{children}</SignetProvider>;
}
