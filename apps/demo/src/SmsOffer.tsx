// An EU customer's phone, given at sign-up, can sign them in too: offered once they are in (adding
// a sign-in method is signed by a session, so it cannot happen before). "Not now" is remembered.
import { useAddCredential } from "@signet/react";
import { useState } from "react";
import type { DemoProfile } from "./demoApi.js";
import { announceChange, ErrorNote } from "./ui.js";

const dismissedKey = (customerId: string) => `signet-demo:sms-offer:${customerId}`;
const wasDismissed = (customerId: string) => {
  try {
    return localStorage.getItem(dismissedKey(customerId)) === "1";
  } catch {
    return false;
  }
};

export function SmsOffer({ profile, onAdded }: { profile: DemoProfile; onAdded: () => void }) {
  const add = useAddCredential();
  const [dismissed, setDismissed] = useState(() => wasDismissed(profile.customerId));
  const hasSms = profile.credentials.some((c) => c.type === "SMS_OTP");
  if (!profile.phoneNumber || hasSms || dismissed) return null;
  return (
    <section className="note" aria-label="Sign in by SMS too" data-testid="sms-offer">
      <strong>Sign in with a text message too?</strong>
      <p>
        Codes can go to your phone {profile.phoneNumber}, so losing access to your email does not
        lock you out.
      </p>
      <div className="row wrap">
        <button
          type="button"
          className="primary"
          disabled={add.isPending}
          onClick={() =>
            // The number shown is the one the device checks the signed payload against.
            add
              .mutateAsync({
                accountId: profile.accountId,
                type: "SMS_OTP",
                phoneNumber: profile.phoneNumber as string,
              })
              .then(
                () => {
                  announceChange("credentials");
                  onAdded();
                },
                () => undefined,
              )
          }
        >
          {add.isPending ? "Adding…" : `Add SMS sign-in for ${profile.phoneNumber}`}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            try {
              localStorage.setItem(dismissedKey(profile.customerId), "1");
            } catch {}
            setDismissed(true);
          }}
        >
          Not now
        </button>
      </div>
      <ErrorNote error={add.error} title="Could not add SMS sign-in" />
    </section>
  );
}
