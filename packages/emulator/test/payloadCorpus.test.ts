// docs/protocol.md §11: the emulator writes every payload to sign in the service's dialect. For each
// entry of the corpus of the service's own words (packages/test/corpus), the emulator's builder, given
// the entry's request, must write the same activity type, the same keys in the same order at every
// level, and values of the same JSON kinds; values themselves differ (the emulator's organization,
// ids and time). So the suites that run against the emulator exercise the service's dialect, and a
// shape the documents correct is corrected here first.
import { describe, expect, it } from "vitest";
import { type CorpusEntry, loadCorpus } from "../../test/src/corpus.js";
import { type OpenedOtp, otpVerificationToken } from "../src/auth/otp.js";
import { decodeJwt, generateKeyPair, toHex } from "../src/crypto/index.js";
import type { RequestContext } from "../src/http/context.js";
import {
  addOAuthPayload,
  addPasskeyPayload,
  contactPayload,
  delegatedKeyPayload,
  exportWalletPayload,
  quotePayload,
  refreshSessionPayload,
  revokeCredentialPayload,
  revokeSessionPayload,
  walletPrivacyPayload,
} from "../src/payloads.js";
import type { Runtime } from "../src/runtime.js";
import type { CredentialRecord } from "../src/state.js";

const NOW = Date.parse("2026-04-08T15:30:00Z");
const rt = { keys: { organizationId: "org_emulator" } } as unknown as Runtime;
const ctx = { rt, now: () => NOW } as unknown as RequestContext;
const corpus = loadCorpus();
const byId = (id: string) => corpus.entries.find((e) => e.id === id) as CorpusEntry;

/** The shape of a JSON value: object keys in order, array entries, and the kind of each leaf. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === "object")
    return Object.entries(value).map(([key, entry]) => [key, shape(entry)]);
  return value === null ? "null" : typeof value;
}

/** A field of the request an entry documents. */
const sent = (id: string, name: string) =>
  String((byId(id).request?.body as Record<string, unknown> | undefined)?.[name]);
const ACCOUNT = "InternalAccount:019542f5-b3e7-1d02-0000-000000000002";

/** Each entry's payload as the emulator writes it for the entry's request. */
const emulated: [id: string, leg: number, make: () => string][] = [
  [
    "openapi/updateCustomerById/embeddedWalletEmailUpdate",
    0,
    () =>
      contactPayload(ctx, ACCOUNT, {
        email: sent("openapi/updateCustomerById/embeddedWalletEmailUpdate", "email"),
      }),
  ],
  [
    "openapi/updateCustomerById/embeddedWalletPhoneUpdate",
    0,
    () =>
      contactPayload(ctx, ACCOUNT, {
        phoneNumber: sent("openapi/updateCustomerById/embeddedWalletPhoneUpdate", "phoneNumber"),
      }),
  ],
  [
    // #853's contact-change resource: the same activity as the PATCH, for the change's value.
    "pr853/createContactChange/email",
    0,
    () =>
      contactPayload(ctx, ACCOUNT, {
        email: sent("pr853/createContactChange/email", "value"),
      }),
  ],
  [
    "openapi/updateInternalAccount/challenge",
    0,
    () => walletPrivacyPayload(ctx, { id: ACCOUNT, address: "sp1qemulator" }, true),
  ],
  [
    "openapi/createAuthCredential/emailOtp",
    0,
    () => contactPayload(ctx, ACCOUNT, { email: "jane@example.com" }),
  ],
  [
    "openapi/createAuthCredential/smsOtp",
    0,
    () => contactPayload(ctx, ACCOUNT, { phoneNumber: "+14155550123" }),
  ],
  [
    "openapi/createAuthCredential/oauth",
    0,
    () =>
      addOAuthPayload(
        ctx,
        ACCOUNT,
        sent("openapi/createAuthCredential/oauth", "oidcToken"),
        "https://accounts.google.com",
      ),
  ],
  [
    "openapi/createAuthCredential/passkey",
    0,
    () => {
      const request = byId("openapi/createAuthCredential/passkey").request?.body as {
        nickname: string;
        challenge: string;
        attestation: {
          credentialId: string;
          clientDataJson: string;
          attestationObject: string;
          transports: string[];
        };
      };
      return addPasskeyPayload(ctx, ACCOUNT, {
        nickname: request.nickname,
        challenge: request.challenge,
        attestation: request.attestation,
        transports: request.attestation.transports,
      });
    },
  ],
  [
    "openapi/refreshAuthSession/challenge",
    0,
    () =>
      refreshSessionPayload(ctx, sent("openapi/refreshAuthSession/challenge", "clientPublicKey")),
  ],
  [
    "guides/managing-sessions/refresh",
    0,
    () => refreshSessionPayload(ctx, sent("guides/managing-sessions/refresh", "clientPublicKey")),
  ],
  [
    "guides/exporting-wallet/challenge",
    0,
    () =>
      exportWalletPayload(
        ctx,
        ACCOUNT,
        sent("guides/exporting-wallet/challenge", "clientPublicKey"),
      ),
  ],
  [
    "guides/managing-sessions/revoke",
    0,
    () =>
      revokeSessionPayload(ctx, {
        id: "Session:019542f5-b3e7-1d02-0000-000000000003",
        accountId: ACCOUNT,
      }),
  ],
  [
    "guides/authentication/revoke-credential",
    0,
    () =>
      revokeCredentialPayload(ctx, {
        id: "AuthMethod:019542f5-b3e7-1d02-0000-000000000001",
        accountId: ACCOUNT,
        type: "PASSKEY",
      }),
  ],
  [
    "derived/revokeCredential/oauth",
    0,
    () =>
      revokeCredentialPayload(ctx, {
        id: "AuthMethod:019542f5-b3e7-1d02-0000-000000000001",
        accountId: ACCOUNT,
        type: "OAUTH",
      }),
  ],
  [
    "openapi/PaymentEmbeddedWalletInfo/payloadToSign",
    0,
    () =>
      quotePayload(rt, NOW, {
        id: "Quote:019542f5-b3e7-1d02-0000-000000000006",
        sourceAccountId: ACCOUNT,
        destination: "ExternalAccount:a12dcbd6-dced-4ec4-b756-3c3a9ea3d123",
        amount: 10_000_000,
        currency: "USDB",
      }),
  ],
  ...([0, 1] as const).map(
    (leg) =>
      [
        "derived/createDelegatedKey",
        leg,
        () =>
          delegatedKeyPayload(ctx, leg === 0 ? 1 : 2, {
            accountId: ACCOUNT,
            cardId: "Card:019542f5-b3e7-1d02-0000-000000000010",
            nickname: "Card payments key",
            publicKey: "02a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
          }),
      ] as [string, number, () => string],
  ),
];

