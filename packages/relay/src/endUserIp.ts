// The end user's IP address in an SCA authorization (docs/protocol.md §9): the relay sees the
// user's connection, the device does not reliably know its public address.
import { RelayRefusal } from "./errors.js";
import { PEER_ADDRESS } from "./lazyRequest.js";

// IPv4 dotted quad, or IPv6 (hex groups and colons, an IPv4 tail allowed); no zone, no port.
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 =
  /^[0-9A-Fa-f:]{2,39}(:(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})?$/;

/** Whether `value` reads as an IPv4 or IPv6 address. */
function isIpAddress(value: string): boolean {
  return IPV4.test(value) || (value.includes(":") && IPV6.test(value));
}

/** Asks the app's option for the address; an answer that is not an IP address counts as none. */
export async function endUserIp(
  option: (request: Request) => string | undefined | Promise<string | undefined>,
  request: Request,
): Promise<string | undefined> {
  let address: unknown;
  try {
    address = await option(request);
  } catch {
    throw new RelayRefusal("INTERNAL_ERROR", "The end user's address could not be resolved.");
  }
  if (typeof address !== "string") return undefined;
  // An IPv4 peer of a dual-stack socket reads `::ffff:203.0.113.7`: the service gets the IPv4 form.
  const plain = address.trim().replace(/^::ffff:(?=\d+\.)/i, "");
  return isIpAddress(plain) ? plain : undefined;
}

/**
 * The authorization body with `endUserIpAddress` set to the relay's value, or removed when it has
 * none: with the option on, an address the device claims is never passed on. The body was
 * checked as a strict JSON object before.
 */
export function withEndUserIp(
  body: Uint8Array<ArrayBuffer>,
  address: string | undefined,
): Uint8Array<ArrayBuffer> {
  const json = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
  delete json.endUserIpAddress;
  if (address !== undefined) json.endUserIpAddress = address;
  return new TextEncoder().encode(JSON.stringify(json)) as Uint8Array<ArrayBuffer>;
}

/** Whether a body (a strict JSON object, checked before) names an `endUserIpAddress` string. */
export function hasEndUserIp(body: Uint8Array<ArrayBuffer>): boolean {
  const json = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
  return typeof json.endUserIpAddress === "string" && json.endUserIpAddress !== "";
}

/**
 * The relay's refusal of a request whose `endUserIpAddress` the service requires and the relay
 * cannot give: the `endUserIpAddress` option is `"not configured"`, or gave `"no address"` for
 * this request. The request is not forwarded.
 */
export function missingEndUserIp(reason: "not configured" | "no address"): RelayRefusal {
  return new RelayRefusal(
    "RELAY_MISCONFIGURED",
    reason === "not configured"
      ? "The relay is not configured with the end user's address (createRelay's endUserIpAddress), which an SCA login needs."
      : "The relay's endUserIpAddress option gave no IP address for this request, which an SCA login needs.",
    { option: "endUserIpAddress", reason },
  );
}

const peers = new WeakMap<Request, string>();

/** Remembers the peer address of a request that `toNodeHandler` built. */
export function rememberRemoteAddress(request: Request, address: string | undefined): void {
  if (address !== undefined) peers.set(request, address);
}

/**
 * The address of the connection a request came in on, when `toNodeHandler` built it; `undefined`
 * otherwise. Pass it as `createRelay({ endUserIpAddress: nodeRemoteAddress })` when the relay
 * faces users directly; behind a proxy, read the proxy's header instead.
 *
 * @example
 * createServer(toNodeHandler(createRelay({ …, endUserIpAddress: nodeRemoteAddress })));
 */
export function nodeRemoteAddress(request: Request): string | undefined {
  // The stand-in toNodeHandler's native path hands out carries it (lazyRequest.ts).
  const carried = (request as { [PEER_ADDRESS]?: unknown })[PEER_ADDRESS];
  return typeof carried === "string" ? carried : peers.get(request);
}
