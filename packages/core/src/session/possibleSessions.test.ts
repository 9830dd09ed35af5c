// The keys of sessions a lost answer may have made: kept beside the held sessions in the key store,
// per account, and never taken for a held session.
import { describe, expect, it } from "vitest";
import { createClient, createMemoryKeyStore } from "../index.js";
import {
  forgetPossibleSession,
  listPossibleSessions,
  notePossibleSession,
} from "./possibleSessions.js";

const ACCOUNT = "InternalAccount:11111111-1111-4111-8111-111111111111";
const OTHER = "InternalAccount:22222222-2222-4222-8222-222222222222";
const CREDENTIAL = "AuthMethod:33333333-3333-4333-8333-333333333333";

describe("possible sessions", () => {
  it("are noted with their key, listed per account oldest first, and forgotten by public key", async () => {
    const keyStore = createMemoryKeyStore();
    const client = createClient({ relayUrl: "https://app.example/api/grid", keyStore });
    const first = await client.crypto.generateSigningKey();
    const second = await client.crypto.generateSigningKey();
    const elsewhere = await client.crypto.generateSigningKey();
    await notePossibleSession(client, { accountId: ACCOUNT, sinceMs: 2_000, key: second });
    await notePossibleSession(client, {
      accountId: ACCOUNT,
      credentialId: CREDENTIAL,
      sinceMs: 1_000,
      key: first,
    });
    // Noting the same key again keeps one note.
    await notePossibleSession(client, {
      accountId: ACCOUNT,
      credentialId: CREDENTIAL,
      sinceMs: 1_000,
      key: first,
    });
    await notePossibleSession(client, { accountId: OTHER, sinceMs: 500, key: elsewhere });

    const listed = await listPossibleSessions(client, ACCOUNT);
    expect(listed.map((entry) => [entry.sinceMs, entry.credentialId, entry.key.publicKey])).toEqual(
      [
        [1_000, CREDENTIAL, first.publicKey],
        [2_000, undefined, second.publicKey],
      ],
    );
    // The restored key signs as the one noted (the stamp names its public key).
    const stamp = await client.crypto.stampPayload("payload", listed[0]!.key);
    expect(JSON.parse(Buffer.from(stamp, "base64url").toString("utf8")).publicKey).toBe(
      first.publicKey,
    );

    // A note is not a held session: the session store ignores it.
    await client.sessions.load();
    expect(client.sessions.getSnapshot()).toEqual({});

    await forgetPossibleSession(client, ACCOUNT, first.publicKey);
    expect((await listPossibleSessions(client, ACCOUNT)).map((e) => e.sinceMs)).toEqual([2_000]);
    expect((await listPossibleSessions(client, OTHER)).map((e) => e.sinceMs)).toEqual([500]);
    await forgetPossibleSession(client, ACCOUNT, second.publicKey);
    await forgetPossibleSession(client, OTHER, elsewhere.publicKey);
    expect(await keyStore.list()).toEqual([]);
  });

  it("drops a note whose key can no longer be read", async () => {
    const keyStore = createMemoryKeyStore();
    const client = createClient({ relayUrl: "https://app.example/api/grid", keyStore });
    const key = await client.crypto.generateSigningKey();
    await notePossibleSession(client, { accountId: ACCOUNT, sinceMs: 1, key });
    const [id] = await keyStore.list();
    await keyStore.set(id!, { type: "scalar", privateKey: "00", publicKey: key.publicKey });
    expect(await listPossibleSessions(client, ACCOUNT)).toEqual([]);
    expect(await keyStore.list()).toEqual([]);
  });
});