/** The payload to sign the entry documents for a leg. */
function documented(e: CorpusEntry, leg: number): string {
  if (e.operation === "executeQuote") {
    const quote = e.quote as {
      paymentInstructions: { accountOrWalletInfo: { payloadToSign: string } }[];
    };
    return quote.paymentInstructions[0]!.accountOrWalletInfo.payloadToSign;
  }
  return e.challenges[leg]!.payloadToSign;
}

describe("the emulator writes each payload in the shape the service's documents show", () => {
  it.each(
    emulated.map(
      ([id, leg, make]) => [`${id}${leg ? ` (leg ${leg + 1})` : ""}`, id, leg, make] as const,
    ),
  )("%s", (_name, id, leg, make) => {
    const theirs = JSON.parse(documented(byId(id), leg)) as { type: string };
    const ours = JSON.parse(make()) as { type: string };
    expect(ours.type).toBe(theirs.type);
    expect(shape(ours)).toEqual(shape(theirs));
  });

  it("covers every replayable entry of the corpus that the emulator issues", () => {
    const covered = new Set(emulated.map(([id]) => id));
    const issued = corpus.entries.filter(
      (e) =>
        e.kind === undefined &&
        !["verifyOtp", "signInWithPasskey"].includes(e.operation ?? "") &&
        e.challenges.length + (e.quote ? 1 : 0) > 0,
    );
    expect(issued.map((e) => e.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  it("the OTP verification token leads with the documented header fields and claims, in order", () => {
    const theirs = decodeJwt(
      byId("openapi/verifyAuthCredential/emailOtp").challenges[0]!.payloadToSign,
    );
    const tek = generateKeyPair();
    const ours = decodeJwt(
      otpVerificationToken(
        { clock: { now: () => NOW }, keys: { token: generateKeyPair() } } as unknown as Runtime,
        {
          id: "AuthMethod:019542f5-b3e7-1d02-0000-000000000001",
          type: "EMAIL_OTP",
        } as CredentialRecord,
        { tekPublicKey: toHex(tek.publicKeyUncompressed) } as OpenedOtp,
        "Request:7c4a8d09-ca37-4e3e-9e0d-8c2b3e9a1f21",
        NOW + 300_000,
      ),
    );
    expect(theirs && ours).toBeTruthy();
    const documentedClaims = Object.keys(theirs!.payload);
    expect(Object.keys(ours!.payload).slice(0, documentedClaims.length)).toEqual(documentedClaims);
    expect(typeof ours!.payload.sub).toBe(typeof theirs!.payload.sub);
    expect(String(ours!.payload.sub)).toHaveLength(String(theirs!.payload.sub).length);
    // Every documented header field, in order (the emulator adds `typ`).
    const header = Object.keys(ours!.header);
    expect(Object.keys(theirs!.header).map((key) => header.indexOf(key))).toEqual(
      [...Object.keys(theirs!.header).map((key) => header.indexOf(key))].sort(),
    );
    expect(Object.keys(theirs!.header).every((key) => header.includes(key))).toBe(true);
    expect(ours!.header.alg).toBe(theirs!.header.alg);
  });
});
