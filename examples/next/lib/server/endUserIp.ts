// The end user's IP address, which the relay writes into SCA authorizations and the SCA login
// (the service's risk checks want it, and the SCA login requires it). A route handler gets no
// socket, only headers, and `next start` sets `X-Forwarded-For` to the connection's peer only
// when the request has none: it passes a client's own header on unchanged. So the header tells
// the truth only as a reverse proxy you trust left it: each trusted proxy appends the address
// that connected to it (nginx: `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`),
// and with N of them the user is the N-th entry from the right. Entries further left are
// whatever the client sent, and are never believed. (On a localhost dev server, with no proxy,
// Next's own value, the peer, stands in for the proxy's.)
export function endUserIpFrom(
  forwardedFor: string | null,
  trustedProxies: number,
): string | undefined {
  if (!forwardedFor || trustedProxies < 1) return undefined;
  const hops = forwardedFor
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  // The relay drops anything that is not an IPv4 or IPv6 address (and maps ::ffff:a.b.c.d).
  return hops[hops.length - trustedProxies];
}
