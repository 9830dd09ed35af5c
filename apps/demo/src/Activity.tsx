// Activity: the wallet's payments and deposits with their state, as the service has them (the
// demo server lists them with the platform's credentials), newest first.
import { useCallback, useEffect, useState } from "react";
import { type DemoActivity, demoApi } from "./demoApi.js";
import { ErrorNote, formatMoney, when } from "./ui.js";

const STATES: Record<string, string> = {
  COMPLETED: "Completed",
  PROCESSING: "Settling",
  PENDING: "Pending",
  CREATED: "Pending",
  PENDING_AUTHORIZATION: "Waits for your confirmation",
  FAILED: "Failed",
  REJECTED: "Rejected",
  REFUNDED: "Refunded",
  EXPIRED: "Expired",
};

export function Activity() {
  const [items, setItems] = useState<DemoActivity[]>();
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const load = useCallback(() => {
    setLoading(true);
    demoApi
      .activity()
      .then(
        (data) => {
          setItems(data);
          setError(null);
        },
        (e) => setError(e),
      )
      .finally(() => setLoading(false));
  }, []);
  useEffect(() => load(), [load]);
  // While something settles, look again every few seconds.
  const moving = items?.some((t) => t.status === "PROCESSING" || t.status === "PENDING");
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(load, 3_000);
    return () => clearInterval(timer);
  }, [moving, load]);

  return (
    <section className="card" aria-labelledby="activity-title">
      <div className="row spread">
        <h1 id="activity-title">Activity</h1>
        <button type="button" className="secondary" disabled={loading} onClick={load}>
          {loading ? "Loading…" : "Refresh"}
        </button>
      </div>
      <ErrorNote error={error} title="Could not load the activity" />
      {items?.length === 0 && <p className="muted">No payments or deposits yet.</p>}
      {items === undefined && !error && <p aria-live="polite">Loading…</p>}
      <ul className="list" aria-label="Payments and deposits">
        {(items ?? []).map((t) => {
          const out = t.direction === "DEBIT";
          const money = t.sentAmount ?? t.receivedAmount;
          return (
            <li key={t.id} className="list-item" data-testid="activity-item">
              <div>
                <strong>{out ? "Sent to Demo Payee" : "Added to the wallet"}</strong>
                <div className="muted small">
                  {when(t.createdAt)} ·{" "}
                  <span data-testid="activity-state">{STATES[t.status] ?? t.status}</span>
                </div>
              </div>
              <div className={`amount ${out ? "amount-out" : "amount-in"}`}>
                {out ? "−" : "+"}
                {formatMoney(money?.amount, money?.currency)}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
