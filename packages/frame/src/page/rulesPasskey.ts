// The frame's passkey rules (README "Passkeys"): the registration options a page may ask the frame
// to create a passkey with, what the frame shows before it does, and the check of the signed add
// of a passkey, which the frame makes only for an attestation its own ceremony got from the
// browser. Core's add check (`addPasskeyPayload`) is imported from core's action file when a
// passkey add is first asked for (it brings the passkey code along, which the page need not load
// up front).

import type { CheckPayload } from "../../../core/src/transport/payloadCheck.js";
import type {
  RegistrationOptionsJSON,
  RegistrationResponseJSON,
} from "../../../core/src/webauthn/types.js";
import type { ConfirmRow } from "./confirm.js";
import { owner } from "./ruleOwner.js";

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const text = (value: unknown, max = 256): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= max;

/**
 * The registration options of a `register` request, read field by field into a fresh object (so
 * that nothing the page added, such as extensions, reaches the browser), or `undefined` when they
 * are not core's `RegistrationOptionsJSON` of a passkey add (a challenge of at least 16 base64url
 * characters, ES256 offered, user verification required). The credentials to exclude are kept
 * (ids only, without transports); the attestation asked for is always `none`.
 */
export function readRegistrationOptions(json: string): RegistrationOptionsJSON | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const options = parsed as Record<string, unknown>;
  const rp = options.rp as Record<string, unknown> | undefined;
  const user = options.user as Record<string, unknown> | undefined;
  const selection = options.authenticatorSelection as Record<string, unknown> | undefined;
  const params = options.pubKeyCredParams;
  if (!rp || !text(rp.name) || (rp.id !== undefined && !text(rp.id))) return undefined;
  if (!user || !text(user.id, 128) || !BASE64URL.test(user.id)) return undefined;
  if (!text(user.name) || !text(user.displayName)) return undefined;
  if (!text(options.challenge, 1024) || !BASE64URL.test(options.challenge)) return undefined;
  if (options.challenge.length < 16) return undefined;
  if (!Array.isArray(params) || !params.some((p) => p?.type === "public-key" && p?.alg === -7))
    return undefined;
  if (selection?.userVerification !== "required") return undefined;
  const timeout = options.timeout;
  const residentKey = selection.residentKey;
  // The passkeys the relying party already holds, so that the authenticator makes no second one.
  const excluded = options.excludeCredentials;
  if (excluded !== undefined && !Array.isArray(excluded)) return undefined;
  const excludeCredentials = (excluded ?? []).map((entry: unknown) => {
    const id = (entry as { id?: unknown } | null)?.id;
    return text(id, 1024) && BASE64URL.test(id) ? { id, type: "public-key" as const } : undefined;
  });
  if (excludeCredentials.some((entry) => entry === undefined) || excludeCredentials.length > 64)
    return undefined;
  return {
    rp: { name: rp.name, ...(rp.id === undefined ? {} : { id: rp.id as string }) },
    user: { id: user.id, name: user.name, displayName: user.displayName },
    challenge: options.challenge,
    pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    ...(typeof timeout === "number" && timeout > 0 && timeout <= 600_000 ? { timeout } : {}),
    ...(excludeCredentials.length
      ? { excludeCredentials: excludeCredentials as { id: string; type: "public-key" }[] }
      : {}),
    authenticatorSelection: {
      userVerification: "required",
      ...(residentKey === "discouraged" || residentKey === "preferred" || residentKey === "required"
        ? { residentKey }
        : {}),
    },
    attestation: "none",
  };
}

/** What the frame shows before it creates a passkey: the site it is for and the user's names. */
export function registrationRows(options: RegistrationOptionsJSON): ConfirmRow[] {
  return [
    { label: "Operation", value: "Create a passkey" },
    { label: "For the site", value: options.rp.id ?? location.hostname },
    { label: "Named for", value: `${options.user.displayName} (${options.user.name})` },
  ];
}

