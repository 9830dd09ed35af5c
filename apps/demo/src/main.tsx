import { createBrowserWebAuthn, createClient, type WebAuthnProvider } from "@signet/core";
import { SignetProvider } from "@signet/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { demoApi } from "./demoApi.js";
import { logSignetEvent } from "./log.js";

/**
 * The browser's WebAuthn, offering RS256 (-257) after ES256 (-7) at registration: Chrome warns
 * when the list lacks either, and an authenticator that has only RS256 can still register.
 * Authenticators pick the first they support, so passkeys stay ES256 wherever they can.
 */
function demoWebAuthn(): WebAuthnProvider {
  const browser = createBrowserWebAuthn();
  return {
    preload: () => browser.preload?.(),
    authenticate: (options, extras) => browser.authenticate(options, extras),
    register: (options) =>
      browser.register({
        ...options,
        pubKeyCredParams: [
          ...options.pubKeyCredParams,
          ...[-7, -257]
            .filter((alg) => !options.pubKeyCredParams.some((p) => p.alg === alg))
            .map((alg) => ({ type: "public-key" as const, alg })),
        ],
      }),
  };
}

const root = createRoot(document.getElementById("root") as HTMLElement);

demoApi.config().then(
  (config) => {
    // One client for the page: the relay on this origin, the demo cookie sent with each call.
    const client = createClient({
      relayUrl: "/api/grid",
      onEvent: logSignetEvent,
      webauthn: demoWebAuthn(),
      ...(config.trustedKeys ? { trustedKeys: config.trustedKeys } : {}),
      allowUnsignedBundles: config.allowUnsignedBundles,
    });
    root.render(
      <StrictMode>
        <SignetProvider client={client}>
          <App config={config} />
        </SignetProvider>
      </StrictMode>,
    );
  },
  (error: Error) => {
    root.render(
      <main className="fatal" role="alert">
        <h1>The demo could not start</h1>
        <p>{error.message}</p>
        <p>
          Start it with <code>npm run demo</code> and reload this page.
        </p>
      </main>,
    );
  },
);
