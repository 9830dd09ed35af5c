import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Signet · Next.js example",
  description:
    "An Embedded Wallet in a Next.js App Router app, on @signet/react and @signet/relay.",
};

// No next/font/google: it downloads fonts at build time. The system font stack is in globals.css.
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
