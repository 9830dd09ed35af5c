// A payment found in the service's own list (sent from another tab, before a reload, or from
// Activity): what it is and where it stands, and "Confirm the payment" while it waits. The service
// has no way to cancel a payment once it was sent, so the demo offers none and says so.
import { formatMoney, useSecondsLeft } from "../ui.js";
import type { Payment } from "./usePayment.js";

export function FoundPayment({ payment: p }: { payment: Payment }) {
  const found = p.resumed;
  const left = useSecondsLeft(
    p.awaitingSca && !p.fresh ? p.awaitingSca.scaChallenge.expiresAt : undefined,
  );
  if (!found || p.execute.data !== undefined) return null;
  const amount = formatMoney(found.totalSendingAmount, found.sendingCurrency);
  const asking = p.sca.pendingChallenge !== undefined || p.login.waiting !== undefined;
  if (p.awaitingSca)
    return (
      <div className="note" role="status" data-testid="resumed">
        <strong>Your payment of {amount} to Demo Payee waits for your confirmation.</strong>
        <p>
          The amount is held in the wallet until you confirm it. The service offers no way to cancel
          a payment once it was sent.
          {left !== undefined &&
            (left > 0
              ? ` Its confirmation can be given for ${left} s more.`
              : " Its time to confirm ran out; the service keeps it as it is.")}
        </p>
        {!asking && !p.sca.isPending && (left === undefined || left > 0) && (
          <button type="button" className="primary" onClick={() => void p.confirmFound()}>
            Confirm the payment
          </button>
        )}
      </div>
    );
  if (p.settled) return null;
  return (
    <div className="note" role="status" data-testid="resumed">
      <strong>Your payment of {amount} to Demo Payee is on its way.</strong>
      <p>It was sent before; its progress is below.</p>
    </div>
  );
}
