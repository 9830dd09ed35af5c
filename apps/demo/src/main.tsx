import {
  createBrowserWebAuthn,
  createClient,
  type SignetClient,
  type WebAuthnProvider,
} from "@signet/core";
import { SignetProvider } from "@signet/react";
import { StrictMode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.js";
import { type DemoConfig, demoApi } from "./demoApi.js";
import { logSignetEvent } from "./log.js";
import { STEP_UP_MAX_AGE_MS } from "./StepUp.js";
import { openSignerFrame, type SignerFrame, SignerFrameProvider } from "./signerFrame.js";

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

/**
 * One client per start of the demo server: its keys are the ones that server trusts. With the
 * signer frame on (`frameUrl`), the client's keys live in the frame, which checks and signs every
 * payload (`frameSigner`'s crypto and key store); what the frame does not sign yet fails with
 * FRAME_REFUSED, which the screens explain, and starts to work when the frame learns it.
 */
function clientFor(config: DemoConfig): { client: SignetClient; frame: SignerFrame | undefined } {
  const frame = config.frameUrl ? openSignerFrame(config.frameUrl) : undefined;
  const client = createClient({
    relayUrl: "/api/grid",
    ...(frame ? { crypto: frame.signer.crypto, keyStore: frame.signer.keyStore } : {}),
    onEvent: logSignetEvent,
    // With the frame, a passkey is created in it (the frame signs the add of no other passkey).
    webauthn: frame ? frame.signer.webauthn : demoWebAuthn(),
    ...(config.trustedKeys ? { trustedKeys: config.trustedKeys } : {}),
    allowUnsignedBundles: config.allowUnsignedBundles,
    contactChanges: config.contactChanges,
    // With the relay's push, polling after PROCESSING is only the fallback: it waits longer.
    ...(config.push
      ? { push: true, retry: { backoff: { baseMs: 20_000, factor: 2, maxMs: 60_000 } } }
      : {}),
    // Core's step-up, as we recommend it: a sign-in by passkey or code within the last minutes
    // before an export, a credential, contact or SCA factor change, a delegated key or a trusted
    // beneficiary (Export asks for it; docs/security.md "Step-up").
    stepUp: { actions: "sensitive", maxAgeMs: STEP_UP_MAX_AGE_MS },
  });
  return { client, frame };
}

/**
 * The page's root. When the demo server forgets the browser, it asks for the configuration again:
 * a new instance id means the server restarted, so the client is made again with the keys the new
 * server trusts (the old ones would refuse every bundle it seals) and the screens start over.
 */
function Root({ initial }: { initial: DemoConfig }) {
  const [config, setConfig] = useState(initial);
  const [restarted, setRestarted] = useState(false);
  const made = useMemo(() => clientFor(config), [config]);
  const { client, frame } = made;
  // The client of the server before the restart stops its background work, and its signer frame
  // goes (not on Strict Mode's second effect: the same client is kept then).
  const previous = useRef<typeof made>(undefined);
  useEffect(() => {
    const old = previous.current;
    previous.current = made;
    if (old && old !== made) {
      old.client.destroy();
      old.frame?.signer.close();
    }
  }, [made]);
  const seen = config.instanceId;
  const recheck = useCallback(() => {
    demoApi.config().then(
      (next) => {
        if (next.instanceId === seen) return;
        setRestarted(true);
        setConfig(next);
      },
      () => undefined,
    );
  }, [seen]);
  return (
    <SignetProvider client={client} key={config.instanceId}>
      <SignerFrameProvider value={frame}>
        <App config={config} restarted={restarted} onForgotten={recheck} />
      </SignerFrameProvider>
    </SignetProvider>
  );
}

const root = createRoot(document.getElementById("root") as HTMLElement);

demoApi.config().then(
  (config) => {
    root.render(
      <StrictMode>
        <Root initial={config} />
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
