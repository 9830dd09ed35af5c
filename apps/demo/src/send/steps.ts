// The payment's progress as steps, each done, in progress, failed or to do: derived from the
// payment's state alone.
import type { Step } from "../ui.js";
import type { Payment } from "./usePayment.js";

export function paymentSteps(
  p: Payment,
  quote: { overBalance: boolean; expired: boolean },
): Step[] {
  const { execute, sca, login, busy, executed, released, transactionId, status, settled, ended } =
    p;
  const failed =
    execute.isError ||
    sca.isError ||
    p.transaction.isError ||
    (status !== undefined && !settled && ended);
  const state = (done: boolean, active: boolean): Step["state"] =>
    done ? "done" : active ? (failed ? "failed" : "active") : "todo";
  const found = p.resumed !== undefined && execute.data === undefined;
  const signedNow = p.signed || found || execute.isSuccess;
  // A quote that cannot be sent (more than the balance, or expired) is not a step done.
  const quoteRefused =
    p.draft !== undefined && !execute.isSuccess && (quote.overBalance || quote.expired);
  return [
    { label: "Funds in the wallet", state: state((p.balance ?? 0) > 0 || found, busy === "fund") },
    {
      label: "Quote",
      state: quoteRefused ? "failed" : state(p.draft !== undefined || found, busy === "quote"),
    },
    ...(p.needsSca
      ? [
          {
            label: "Confirm it is you",
            state: state(
              signedNow || (login.isSuccess && !login.isPending),
              busy === "login" || login.isError,
            ),
          },
        ]
      : []),
    {
      label: "Sign on this device",
      state: state(
        signedNow,
        execute.stage === "challenge" ||
          execute.stage === "signing" ||
          (execute.isError && !p.signed),
      ),
    },
    {
      label: "Execute",
      state: state(execute.isSuccess || found, execute.isPending || (execute.isError && p.signed)),
    },
    ...(p.needsSca
      ? [
          {
            label: "Confirm the payment",
            state: state(
              released !== undefined,
              executed?.status === "PENDING_AUTHORIZATION" || sca.isPending || sca.isError,
            ),
          },
        ]
      : []),
    { label: "Settle", state: state(settled, transactionId !== undefined) },
  ];
}
