// The same relay on the edge runtime. The edge runtime appends the catch-all segment to the
// query (`?path=…`): the relay's `catchAllParam: "path"` drops it.
import { nextRelay } from "../../../../lib/server/relay";

export const runtime = "edge";

const relay = nextRelay("/api/grid-edge");

export { relay as DELETE, relay as GET, relay as PATCH, relay as POST };