/** The attestation a passkey add's body carries, as core's addPasskey writes it. */
type AttestationBody = { credentialId?: unknown };

/** A passkey the frame's own ceremony made: the browser's answer and the challenge it was for. */
export type MadePasskey = { registration: RegistrationResponseJSON; challenge: string };

/**
 * The check of a passkey add (core's `addPasskeyPayload`) for `accountId`: the attestation the
 * body names must be one the frame's own ceremony made (`made`), for the body's challenge, and
 * the payload must carry that attestation exactly, with the body's nickname and that challenge
 * where it names them. `undefined` when the body's attestation is not the frame's, or was made
 * for another challenge (the frame then refuses `passkey`).
 */
export function passkeyAddCheck(
  owner: object,
  accountId: string,
  body: Record<string, unknown>,
  made: (credentialId: string) => MadePasskey | undefined,
): CheckPayload | undefined {
  const attestation = body.attestation as AttestationBody | undefined;
  const credentialId = attestation?.credentialId;
  if (typeof credentialId !== "string") return undefined;
  const found = made(credentialId);
  if (!found || body.challenge !== found.challenge) return undefined;
  const { registration, challenge } = found;
  const nickname = typeof body.nickname === "string" ? body.nickname : undefined;
  return async (payload, context) =>
    (await import("../../../core/src/actions/addPasskey.js")).addPasskeyPayload(owner as never, {
      accountId,
      ...(nickname === undefined ? {} : { nickname }),
      challenge,
      credentialId: registration.rawId,
      clientDataJson: registration.response.clientDataJSON,
      attestationObject: registration.response.attestationObject,
    })(payload, context);
}

/** What a passkey add shows: the authenticator's name and credential id as the payload names them. */
export function passkeyAddRows(parameters: Record<string, unknown>): ConfirmRow[] {
  const authenticators = parameters.authenticators;
  const first = (Array.isArray(authenticators) ? authenticators[0] : undefined) as
    | { authenticatorName?: unknown; attestation?: { credentialId?: unknown } }
    | undefined;
  const name = first?.authenticatorName;
  const credentialId = first?.attestation?.credentialId;
  return [
    {
      label: "Passkey",
      value: typeof name === "string" ? name : "Not named in what is signed",
    },
    {
      label: "Credential id",
      value: typeof credentialId === "string" ? credentialId : "",
    },
  ];
}

/** `DELEGATED_KEY_CREATE` of core's createDelegatedKey.ts. */
export const DELEGATED_KEY_CREATE_ROUTE = { method: "POST", path: "/auth/delegated-keys" } as const;

/** Core's delegated-key check: one instance per creation, its first payload's key approved. */
type DelegatedCheck = CheckPayload & { delegatedPublicKey(): string | undefined };

/**
 * Creations of a delegated key whose first payload (the signer identity) the user confirmed and
 * the frame stamped, by the stamping key and the request's body: the second payload (the
 * policies) of that creation is stamped without a second tap, checked by the same instance of
 * core's check, which binds it to the key the user approved. Taken once.
 */
const approvedDelegations = new Map<string, DelegatedCheck>();

const POLICY_TYPES = new Set(["ACTIVITY_TYPE_CREATE_POLICIES", "ACTIVITY_TYPE_CREATE_POLICY_V3"]);

/** The part of a rule's input the delegated-key rule reads (rules.ts's `RuleInput`). */
type DelegationInput = {
  key: { publicKey: string };
  storedAccountId: string | undefined;
  body: Record<string, unknown> | undefined;
  payload: string;
};

/** What the delegated-key rule builds (rules.ts's `Built`). */
type DelegationBuilt =
  | {
      check: CheckPayload;
      accountId: string;
      gesture: boolean;
      rows?: ConfirmRow[];
      stamped(): void;
    }
  | "key";

