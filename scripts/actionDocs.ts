// The docs tables made from the catalog of actions (the rows the action files export, as
// scripts/catalog.ts reads them): each lives in a Markdown file between `<!-- actions:<name> -->`
// and `<!-- /actions:<name> -->`. `node scripts/actions.mjs --write` rewrites them; the check
// without `--write` fails while one is stale. Pure: text in, text out.
import type {
  ActionRequest,
  ActionRow,
  ActionSigning,
} from "../packages/core/src/catalog/actionRow.js";

/** The rows, by action name, in the table's order. */
export type ActionRows = Readonly<Record<string, ActionRow>>;

/** A generated block: the file it lives in (from the repository root), its name, its text. */
export type ActionDocBlock = { file: string; name: string; text: string };

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replaceAll("|", "\\|");
const route = ({ method, path }: ActionRequest) => code(`${method} ${path}`);
const SIGNER = { session: "a session", oneTimeKey: "the one-time key" } as const;

function exchange(signing: ActionSigning): string {
  if (signing.mode === "direct") {
    // No challenge: the stamp goes in the one request's header (quote execute adds an
    // `Idempotency-Key`, a contact-change submit nothing: protocol.md §2 says which).
    return `stamped by ${SIGNER[signing.signer]}, one request, no challenge → ${signing.status}`;
  }
  const legs = Array.from({ length: signing.legs - 1 }, (_, i) =>
    i === 0 ? `202 → stamped by ${SIGNER[signing.signer]}` : "202 → stamped again",
  );
  return `${legs.join(" → ")} → ${signing.status}`;
}

function requestCell({ requests, runs = [] }: ActionRow): string {
  if (requests.length === 0) return "none";
  return [
    ...requests.map((request) =>
      request.signed ? `${route(request)}: ${exchange(request.signed)}` : route(request),
    ),
    ...runs.map((name) => `runs ${code(name)}`),
  ].join("; ");
}

function hookCell({ hook }: ActionRow): string {
  return hook.kind === "none" ? `none: ${hook.why}` : code(hook.name);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((cells) => `| ${cells.map(cell).join(" | ")} |`),
  ].join("\n");
}

/** `packages/core/README.md`: every action, what it does, its requests, its hook. */
function coreFlows(rows: ActionRows): string {
  return table(
    ["action", "what it does", "requests (through the relay)", "hook (`@signet/react`)"],
    Object.entries(rows).map(([name, row]) => [
      code(name),
      row.summary,
      requestCell(row),
      hookCell(row),
    ]),
  );
}

/** The queries that read what `resources` names, by their hooks. */
function refetched(rows: ActionRows, resources: readonly string[]): string {
  const hooks = Object.values(rows).flatMap(({ hook }) => {
    return hook.kind === "query" && resources.includes(hook.reads) ? [code(hook.name)] : [];
  });
  return hooks.length > 0 ? hooks.join(", ") : "nothing";
}

/** `packages/react/README.md`: every hook, its action, and what a success refetches. */
function reactHooks(rows: ActionRows): string {
  const lines = Object.entries(rows).flatMap(([name, { hook }]) => {
    if (hook.kind === "query")
      return [[code(hook.name), code(name), `query (reads ${hook.reads})`, ""]];
    if (hook.kind === "mutation")
      return [[code(hook.name), code(name), "mutation", refetched(rows, hook.invalidates)]];
    return [];
  });
  return table(["hook", "core action", "kind", "a success refetches"], lines);
}

/** `docs/protocol.md` §2: every signed request, which key signs it, and its legs. */
function protocolSigned(rows: ActionRows): string {
  const lines = Object.entries(rows).flatMap(([name, row]) =>
    row.requests.flatMap((request) =>
      request.signed
        ? [
            [
              route(request),
              code(name),
              request.signed.signedBy,
              request.signed.mode === "direct" ? "1 (direct)" : String(request.signed.legs),
              String(request.signed.status),
              code(request.signed.check),
            ],
          ]
        : [],
    ),
  );
  return table(
    ["endpoint", "action", "signed by", "legs", "success", "payload check (§11)"],
    lines,
  );
}

/** Every generated block, from the rows. */
export function actionDocBlocks(rows: ActionRows): ActionDocBlock[] {
  return [
    { file: "packages/core/README.md", name: "flows", text: coreFlows(rows) },
    { file: "packages/react/README.md", name: "hooks", text: reactHooks(rows) },
    { file: "docs/protocol.md", name: "signed", text: protocolSigned(rows) },
  ];
}

const NOTE =
  "<!-- generated from the rows of packages/core/src/actions/ by `node scripts/actions.mjs --write` -->";

/**
 * `document` with the block between its markers replaced; throws when the markers are missing, so
 * a moved table is noticed.
 */
export function withBlock(document: string, { file, name, text }: ActionDocBlock): string {
  const start = `<!-- actions:${name} -->`;
  const end = `<!-- /actions:${name} -->`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file}: no ${start} … ${end} markers`);
  return `${document.slice(0, from)}${start}\n${NOTE}\n\n${text}\n\n${document.slice(to)}`;
}
