// The relay behind both route handlers (app/api/grid and app/api/grid-edge). Created at module
// scope but configured lazily: `createRelay(() => options)` reads the environment on the first
// request, so `next build`, which imports this module, needs no credentials.
import { createRelay } from "@signet/relay";
import { endUserIpFrom } from "./endUserIp";
import { serverEnv } from "./env";
import { openSession, readCookie } from "./session";

export function nextRelay(basePath: string) {
  return createRelay(() => {
    const env = serverEnv();
    return {
      baseUrl: env.baseUrl,
      tokenId: env.clientId,
      clientSecret: env.clientSecret,
      basePath,
      // app/…/[...path]/route.ts: the edge runtime appends `?path=…` (or `nxtPpath=…`).
      catchAllParam: "path",
      // The app's own login names the customer (here the demo's signed cookie).
      resolveUser: async (request) => {
        const user = await openSession(
          readCookie(request.headers.get("cookie")),
          env.sessionSecret,
        );
        return user ? { customerId: user.customerId } : null;
      },
      // SCA: the end user's address, from the X-Forwarded-For that Next (and trusted proxies) set.
      endUserIpAddress: (request) =>
        endUserIpFrom(request.headers.get("x-forwarded-for"), env.trustedProxies),
    };
  });
}