const activityOf = (payload: string): Record<string, unknown> | undefined => {
  try {
    const parsed: unknown = JSON.parse(payload);
    return typeof parsed === "object" && parsed !== null
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The check of one leg of `createDelegatedKey` (core's `createDelegatedKeyPayload`, two stamps
 * with state): the body's account must be the stamping session's. A payload of the policies is
 * the second signature of a creation the user confirmed (same key, same body), checked by that
 * creation's instance, and needs no second tap; any other payload is a first signature, checked
 * by a fresh instance and confirmed with a tap that shows the card, the key's name and the key.
 */
export function buildDelegation(owner: object, input: DelegationInput): DelegationBuilt {
  const { key, storedAccountId, body, payload } = input;
  const cardId = body?.cardId;
  const nickname = body?.nickname;
  if (!storedAccountId || body?.internalAccountId !== storedAccountId) return "key";
  if (typeof cardId !== "string" || typeof nickname !== "string") return "key";
  const accountId = storedAccountId;
  const creation = `${key.publicKey}|${JSON.stringify(body)}`;
  const type = activityOf(payload)?.type;
  const approved = approvedDelegations.get(creation);
  if (approved && typeof type === "string" && POLICY_TYPES.has(type)) {
    // Taken now, not once stamped: two policy requests at once get one second signature, and
    // the other goes the first signature's way (a tap). A check that throws gives it back.
    approvedDelegations.delete(creation);
    return {
      check: async (signed, context) => {
        try {
          const verdict = await approved(signed, { ...context, signature: 2 });
          approvedDelegations.delete(creation);
          return verdict;
        } catch (error) {
          approvedDelegations.set(creation, approved);
          throw error;
        }
      },
      accountId,
      gesture: false,
      stamped: () => undefined,
    };
  }
  let instance: DelegatedCheck | undefined;
  return {
    check: async (signed, context) => {
      const { createDelegatedKeyPayload } = await import(
        "../../../core/src/actions/createDelegatedKey.js"
      );
      instance = createDelegatedKeyPayload(owner as never, { accountId, cardId, nickname });
      return instance(signed, { ...context, signature: 1 });
    },
    accountId,
    gesture: true,
    rows: delegationRows(payload, cardId, nickname),
    // Only a first payload the user confirmed and the frame stamped approves its second.
    stamped: () => {
      if (instance?.delegatedPublicKey()) approvedDelegations.set(creation, instance);
    },
  };
}

/** What a delegated key's confirmation shows: the card, its name and key, and what it may do. */
function delegationRows(payload: string, cardId: string, nickname: string): ConfirmRow[] {
  const parameters = activityOf(payload)?.parameters as Record<string, unknown> | undefined;
  const users = parameters?.users;
  const user = (Array.isArray(users) ? users[0] : undefined) as
    | { apiKeys?: Array<{ apiKeyName?: unknown; publicKey?: unknown }> }
    | undefined;
  const apiKey = user?.apiKeys?.[0];
  return [
    { label: "Card", value: cardId },
    {
      label: "Key name",
      value: typeof apiKey?.apiKeyName === "string" ? apiKey.apiKeyName : nickname,
    },
    {
      label: "Delegated key",
      value: typeof apiKey?.publicKey === "string" ? apiKey.publicKey : "",
    },
    {
      label: "It may",
      value:
        "sign for this card and revoke itself (the next payload's policies name this key only)",
    },
  ];
}

/**
 * The frame's rules of delegated keys, spread into rules.ts's table (a passkey's add shares the
 * credential route's rule there). `revokeDelegatedKey` stamps nothing (one unsigned call), so it
 * has no rule.
 */
export const PASSKEY_RULES = [
  {
    route: DELEGATED_KEY_CREATE_ROUTE,
    rule: {
      title: "Let a card spend from the wallet",
      gesture: true,
      build: (input: DelegationInput) => buildDelegation(owner, input),
    },
  },
] as const;
