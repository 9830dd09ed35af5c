// Activity: payments and deposits with their state in words, each with its receipt.
import type { TransactionJson } from "@signet/core";
import { useTransactions } from "@signet/react";
import { useState } from "react";
import { Text, View } from "react-native";
import { formatMoney, stateInWords, when } from "../format";
import { Button, ErrorNote, styles } from "../ui";

type Money = { amount: number; currency?: { code: string; decimals: number; symbol?: string } };

export function Activity({ onConfirm }: { onConfirm: () => void }) {
  const list = useTransactions({});
  const [open, setOpen] = useState<string>();
  const items = [...(list.data?.transactions ?? [])].sort((a, b) =>
    String(b.createdAt).localeCompare(String(a.createdAt)),
  );
  return (
    <View style={{ gap: 10 }}>
      <Button
        title={list.isFetching ? "Loading…" : "Refresh"}
        kind="secondary"
        onPress={() => void list.refetch()}
      />
      <ErrorNote error={list.error} title="Could not load the activity" />
      {list.isSuccess && items.length === 0 ? (
        <Text style={styles.muted}>No payments or deposits yet.</Text>
      ) : null}
      {items.map((t) => (
        <Row
          key={t.id}
          item={t}
          open={open === t.id}
          onToggle={() => setOpen(open === t.id ? undefined : t.id)}
          onConfirm={onConfirm}
        />
      ))}
    </View>
  );
}

function Row({
  item: t,
  open,
  onToggle,
  onConfirm,
}: {
  item: TransactionJson;
  open: boolean;
  onToggle: () => void;
  onConfirm: () => void;
}) {
  const out = t.direction === "DEBIT";
  const money = (out ? t.sentAmount : t.receivedAmount) as Money | undefined;
  const what = out ? "Sent to Demo Payee" : "Added to the wallet";
  const amount = `${out ? "−" : "+"}${formatMoney(money?.amount, money?.currency as never)}`;
  return (
    <View style={styles.section} testID="activity-item" accessibilityLabel={`${what} ${amount}`}>
      <Text style={styles.heading}>
        {what} {amount}
      </Text>
      <Text style={styles.muted}>
        {when(t.createdAt as string | undefined)} · {stateInWords(t.status)}
      </Text>
      <View style={styles.row}>
        <Button title={open ? "Hide the receipt" : "Receipt"} kind="secondary" onPress={onToggle} />
        {t.status === "PENDING_AUTHORIZATION" ? (
          <Button title="Confirm the payment" onPress={onConfirm} />
        ) : null}
      </View>
      {open ? (
        <View style={styles.note} testID="activity-receipt">
          <Text>{out ? "To Demo Payee (bank account ••6789)" : "From test funds (sandbox)"}</Text>
          <Text>Amount {formatMoney(money?.amount, money?.currency as never)}</Text>
          <Text>Status {stateInWords(t.status)}</Text>
          <Text>
            {typeof t.settledAt === "string"
              ? `Settled ${new Date(t.settledAt).toLocaleString()}`
              : `Started ${when(t.createdAt as string | undefined)}`}
          </Text>
          <Text selectable>Transaction {t.id}</Text>
        </View>
      ) : null}
    </View>
  );
}
