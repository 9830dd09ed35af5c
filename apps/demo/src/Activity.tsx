// Activity: the wallet's payments and deposits with their state in words, newest first, from the
// service (core's listTransactions through the relay; refetched when the window regains focus).
// Each opens its receipt; a payment that waits for confirmation can be confirmed from here.
import { useTransactions } from "@signet/react";
import { useEffect, useState } from "react";
import type { DemoProfile } from "./demoApi.js";
import { isMoving, type Movement, newestFirst, stateInWords } from "./movements.js";
import { Receipt } from "./Receipt.js";
import { ErrorNote, formatMoney, when } from "./ui.js";

export function Activity({ onConfirm }: { profile: DemoProfile; onConfirm: () => void }) {
  const list = useTransactions({});
  const [open, setOpen] = useState<string>();
  const items = list.data ? newestFirst(list.data.transactions) : undefined;
  const { refetch } = list;
  // While something settles, look again every few seconds.
  const moving = items?.some((t) => isMoving(t.status));
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => void refetch(), 3_000);
    return () => clearInterval(timer);
  }, [moving, refetch]);

  return (
    <section className="card" aria-labelledby="activity-title">
      <div className="row spread">
        <h1 id="activity-title">Activity</h1>
        <button
          type="button"
          className="secondary"
          disabled={list.isFetching}
          onClick={() => void refetch()}
        >
          {list.isFetching ? "Loading…" : "Refresh"}
        </button>
      </div>
      <ErrorNote error={list.error} title="Could not load the activity" />
      {items?.length === 0 && <p className="muted">No payments or deposits yet.</p>}
      {items === undefined && !list.error && <p aria-live="polite">Loading…</p>}
      <ul className="list" aria-label="Payments and deposits">
        {(items ?? []).map((t) => (
          <Row
            key={t.id}
            item={t}
            open={open === t.id}
            onToggle={() => setOpen(open === t.id ? undefined : t.id)}
            onConfirm={onConfirm}
          />
        ))}
      </ul>
    </section>
  );
}

function Row({
  item: t,
  open,
  onToggle,
  onConfirm,
}: {
  item: Movement;
  open: boolean;
  onToggle: () => void;
  onConfirm: () => void;
}) {
  const out = t.direction === "out";
  const money = out ? t.sent : t.received;
  const what = out ? "Sent to Demo Payee" : "Added to the wallet";
  const amount = `${out ? "−" : "+"}${formatMoney(money?.amount, money?.currency)}`;
  return (
    <li className="list-item list-item-stack" data-testid="activity-item">
      <div className="row spread activity-row">
        <div>
          <strong>{what}</strong>
          <div className="muted small">
            {when(t.createdAt)} · <span data-testid="activity-state">{stateInWords(t.status)}</span>
          </div>
        </div>
        <div className={`amount ${out ? "amount-out" : "amount-in"}`}>{amount}</div>
      </div>
      <div className="row wrap">
        <button
          type="button"
          className="link"
          aria-expanded={open}
          aria-label={`Receipt: ${what}, ${amount}, ${when(t.createdAt)}`}
          onClick={onToggle}
        >
          {open ? "Hide the receipt" : "Receipt"}
        </button>
        {t.status === "PENDING_AUTHORIZATION" && (
          <button type="button" className="primary" onClick={onConfirm}>
            Confirm the payment
          </button>
        )}
      </div>
      {open && <Receipt movement={t} />}
    </li>
  );
}
