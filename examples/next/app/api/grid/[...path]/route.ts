// The relay on the Node runtime (the default: no `runtime` export, which cacheComponents refuses).
import { nextRelay } from "../../../../lib/server/relay";

const relay = nextRelay("/api/grid");

export { relay as DELETE, relay as GET, relay as PATCH, relay as POST };
