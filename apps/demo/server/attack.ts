// The demo's attack switch (`DEMO_ATTACK`, or the server's `attack` option): the demo server plays
// a compromised backend. The relay's upstream fetch rewrites one kind of request body on its way
// to the service (every leg alike), and the device is expected to refuse the payload it is then
// asked to sign with PAYLOAD_MISMATCH. For demonstrations and tests only; off by default.
import { createECDH } from "node:crypto";

export const DEMO_ATTACKS = ["export-key", "refresh-key", "email"] as const;
export type DemoAttack = (typeof DEMO_ATTACKS)[number];

/** The address the `email` attack puts into the customer's contact update. */
export const ATTACKER_EMAIL = "attacker@example.com";

/** Reads `DEMO_ATTACK`: unset or empty is off; anything but a known attack is an error. */
export function parseDemoAttack(value: string | undefined): DemoAttack | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const attack = value.trim();
  if ((DEMO_ATTACKS as readonly string[]).includes(attack)) return attack as DemoAttack;
  throw new Error(`DEMO_ATTACK must be one of ${DEMO_ATTACKS.join(", ")} (or unset).`);
}

/** What the attack does, for the startup warning. */
export function describeAttack(attack: DemoAttack): string {
  switch (attack) {
    case "export-key":
      return "wallet export requests get the attacker's clientPublicKey";
    case "refresh-key":
      return "session refresh requests get the attacker's clientPublicKey";
    case "email":
      return `customer contact updates get the email ${ATTACKER_EMAIL}`;
  }
}

/** The loud line the server prints when the switch is on. */
export function attackWarning(attack: DemoAttack): string {
  return [
    "",
    "!!! DEMO_ATTACK=" + attack + ": this demo server plays a COMPROMISED BACKEND.",
    `!!! The relay rewrites requests on their way to the service: ${describeAttack(attack)}.`,
    "!!! The device should refuse with PAYLOAD_MISMATCH. Unset DEMO_ATTACK for a normal demo.",
    "",
  ].join("\n");
}

/** A fresh P-256 public key of the attacker's, in both hex forms the device sends. */
function attackerKey(): { compressed: string; uncompressed: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    compressed: ecdh.getPublicKey("hex", "compressed"),
    uncompressed: ecdh.getPublicKey("hex", "uncompressed"),
  };
}

// One attacker key per process, so that every leg of one operation carries the same key.
let attackerKeys: { compressed: string; uncompressed: string } | undefined;
const keys = () => {
  attackerKeys ??= attackerKey();
  return attackerKeys;
};

/** The attacker's key in the same form as the device's (66 hex compressed, 130 uncompressed). */
const sameForm = (key: { compressed: string; uncompressed: string }, original: unknown) =>
  typeof original === "string" && original.length === 66 ? key.compressed : key.uncompressed;

type Rewrite = (body: Record<string, unknown>) => Record<string, unknown>;

/** The rewrite of one request, or `undefined` when the attack leaves it alone. */
function planFor(attack: DemoAttack, method: string, pathname: string): Rewrite | undefined {
  switch (attack) {
    case "export-key": {
      if (method !== "POST" || !/\/internal-accounts\/[^/]+\/export$/.test(pathname)) return;
      return (body) =>
        "clientPublicKey" in body
          ? { ...body, clientPublicKey: sameForm(keys(), body.clientPublicKey) }
          : body;
    }
    case "refresh-key": {
      if (method !== "POST" || !/\/auth\/sessions\/[^/]+\/refresh$/.test(pathname)) return;
      return (body) =>
        "clientPublicKey" in body
          ? { ...body, clientPublicKey: sameForm(keys(), body.clientPublicKey) }
          : body;
    }
    case "email": {
      if (method !== "PATCH" || !/\/customers\/[^/]+$/.test(pathname)) return;
      return (body) => ("email" in body ? { ...body, email: ATTACKER_EMAIL } : body);
    }
  }
}

/**
 * Wraps the relay's upstream `fetch` so that it rewrites the request bodies `attack` names before
 * they reach the service; everything else passes unchanged. `onRewrite` hears of each rewrite
 * (method and path only).
 */
export function attackFetch(
  attack: DemoAttack,
  upstream: typeof fetch,
  onRewrite?: (request: { method: string; path: string }) => void,
): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? "GET").toUpperCase();
    const rewrite = planFor(attack, method, url.pathname);
    const raw = init.body;
    if (!rewrite || !(raw instanceof Uint8Array || typeof raw === "string"))
      return upstream(input, init);
    let body: unknown;
    try {
      body = JSON.parse(typeof raw === "string" ? raw : new TextDecoder().decode(raw));
    } catch {
      return upstream(input, init);
    }
    if (typeof body !== "object" || body === null || Array.isArray(body))
      return upstream(input, init);
    const changed = rewrite(body as Record<string, unknown>);
    if (changed === body) return upstream(input, init);
    const headers = new Headers(init.headers);
    headers.delete("content-length");
    onRewrite?.({ method, path: url.pathname });
    return upstream(input, {
      ...init,
      headers,
      body: new TextEncoder().encode(JSON.stringify(changed)),
    });
  };
}
