// A device's name from its browser's User-Agent ("Chrome on Linux"), so a session list says which
// device each session is on. The server reads the header itself: a page cannot name a session
// anything it likes.

/** `Chrome on Linux`, `Safari on iOS`, `Signet Wallet app`, or `A browser` when unknown. */
export function deviceName(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  // The mobile app names itself `SignetWallet/<version> (ios|android)`.
  const app = /SignetWallet\/[\w.]+ \((ios|android)\)/i.exec(ua);
  if (app) return `Signet Wallet on ${app[1]?.toLowerCase() === "ios" ? "iOS" : "Android"}`;
  if (/SignetWallet|okhttp|CFNetwork|Expo/i.test(ua)) return "Signet Wallet app";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrom(e|ium)\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : undefined;
  const system = /iPhone|iPad/.test(ua)
    ? "iOS"
    : /Android/.test(ua)
      ? "Android"
      : /Mac OS X/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux|X11/.test(ua)
            ? "Linux"
            : undefined;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : "A browser");
}
