// Where the app finds the demo server (the web demo's server: its relay at /api/grid and its demo
// endpoints at /api/demo): EXPO_PUBLIC_SIGNET_SERVER (inlined when Metro bundles), else app.json's
// `extra.signetServer`. On a phone, start the server with HOST=0.0.0.0 and point this at the
// computer's LAN address. The passkey relying party comes from the server (/api/demo/config).
import Constants from "expo-constants";

type Extra = { signetServer?: string };
const extra = (Constants.expoConfig?.extra ?? {}) as Extra;

export const config = {
  server: (
    process.env.EXPO_PUBLIC_SIGNET_SERVER ??
    extra.signetServer ??
    "http://localhost:5173"
  ).replace(/\/+$/, ""),
};
