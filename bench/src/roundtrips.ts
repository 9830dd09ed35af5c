// Round trips per flow, read from the emulator's request log: the client talks to the emulator
// directly (platform credentials standing in for the relay), so every logged request is the
// device's own. Each flow is compared with the protocol's minimum (docs/protocol.md §2–§3).
import * as core from "@signet/core";
import { sandboxIdToken } from "../../test/support/oidc.js";
import { passkeyUser, registrationChallenge } from "../../test/support/signIn.js";
import { startStack } from "../../test/support/stack.js";
import type { Section } from "./report.js";

export async function roundTrips(): Promise<Section> {
  const stack = await startStack({ settlementDelayMs: 10 });
  try {
    const user = await stack.signUp(`bench-${Date.now()}@example.com`);
    const { quoteId } = await stack.walletQuote(user);
    const card = await stack.platform<{ id: string }>("POST", "/cards", {
      cardholderId: user.customerId,
      fundingSources: [user.accountId],
      form: "VIRTUAL",
    });
    const { client } = stack.directClient();
    const { accountId } = user;
    const ids: Record<string, string> = {};
    const flows: [string, number, () => Promise<unknown>][] = [
      [
        "email OTP sign-in",
        3,
        async () => {
          const otp = await core.requestOtp(client, { credentialId: user.emailCredentialId });
          await core.verifyOtp(client, { ...otp, otpCode: "000000" });
        },
      ],
      ["export wallet", 2, () => core.exportWallet(client, { accountId })],
      [
        "add passkey",
        2,
        async () => {
          ids.passkey = (
            await core.addPasskey(client, {
              accountId,
              nickname: "Bench",
              challenge: registrationChallenge(),
              rp: { id: "localhost", name: "Bench" },
              user: passkeyUser("bench"),
            })
          ).id;
        },
      ],
      [
        // Challenge and verify, then the refresh that proves the session is the device's key's.
        "passkey sign-in",
        4,
        async () => {
          ids.passkeySession = (
            await core.signInWithPasskey(client, { credentialId: ids.passkey! })
          ).id;
        },
      ],
      [
        "add OAuth credential",
        2,
        async () => {
          ids.oauth = (
            await core.addCredential(client, {
              accountId,
              type: "OAUTH",
              oidcToken: sandboxIdToken({ sub: "bench" }),
            })
          ).id;
        },
      ],
      [
        "OAuth sign-in",
        1,
        () =>
          core.signInWithOAuth(client, {
            credentialId: ids.oauth!,
            getIdToken: async ({ nonce }) => sandboxIdToken({ sub: "bench", nonce }),
          }),
      ],
      ["refresh session", 2, () => core.refreshSession(client, { accountId })],
      [
        "revoke another session",
        2,
        () => core.revokeSession(client, { accountId, sessionId: ids.passkeySession! }),
      ],
      [
        "revoke credential",
        2,
        () => core.revokeCredential(client, { accountId, credentialId: ids.oauth!, type: "OAUTH" }),
      ],
      [
        "execute quote",
        1,
        async () => {
          const quote = await core.getQuote(client, { quoteId });
          await stack.clearRequests(); // the read is not part of the execute
          await core.executeQuote(client, { quote });
        },
      ],
      [
        "create delegated key",
        3,
        () =>
          core.createDelegatedKey(client, { accountId, cardId: card.body.id, nickname: "Bench" }),
      ],
      ["sign out", 2, () => core.signOut(client, { accountId })],
    ];
    const rows: (string | number)[][] = [];
    const targets: Section["targets"] = [];
    for (const [name, minimum, run] of flows) {
      await stack.clearRequests();
      await run();
      const made = (await stack.requests()).length;
      rows.push([name, made, minimum, made === minimum ? "yes" : "**no**"]);
      targets.push({
        label: `${name}: requests made = protocol minimum`,
        value: made,
        unit: "",
        kind: "equal",
        bound: minimum,
      });
    }
    return {
      title: "Round trips per flow",
      method:
        "Each flow runs once through `@signet/core` against the emulator over HTTP on 127.0.0.1; the requests it made are counted from the emulator's request log and compared with the protocol's minimum.",
      table: { columns: ["flow", "requests made", "protocol minimum", "equal"], rows },
      targets,
      charts: [],
    };
  } finally {
    await stack.close();
  }
}
