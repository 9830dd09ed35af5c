// Node: stamp throughput with a held key and HPKE bundle work, Signet beside Turnkey's packages,
// every contender measured in this one process, interleaved run by run.
import * as core from "@signet/core";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import {
  decryptCredentialBundle,
  decryptExportBundle,
  encryptOtpCodeToBundle,
} from "@turnkey/crypto";
import { fmt, type Section, spread, times } from "./report.js";
import { compareThroughput, latencies, median, ratio } from "./stats.js";
import { barChart, lineChart } from "./svg.js";
import type { Inputs } from "./vectors.js";

export type Mode = { runs: number; timeMs: number; quick: boolean };
export type Chart = { file: string; svg: string; alt: string };

/** A payload shaped like the service's `payloadToSign` (JSON, about 300 bytes). */
export const PAYLOAD = JSON.stringify({
  requestId: "Request:6f0c1a52-8f0e-4cb8-9f4f-8d1c2b1e5a10",
  type: "EXECUTE_QUOTE",
  quoteId: "Quote:0f4b7d2e-3c1a-4e5f-9a8b-7c6d5e4f3a2b",
  sourceAccountId: "InternalAccount:7b1e2d3c-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
  amount: { value: 1_000_000, currency: "USDB" },
  createdAt: "2026-11-22T12:00:00Z",
});

