// Which hosts the passkey checker may fetch from: by default only public ones. A checker that is
// handed a name from elsewhere (a CI variable, a form on an internal tool) must not become a way
// to read a service on the machine's own network. Address literals are judged as written; names
// are resolved first where the runtime has DNS (`node:dns`), and refused when any address they
// resolve to is not public. A name that resolves differently when the fetch itself resolves it
// (DNS rebinding) is beyond this check: restrict the egress of a server that checks untrusted names.

/** IPv4 blocks that are not the public internet (RFC 6890 and its updates), as [address, bits]. */
const V4_BLOCKS: readonly [string, number][] = [
  ["0.0.0.0", 8], // this network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

/** The 32-bit value of a dotted IPv4 address, or undefined. */
function v4(address: string): number | undefined {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) < 256))
    return undefined;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

function publicV4(value: number): boolean {
  return !V4_BLOCKS.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4(base) as number;
    return value >= start && value < start + size;
  });
}

/** The eight 16-bit groups of an IPv6 address (an IPv4 tail allowed), or undefined. */
function v6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted !== undefined) {
    const value = v4(dotted);
    if (value === undefined) return undefined;
    text = `${text.slice(0, -dotted.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const [head, tail] = [
    groups(halves[0] as string),
    halves.length === 2 ? groups(halves[1] as string) : [],
  ];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => Number.parseInt(g, 16));
}

function publicV6(groups: number[]): boolean {
  const [a = 0, b = 0] = groups;
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeros(8)) return false; // unspecified
  if (zeros(7) && groups[7] === 1) return false; // loopback
  // IPv4-mapped and IPv4-compatible addresses, and NAT64's well-known prefix: the IPv4 decides.
  const embedded = (groups[6] as number) * 65_536 + (groups[7] as number);
  if (zeros(5) && groups[5] === 0xffff) return publicV4(embedded);
  if (a === 0x64 && b === 0xff9b && groups.slice(2, 6).every((g) => g === 0))
    return publicV4(embedded);
  if (zeros(6)) return false; // IPv4-compatible (deprecated) and the rest of ::/96
  if ((a & 0xfe00) === 0xfc00) return false; // unique-local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return false; // site-local fec0::/10 (deprecated)
  if ((a & 0xff00) === 0xff00) return false; // multicast
  if (a === 0x2001 && b === 0x0db8) return false; // documentation
  if (a === 0x0100 && zeros(4)) return false; // discard-only 100::/64
  return true;
}

/** Whether an address literal (IPv4, or IPv6 with or without brackets) is public. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const four = v4(bare);
  if (four !== undefined) return publicV4(four);
  const six = v6(bare);
  return six !== undefined && publicV6(six);
}

/** Whether `text` is an IPv4 or IPv6 literal (brackets allowed). */
function isLiteral(text: string): boolean {
  const bare = text.replace(/^\[|\]$/g, "");
  return v4(bare) !== undefined || v6(bare) !== undefined;
}

/** The runtime's DNS, where it has one (Node, Deno, Bun); undefined in a browser. */
async function systemResolve(hostname: string): Promise<readonly string[] | undefined> {
  // A specifier in a variable: bundlers for the browser leave it alone, and it fails there.
  const specifier = "node:dns/promises";
  let dns: { lookup(host: string, options: { all: true }): Promise<{ address: string }[]> };
  try {
    dns = (await import(/* @vite-ignore */ specifier)) as typeof dns;
  } catch {
    return undefined;
  }
  return (await dns.lookup(hostname, { all: true })).map((a) => a.address);
}

/**
 * Why the checker must not fetch from `hostname`, or undefined when it may: the host is, or
 * resolves to, a non-public address. A name that does not resolve is left to the fetch, which
 * reports it unreachable.
 */
export async function nonPublicHost(
  hostname: string,
  resolve?: (hostname: string) => Promise<readonly string[]>,
): Promise<string | undefined> {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (isLiteral(host)) return isPublicAddress(host) ? undefined : `${host} is not a public address`;
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is a loopback name`;
  let addresses: readonly string[] | undefined;
  try {
    addresses = await (resolve ?? systemResolve)(host);
  } catch {
    return undefined;
  }
  const inside = addresses?.find((address) => !isPublicAddress(address));
  return inside === undefined ? undefined : `${host} resolves to ${inside}, not a public address`;
}
