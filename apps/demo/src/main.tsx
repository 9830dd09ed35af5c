import { createClient } from "@signet/core";
import { SignetProvider } from "@signet/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { demoApi } from "./demoApi.js";
import { logSignetEvent } from "./log.js";

const root = createRoot(document.getElementById("root") as HTMLElement);

demoApi.config().then(
  (config) => {
    // One client for the page: the relay on this origin, the demo cookie sent with each call.
    const client = createClient({
      relayUrl: "/api/grid",
      onEvent: logSignetEvent,
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
