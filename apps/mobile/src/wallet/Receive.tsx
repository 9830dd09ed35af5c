// Receive: the wallet's details in words and a QR code of its address, drawn with Views from the
// modules `qr` computes (no native SVG module needed).
import encodeQR from "qr";
import { useEffect, useMemo, useState } from "react";
import { Text, View } from "react-native";
import { type DemoReceive, demoApi } from "../demoApi";
import { ErrorNote, styles } from "../ui";

const FIELD_NAMES: Record<string, string> = {
  assetType: "Currency",
  address: "Address",
  accountNumber: "Account number",
  routingNumber: "Routing number",
  bankName: "Bank",
  reference: "Reference",
};
const KINDS: Record<string, string> = {
  SPARK_WALLET: "Spark wallet",
  USD_ACCOUNT: "US bank account",
};

export function Receive() {
  const [details, setDetails] = useState<DemoReceive>();
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    demoApi.receive().then(setDetails, setError);
  }, []);
  const rows: Array<[string, string]> = [];
  if (details) {
    rows.push(["Holder", details.holder], ["Wallet", details.accountId]);
    for (const i of details.instructions ?? [])
      for (const [key, value] of Object.entries(i.accountOrWalletInfo ?? {})) {
        if (key === "accountType") rows.push(["Kind", KINDS[String(value)] ?? "Account"]);
        else if (FIELD_NAMES[key] && (typeof value === "string" || typeof value === "number"))
          rows.push([FIELD_NAMES[key], String(value)]);
      }
  }
  const scan = rows.find(([label]) => label === "Address")?.[1] ?? details?.accountId;
  return (
    <View style={{ gap: 10 }}>
      <Text style={styles.muted}>
        Give these details to whoever pays you, or let their wallet scan the code.
      </Text>
      <ErrorNote error={error} title="Could not load the wallet's details" />
      {scan ? <Qr text={scan} /> : null}
      {rows.map(([label, text]) => (
        <Text key={`${label}-${text}`} selectable>
          {label}: {text}
        </Text>
      ))}
    </View>
  );
}

/** One row of Views per line of modules; the quiet zone is part of the matrix. */
function Qr({ text }: { text: string }) {
  // Each module's place is its identity: the rows and cells carry it as their key.
  const rows = useMemo(
    () =>
      encodeQR(text, "raw", { ecc: "medium", border: 4 }).map((row, y) => ({
        id: `row-${y}`,
        cells: row.map((dark, x) => ({ id: `cell-${y}-${x}`, dark })),
      })),
    [text],
  );
  const size = 5;
  return (
    <View
      accessible
      accessibilityRole="image"
      accessibilityLabel={`QR code of this wallet's address: ${text}`}
      testID="qr"
      style={{ alignSelf: "flex-start", backgroundColor: "#fff" }}
    >
      {rows.map((row) => (
        <View key={row.id} style={{ flexDirection: "row" }}>
          {row.cells.map((cell) => (
            <View
              key={cell.id}
              style={{ width: size, height: size, backgroundColor: cell.dark ? "#000" : "#fff" }}
            />
          ))}
        </View>
      ))}
    </View>
  );
}