export async function nodeStamps(inputs: Inputs, mode: Mode, charts: Chart[]): Promise<Section> {
  const { privateKey, publicKeyCompressed } = inputs.stampKey;
  // What `import "@signet/core"` gives a Node process (the `node` export condition).
  const nodeKey = await core.importSigningKey(privateKey);
  // The default browser path, run in Node: WebCrypto with a held non-extractable CryptoKey.
  const web = core.createCryptoApi(core.createWebCryptoBackend());
  const webKey = await web.importSigningKey(privateKey);
  const turnkeyDefault = new ApiKeyStamper({
    apiPublicKey: publicKeyCompressed,
    apiPrivateKey: privateKey,
  });
  const turnkeyWeb = new ApiKeyStamper({
    apiPublicKey: publicKeyCompressed,
    apiPrivateKey: privateKey,
    runtimeOverride: "browser",
  });
  // Every contender must produce a stamp the service accepts before it is timed.
  for (const stamp of [
    await core.stampPayload(PAYLOAD, nodeKey),
    await web.stampPayload(PAYLOAD, webKey),
    (await turnkeyDefault.stamp(PAYLOAD)).stampHeaderValue,
    (await turnkeyWeb.stamp(PAYLOAD)).stampHeaderValue,
  ]) {
    await core.verifyStamp({ stamp, payload: PAYLOAD });
  }
  const results = await compareThroughput(
    [
      {
        name: "Turnkey ApiKeyStamper (default Node path)",
        run: () => turnkeyDefault.stamp(PAYLOAD),
      },
      { name: "Turnkey ApiKeyStamper (WebCrypto path)", run: () => turnkeyWeb.stamp(PAYLOAD) },
      { name: "Signet, WebCrypto held CryptoKey", run: () => web.stampPayload(PAYLOAD, webKey) },
      {
        name: "Signet, `node` condition (held KeyObject)",
        run: () => core.stampPayload(PAYLOAD, nodeKey),
      },
    ],
    mode,
  );
  const [tkDefault, tkWeb, sgWeb, sgNode] = results as [
    (typeof results)[0],
    (typeof results)[0],
    (typeof results)[0],
    (typeof results)[0],
  ];
  charts.push({
    file: "stamp-node.svg",
    alt: "Stamps per second in Node, held key",
    svg: barChart(
      "Stamps per second in Node (held key, ~300-byte payload)",
      "stamps/s",
      results.map((r) => ({
        label: r.name.replace(/`/g, ""),
        value: r.median,
        min: r.min,
        max: r.max,
        ours: r.name.startsWith("Signet"),
      })),
    ),
  });
  return {
    title: "Stamp throughput in Node",
    method: `Stamps of a ${PAYLOAD.length}-byte JSON payload with one key held for the whole run (the session key a device or server holds). Each contender runs for ${mode.timeMs} ms, ${mode.runs} times, interleaved with the others; the ratio is taken run by run against Turnkey's default Node path and summarised by its median (min–max). Every contender's stamp is first verified.`,
    table: {
      columns: ["contender", "stamps/s, median (min–max)", "÷ Turnkey default"],
      rows: results.map((r) => [r.name, spread(r), times(ratio(r, tkDefault))]),
    },
    targets: [
      {
        label: "Signet `node` condition ÷ Turnkey ApiKeyStamper default Node path",
        value: ratio(sgNode, tkDefault).median,
        unit: "×",
        kind: "min",
        bound: 5,
      },
    ],
    charts: [{ file: "stamp-node.svg", alt: "Stamps per second in Node" }],
    notes: [
      `Signet WebCrypto ÷ Turnkey WebCrypto path: ${times(ratio(sgWeb, tkWeb))}.`,
      "Turnkey's stamper re-imports the private key from hex on every stamp; Signet signs with a key object imported once.",
    ],
  };
}

export async function nodeHpke(inputs: Inputs, mode: Mode, charts: Chart[]): Promise<Section> {
  const { targetBundle, exportBundle, legacy } = inputs;
  const tek = await core.generateSigningKey();
  const exportKey = await core.importDecryptionKey(exportBundle.recipientPrivateKey);
  const legacyKey = await core.importDecryptionKey(legacy.recipientPrivateKey);
  const trusted = [targetBundle.attestationPublicKey];
  const ops = {
    signetSeal: () =>
      core.sealOtpBundle({
        targetBundle: targetBundle.otpEncryptionTargetBundle,
        otpCode: "000000",
        publicKey: tek.publicKeyUncompressed,
        trustedKeys: trusted,
      }),
    turnkeySeal: () =>
      encryptOtpCodeToBundle(
        "000000",
        targetBundle.otpEncryptionTargetBundle,
        tek.publicKeyUncompressed,
        targetBundle.attestationPublicKey,
      ),
    signetLegacy: () => core.openSessionKeyBundle({ bundle: legacy.bundle, key: legacyKey }),
    turnkeyLegacy: async () => decryptCredentialBundle(legacy.bundle, legacy.recipientPrivateKey),
    signetExport: () =>
      core.openExportBundle({
        bundle: exportBundle.bundle,
        key: exportKey,
        organizationId: exportBundle.organizationId,
      }),
    turnkeyExport: () =>
      decryptExportBundle({
        exportBundle: exportBundle.bundle,
        embeddedKey: exportBundle.recipientPrivateKey,
        organizationId: exportBundle.organizationId,
        returnMnemonic: true,
      }),
  };
  // Correctness first: both sides open to the known answers.
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
  if (hex(await ops.signetLegacy()) !== legacy.expectedPlaintextHex) throw new Error("legacy");
  if ((await ops.turnkeyLegacy()) !== legacy.expectedPlaintextHex) throw new Error("tk legacy");
  if ((await ops.signetExport()) !== exportBundle.expectedMnemonic) throw new Error("export");
  if ((await ops.turnkeyExport()) !== exportBundle.expectedMnemonic) throw new Error("tk export");
  JSON.parse(await ops.signetSeal());
  JSON.parse(await ops.turnkeySeal());

  const pairs = [
    ["sealOtpBundle", ops.signetSeal, "encryptOtpCodeToBundle", ops.turnkeySeal],
    ["openSessionKeyBundle", ops.signetLegacy, "decryptCredentialBundle", ops.turnkeyLegacy],
    ["openExportBundle", ops.signetExport, "decryptExportBundle", ops.turnkeyExport],
  ] as const;
  const rows: (string | number)[][] = [];
  const targets: Section["targets"] = [];
  const bars = [];
  for (const [ours, runOurs, theirs, runTheirs] of pairs) {
    const [a, b] = (await compareThroughput(
      [
        { name: ours, run: runOurs },
        { name: theirs, run: runTheirs },
      ],
      mode,
    )) as [
      Awaited<ReturnType<typeof compareThroughput>>[0],
      Awaited<ReturnType<typeof compareThroughput>>[0],
    ];
    const r = ratio(a, b);
    rows.push([`Signet \`${ours}\``, spread(a), `Turnkey \`${theirs}\``, spread(b), times(r)]);
    targets.push({
      label: `Signet ${ours} ÷ Turnkey ${theirs} (Node)`,
      value: r.median,
      unit: "×",
      kind: "min",
      bound: 1,
    });
    bars.push({ label: `Signet ${ours}`, value: a.median, min: a.min, max: a.max, ours: true });
    bars.push({ label: `Turnkey ${theirs}`, value: b.median, min: b.min, max: b.max });
  }
  charts.push({
    file: "hpke-node.svg",
    alt: "HPKE operations per second in Node",
    svg: barChart("HPKE bundle operations per second in Node", "ops/s", bars),
  });
  return {
    title: "HPKE bundles in Node",
    method: `Each operation on the independent vectors (a signed OTP target bundle, the legacy session-key bundle, a production export bundle), both libraries checking signatures and opening to the known answer before timing; ${mode.runs} interleaved runs of ${mode.timeMs} ms each.`,
    table: { columns: ["Signet", "ops/s", "Turnkey", "ops/s", "Signet ÷ Turnkey"], rows },
    targets,
    charts: [{ file: "hpke-node.svg", alt: "HPKE operations per second in Node" }],
  };
}

/** How stamp time grows with the payload: 100 B to 1 MB, Signet (node) beside Turnkey. */
export async function stampScale(inputs: Inputs, mode: Mode, charts: Chart[]): Promise<Section> {
  const { privateKey, publicKeyCompressed } = inputs.stampKey;
  const key = await core.importSigningKey(privateKey);
  const turnkey = new ApiKeyStamper({
    apiPublicKey: publicKeyCompressed,
    apiPrivateKey: privateKey,
  });
  const sizes = mode.quick ? [100, 10_000, 1_000_000] : [100, 1_000, 10_000, 100_000, 1_000_000];
  const rows: (string | number)[][] = [];
  const ours: [number, number][] = [];
  const theirs: [number, number][] = [];
  for (const size of sizes) {
    const payload = JSON.stringify({ data: "x".repeat(Math.max(0, size - 11)) });
    const count = size >= 1_000_000 ? (mode.quick ? 3 : 15) : mode.quick ? 20 : 100;
    const a = median(await latencies(() => core.stampPayload(payload, key), count));
    const b = median(await latencies(() => turnkey.stamp(payload), count));
    ours.push([payload.length, a]);
    theirs.push([payload.length, b]);
    rows.push([fmt(payload.length), a.toFixed(3), b.toFixed(3), (b / a).toFixed(2) + "×"]);
  }
  charts.push({
    file: "stamp-scale.svg",
    alt: "Stamp time against payload size",
    svg: lineChart(
      "Stamp time against payload size (Node, median)",
      { x: "payload bytes", y: "ms per stamp", logY: true },
      [
        { name: "Signet (node)", points: ours },
        { name: "Turnkey default", points: theirs },
      ],
    ),
  });
  return {
    title: "Scale: stamp time against payload size",
    method:
      "Median time of one stamp (hash, sign, encode) for payloads from 100 B to 1 MB; the hashing of the payload dominates past about 100 KB.",
    table: { columns: ["payload bytes", "Signet ms", "Turnkey ms", "Signet speed-up"], rows },
    targets: [],
    charts: [{ file: "stamp-scale.svg", alt: "Stamp time against payload size" }],
  };
}
