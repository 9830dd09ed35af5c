// The catalog of actions (docs/architecture.md "Adding an action"): each action file under
// packages/core/src/actions/ exports its row (`<action>Row`) beside its function, and this module
// turns the rows into every copy the rest of the house reads:
//
// - packages/core/src/catalog/actionTable.ts, the rows as plain data (routes as the relay writes
//   them, each matched to the OpenAPI's operation for the error unions, checks by name), which
//   tests, the relay's, react's and the emulator's tests read without loading core;
// - the relay's route list (packages/relay/src/routes.ts, between its markers; the body rules
//   stay hand-written beside it, keyed by route);
// - react's `queryReads` and `mutationChanges` (packages/react/src/queries.ts, between markers);
// - the docs tables (scripts/actionDocs.ts).
//
// It also names, for each action, every hand-written place it still lacks (`missingPlaces`).
// `node scripts/actions.mjs` checks (exit 1 with every stale copy and missing place), `--write`
// writes the copies. Pure but for reading the repository: the script does the writing.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import type {
  ActionChunk,
  ActionErrorRow,
  ActionRequest,
  ActionRow,
  ActionRowRequest,
  ActionSourceRow,
} from "../packages/core/src/catalog/actionRow.js";
import type { KnownErrorCode } from "../packages/core/src/errors/codes.js";
import { OPERATION_ERROR_SCHEMAS } from "../packages/core/src/transport/operationErrorCodes.js";
import { actionDocBlocks, withBlock } from "./actionDocs.js";

/** A file the catalog writes: its path from the repository root, what it holds now, what it should. */
export type CatalogCopy = { file: string; what: string; before: string; after: string };

const ACTIONS = "packages/core/src/actions";
/** The catalog's own modules: the row type, the generated table and error unions. */
const CATALOG = "packages/core/src/catalog";
const TABLE = `${CATALOG}/actionTable.ts`;
/** The lazy stubs and the chunks' modules (above the actions, which they load). */
const CHUNKS = `${CATALOG}/chunks`;
const RELAY_ROUTES = "packages/relay/src/routes.ts";
const REACT_QUERIES = "packages/react/src/queries.ts";

/** Loads a module of the repository's sources (core's `#codec` as scripts/codecHook.mjs maps it). */
const load = (path: string) => tsImport(path, import.meta.url) as Promise<Record<string, unknown>>;

/** Files under actions/ that hold no row: only tests (every other file there is an action). */
const NOT_ACTIONS = /\.test\.ts$/;

/** A row as read from its file: the action's name, the file, the row. */
export type SourceRow = { name: string; file: string; row: ActionSourceRow };

/** Every `<action>Row` the action files export, in the order of the committed table (new ones last). */
export async function loadRows(root: string): Promise<SourceRow[]> {
  const found: SourceRow[] = [];
  const dir = join(root, ACTIONS);
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith(".ts") || NOT_ACTIONS.test(file)) continue;
    const module = await load(join(dir, file));
    for (const [key, value] of Object.entries(module)) {
      const name = /^([a-z]\w*)Row$/.exec(key)?.[1];
      if (name !== undefined && typeof value === "object" && value !== null && "requests" in value)
        found.push({ name, file: `${ACTIONS}/${file}`, row: value as ActionSourceRow });
    }
  }
  const order = committedOrder(root);
  const rank = (name: string) => {
    const at = order.indexOf(name);
    return at < 0 ? order.length : at;
  };
  return found.sort((a, b) => rank(a.name) - rank(b.name));
}

/** The action names of the committed table, in its order (empty before the first write). */
function committedOrder(root: string): string[] {
  const path = join(root, TABLE);
  if (!existsSync(path)) return [];
  const body = readFileSync(path, "utf8").split("export const actionTable = {")[1] ?? "";
  return [...body.matchAll(/^ {2}(\w+): \{$/gm)].map((m) => m[1]!);
}

/**
 * The OpenAPI operation a route calls: same method, same literal segments, a parameter wherever the
 * route has a `{Kind}`; `undefined` when the service's OpenAPI is silent on it (the check says so,
 * and the action's union then holds the relay's and its own codes only). Throws when several
 * match.
 */
export function operationOf(method: string, path: string): string | undefined {
  const parts = path.split("/");
  const matches = Object.keys(OPERATION_ERROR_SCHEMAS).filter((operation) => {
    const [verb, template = ""] = operation.split(" ");
    const theirs = template.split("/");
    return (
      verb === method &&
      theirs.length === parts.length &&
      theirs.every((part, i) =>
        parts[i]!.startsWith("{") ? part.startsWith("{") : part === parts[i],
      )
    );
  });
  if (matches.length > 1)
    throw new Error(`${method} ${path}: ${matches.length} operations of the OpenAPI match`);
  return matches[0];
}

function tableRequest({ route, signed }: ActionRowRequest): ActionRequest {
  const { method, path } = route;
  const operation = operationOf(method, path);
  const request: ActionRequest = { method, path, ...(operation ? { operation } : {}) };
  if (!signed) return request;
  const direct = route.mode === "direct";
  return {
    ...request,
    signed: {
      signer: signed.signer,
      mode: direct ? "direct" : "challenge",
      legs: direct ? 1 : (route.maxLegs ?? 2),
      check: signed.check.name,
      status: route.expectedStatus ?? 200,
      signedBy: signed.signedBy,
    },
  };
}

/** The operations an action calls: its requests' and those of the actions it runs, in order. */
function operationsOf(
  name: string,
  rows: readonly SourceRow[],
  seen = new Set<string>(),
): string[] {
  const source = rows.find((row) => row.name === name);
  if (!source) throw new Error(`a row runs ${name}, which is no action's row`);
  if (seen.has(name)) return [];
  seen.add(name);
  return [
    ...source.row.requests.flatMap(({ route }) => operationOf(route.method, route.path) ?? []),
    ...(source.row.runs ?? []).flatMap((other) => operationsOf(other, rows, seen)),
  ];
}

/** A hook as the table holds it: its doc is the generated hook's, not the table's. */
function withoutDoc(hook: ActionSourceRow["hook"]): ActionSourceRow["hook"] {
  if (hook.kind === "none" || hook.doc === undefined) return hook;
  const { doc: _, ...rest } = hook;
  return rest;
}

/** A row as the table holds it: plain data. */
export function tableRow({ row }: SourceRow): ActionRow {
  return {
    summary: row.summary,
    requests: row.requests.map(tableRequest),
    ...(row.runs ? { runs: row.runs } : {}),
    hook: withoutDoc(row.hook),
    ...(row.sensitive ? { sensitive: true as const } : {}),
  };
}

/**
 * Whether `createClient`'s `stepUp` can name the action: a lazy one that changes something (a
 * mutation, or one its row marks sensitive), never one that makes a session (the sign-ins and the
 * refresh are how a user verifies). Its chunk exports it behind the check.
 */
export function guardedByStepUp({ name, row }: SourceRow): boolean {
  if (row.sensitive && (row.chunk === undefined || row.chunk === "session"))
    throw new Error(
      `${name}: a sensitive row must name a chunk other than "session" (its chunk checks the step-up)`,
    );
  return (
    row.chunk !== undefined &&
    row.chunk !== "session" &&
    (row.hook.kind === "mutation" || row.sensitive === true)
  );
}

/** What an action can throw, as `ActionErrorCode` reads it: operations matched, groups flattened. */
export function tableErrors(source: SourceRow, rows: readonly SourceRow[]): ActionErrorRow {
  const { name, row } = source;
  const { client, undocumented, passkey } = row.errors;
  const guard: KnownErrorCode[] = guardedByStepUp(source) ? ["STEP_UP_REQUIRED"] : [];
  return {
    operations: [...new Set(operationsOf(name, rows))],
    ...(row.requests.length > 0 || row.runs ? { relay: true } : {}),
    client: [
      ...new Set([...(client.flat(Number.POSITIVE_INFINITY) as KnownErrorCode[]), ...guard]),
    ],
    ...(undocumented ? { undocumented } : {}),
    ...(passkey ? { passkey } : {}),
  };
}

/** Formats TypeScript as the repository's Biome does. */
function formatted(file: string, text: string, root: string): string {
  // `check --write` without the linter: formatted, and imports and exports sorted as Biome sorts them.
  // The binary itself, not `pnpm exec`: the generator formats a dozen files, and pnpm's start is
  // most of each call's time.
  const biome = spawnSync(
    join(root, "node_modules/.bin/biome"),
    ["check", "--write", "--linter-enabled=false", `--stdin-file-path=${file}`],
    {
      cwd: root,
      input: text,
      encoding: "utf8",
    },
  );
  if (biome.status !== 0) throw new Error(`biome format ${file}: ${biome.stderr}`);
  return biome.stdout;
}

const TABLE_HEAD = `// GENERATED by \`node scripts/actions.mjs --write\` from the rows the action files export
// (\`<action>Row\` beside each function): do not edit; change the row. The rows as plain data: each
// request's route as the relay writes it, the OpenAPI operation it calls (the error unions read
// those, catalog/errorCodes.ts), its payload check by name. Nothing at run time reads it, and it
// imports types only, so the relay's, react's and the emulator's tests load it alone and no bundle
// carries it.

import type {
  ActionErrorRow,
  ActionHook,
  ActionMethod,
  ActionRequest,
  ActionResource,
  ActionRoute,
  ActionRow,
  ActionSigning,
} from "./actionRow.js";

export type {
  ActionErrorRow,
  ActionHook,
  ActionMethod,
  ActionRequest,
  ActionResource,
  ActionRoute,
  ActionRow,
  ActionSigning,
};
`;

const TABLE_TAIL = `
/** The name of an exported action: the key of its row. */
export type ActionName = keyof typeof actionTable;

/** The actions, in the table's order. */
export const actionNames = Object.keys(actionTable) as ActionName[];

/** Every distinct route the actions use (method and path), in the table's order. */
export function actionRoutes(): { readonly method: ActionMethod; readonly path: string }[] {
  const seen = new Map<string, { readonly method: ActionMethod; readonly path: string }>();
  for (const name of actionNames) {
    for (const { method, path } of (actionTable[name] as ActionRow).requests) {
      seen.set(\`\${method} \${path}\`, { method, path });
    }
  }
  return [...seen.values()];
}

/** The actions whose hook is a mutation, and what a success of each makes stale. */
export type MutationChangesOf = {
  readonly [K in ActionName as (typeof actionTable)[K]["hook"]["kind"] extends "mutation"
    ? K
    : never]: (typeof actionTable)[K]["hook"] extends { invalidates: infer R } ? R : never;
};

/** The actions whose hook is a query, and what each reads. */
export type QueryReadsOf = {
  readonly [K in ActionName as (typeof actionTable)[K]["hook"]["kind"] extends "query"
    ? K
    : never]: (typeof actionTable)[K]["hook"] extends { reads: infer R } ? R : never;
};
`;

/** The table's text. */
export function tableSource(rows: readonly SourceRow[]): string {
  const table = Object.fromEntries(rows.map((row) => [row.name, tableRow(row)]));
  const errors = Object.fromEntries(rows.map((row) => [row.name, tableErrors(row, rows)]));
  return `${TABLE_HEAD}
/** Every exported action, by its exported name. */
export const actionTable = ${JSON.stringify(table, null, 2)} as const satisfies Record<string, ActionRow>;

/**
 * What each action can throw (\`ActionErrorCode\`, catalog/errorCodes.ts, reads it): the OpenAPI
 * operations its requests and the actions it runs call, whether it reaches the relay, its client
 * codes, its undocumented service codes, whether it runs a passkey ceremony. Apart from the table
 * so that the published types carry this much only.
 */
export const actionErrors = ${JSON.stringify(errors, null, 2)} as const satisfies Record<ActionName, ActionErrorRow>;
${TABLE_TAIL}`;
}

/** Every distinct route of the rows, in the table's order. */
function routesOf(rows: readonly SourceRow[]): { method: string; path: string }[] {
  const seen = new Map<string, { method: string; path: string }>();
  for (const { row } of rows)
    for (const { route } of row.requests)
      seen.set(`${route.method} ${route.path}`, { method: route.method, path: route.path });
  return [...seen.values()];
}

/**
 * `document` with the text between `// <catalog:name>` and `// </catalog:name>` replaced. Detached:
 * blank lines around the text, so that Biome sorts the block's exports apart from the file's own.
 */
export function withCodeBlock(
  document: string,
  file: string,
  name: string,
  text: string,
  detached = false,
): string {
  const start = `// <catalog:${name}>`;
  const end = `// </catalog:${name}>`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file}: no ${start} … ${end} markers`);
  const note = "// Generated by `node scripts/actions.mjs --write` from the action files' rows.";
  const body = detached ? `\n${text}\n\n` : `${text}\n`;
  return `${document.slice(0, from)}${start}\n${note}\n${body}${document.slice(to)}`;
}

function relayList(rows: readonly SourceRow[]): string {
  const list = routesOf(rows).map(({ method, path }) => `{ method: "${method}", path: "${path}" }`);
  return `/** Every route of core's actions, in the table's order: the routes the relay forwards. */
export const RELAY_ROUTE_LIST = [${list.join(", ")}] as const;`;
}

function reactLists(rows: readonly SourceRow[]): string {
  const reads: string[] = [];
  const changes: string[] = [];
  for (const { name, row } of rows) {
    if (row.hook.kind === "query") reads.push(`${name}: ${JSON.stringify(row.hook.reads)}`);
    if (row.hook.kind === "mutation")
      changes.push(`${name}: ${JSON.stringify(row.hook.invalidates)}`);
  }
  return `/** What each query's core action reads on the service (its row's \`hook.reads\`). */
export const queryReads = { ${reads.join(", ")} } as const;

/** The name of a query: its core action's, the first element of its key. */
export type SignetQueryName = keyof typeof queryReads;
/** What the service keeps that a query reads and a mutation changes. */
export type SignetResource = (typeof queryReads)[SignetQueryName];

/**
 * What each mutation's core action changes on the service (its row's \`hook.invalidates\`). The
 * queries a successful call refetches follow from it ({@link InvalidatedBy}, {@link invalidatedBy}).
 */
export const mutationChanges = { ${changes.join(", ")} } as const satisfies Record<string, readonly SignetResource[]>;`;
}

/** The module of each lazy chunk of actions (a row's `chunk`), in the order they preload. */
const CHUNK_MODULES = {
  session: "sessionActions",
  payments: "paymentActions",
  scaFactors: "scaFactorActions",
  wallet: "walletActions",
} as const satisfies Record<ActionChunk, string>;

const LAZY = `${CHUNKS}/lazy.ts`;
const EXPORTS = "packages/core/src/exports.ts";

/** An action's public function as its file writes it: its TSDoc and its signature. */
export function publicFunction(source: string, file: string, name: string) {
  const found = new RegExp(
    `(/\\*\\*(?:(?!\\*/)[\\s\\S])*\\*/)\\nexport async function ${name}((?:<[^\\n(]*>)?\\([\\s\\S]*?\\): Promise<[^\\n]*>) \\{\\n`,
  ).exec(source);
  if (!found)
    throw new Error(
      `${file}: no documented \`export async function ${name}(client, parameters): Promise<…>\``,
    );
  return { doc: found[1]!, signature: found[2]! };
}

/** The type names a signature uses from its own module (its parameters' and return type). */
const typesOf = (signature: string) => [
  ...new Set([...signature.matchAll(/\b([A-Z]\w*(?:Parameters|ReturnType))\b/g)].map((m) => m[1]!)),
];

const LAZY_HEAD = `// GENERATED by \`node scripts/actions.mjs --write\` from the rows that name a \`chunk\` and each of
// those actions' own signature and documentation: do not edit; change the action or its row.
// The actions that make a session (the sign-ins and the refresh: a page's first render runs none),
// a payment's (quote, execute, wait, and the Strong Customer Authentication login and
// authorization that confirm it), the SCA factors and the rarer account and wallet actions are
// lazy chunks, kept out of what a page loads up front (docs/architecture.md "Size"). All of them
// start loading when a client is made (\`preloadActions\`), so no call waits for its code; none
// runs a passkey ceremony before its chunk is there. Each public function here is a stub carrying
// the action's documentation; its module holds the code.
`;

const STEP_UP_ACTIONS = `${CATALOG}/stepUpActions.ts`;

/** catalog/stepUpActions.ts: the names \`stepUp\` can take, each with its preset mark. */
export function stepUpActionsSource(rows: readonly SourceRow[]): string {
  const guarded = rows.filter(guardedByStepUp);
  return `// GENERATED by \`node scripts/actions.mjs --write\` from the rows: do not edit; mark a row
// \`sensitive: true\` beside its action. The actions \`createClient\`'s \`stepUp\` can name (the lazy
// ones that change something and make no session; their chunks check it), each with its mark for
// the preset \`"sensitive"\`: createClient refuses any other name, the chunks resolve the preset.

/**
 * Every action \`createClient\`'s \`stepUp\` can guard, and whether it is in the preset
 * \`"sensitive"\` (export, adding or removing credentials, contact changes, delegated keys, SCA factor
 * changes, trusting a beneficiary).
 */
export const STEP_UP_ACTIONS = {
${guarded.map(({ name, row }) => `  ${name}: ${row.sensitive === true},`).join("\n")}
} as const;

/** An action \`createClient\`'s \`stepUp\` can guard. */
export type StepUpAction = keyof typeof STEP_UP_ACTIONS;
`;
}

/** catalog/chunks/lazy.ts: the loaders, \`preloadActions\`, a stub per lazy action. */
export function lazySource(rows: readonly SourceRow[], read: (file: string) => string): string {
  const lazy = rows.filter((row) => row.row.chunk !== undefined);
  const loaderOf = (chunk: ActionChunk) =>
    `load${CHUNK_MODULES[chunk][0]!.toUpperCase()}${CHUNK_MODULES[chunk].slice(1)}`;
  const imports = new Map<string, Set<string>>();
  const stubs: string[] = [];
  for (const { name, file, row } of lazy) {
    const { doc, signature } = publicFunction(read(file), file, name);
    const module = `../../actions/${file.slice(ACTIONS.length + 1).replace(/\.ts$/, ".js")}`;
    const names = imports.get(module) ?? new Set<string>();
    for (const type of typesOf(signature)) names.add(type);
    imports.set(module, names);
    const module_ = CHUNK_MODULES[row.chunk!];
    stubs.push(
      `${doc}\nexport async function ${name}${signature} {\n  return (${module_} ?? (await ${loaderOf(row.chunk!)}())).${name}(client, parameters);\n}`,
    );
  }
  const used = (Object.keys(CHUNK_MODULES) as ActionChunk[]).filter((chunk) =>
    lazy.some(({ row }) => row.chunk === chunk),
  );
  // A signature generic in the client's signer (exportWallet's) names ClientSigner too.
  const clientTypes = stubs.some((stub) => /\bClientSigner\b/.test(stub))
    ? "ClientSigner, SignetClient"
    : "SignetClient";
  return `${LAZY_HEAD}
import type { ${clientTypes} } from "../../client.js";
import { loadChunk } from "../../crypto/chunk.js";
${[...imports]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([module, names]) => `import type { ${[...names].sort().join(", ")} } from "${module}";`)
  .join("\n")}

// A chunk once loaded is held: its action then starts in the caller's task, as a passkey prompt
// opened from a tap must (iOS Safari drops one opened later).
${used
  .map(
    (chunk) =>
      `let ${CHUNK_MODULES[chunk]}: typeof import("./${CHUNK_MODULES[chunk]}.js") | undefined;\nconst ${loaderOf(chunk)} = () =>\n  loadChunk(() => import("./${CHUNK_MODULES[chunk]}.js")).then((module) => (${CHUNK_MODULES[chunk]} = module));`,
  )
  .join("\n")}

/**
 * Starts loading the actions' chunks when a client is made, so a first call does not wait for
 * one. A load that fails is left to that call, which reports it as a retryable \`NETWORK\` error
 * and tries again.
 */
export function preloadActions(): void {
  for (const load of [${used.map(loaderOf).join(", ")}]) load().catch(() => undefined);
}

${stubs.join("\n\n")}
`;
}

/** A chunk's module: the code of the actions whose row names it. */
export function chunkSource(rows: readonly SourceRow[], chunk: ActionChunk): string {
  const byModule = new Map<string, string[]>();
  const guarded: string[] = [];
  for (const source of rows) {
    const { name, file, row } = source;
    if (row.chunk !== chunk) continue;
    const module = `../../actions/${file.slice(ACTIONS.length + 1).replace(/\.ts$/, ".js")}`;
    byModule.set(module, [...(byModule.get(module) ?? []), name]);
    if (guardedByStepUp(source)) guarded.push(name);
  }
  const modules = [...byModule].sort(([a], [b]) => a.localeCompare(b));
  const plain = modules.flatMap(([module, names]) => {
    const free = names.filter((name) => !guarded.includes(name)).sort();
    return free.length ? [`export { ${free.join(", ")} } from "${module}";`] : [];
  });
  const wrapped = modules.flatMap(([module, names]) => {
    const own = names.filter((name) => guarded.includes(name)).sort();
    return own.length
      ? [
          `import { ${own.map((name) => `${name} as ${name}Unchecked`).join(", ")} } from "${module}";`,
        ]
      : [];
  });
  return `// GENERATED by \`node scripts/actions.mjs --write\`: the code of the actions whose row names the
// chunk \`${chunk}\`, which catalog/chunks/lazy.ts loads on first use, as one chunk.${
    guarded.length
      ? `
// Each action \`createClient\`'s \`stepUp\` can name runs behind its check (catalog/stepUpCheck.ts),
// before its own code asks for, signs or sends anything.
${wrapped.join("\n")}
import { withStepUp } from "../stepUpCheck.js";`
      : ""
  }
${plain.join("\n")}
${guarded
  .sort()
  .map((name) => `export const ${name} = /* @__PURE__ */ withStepUp("${name}", ${name}Unchecked);`)
  .join("\n")}
`;
}

/**
 * The action block of core's exports.ts: each action's function (from catalog/chunks/lazy.ts when its row
 * names a chunk) and its \`…Parameters\`, \`…ReturnType\` and \`…ErrorType\`. Other names an action
 * file exports stay hand-written outside the block.
 */
export function exportsBlock(rows: readonly SourceRow[]): string {
  const lines: string[] = [];
  const lazy: string[] = [];
  const byModule = new Map<string, string[]>();
  for (const { name, file, row } of rows) {
    const module = `./actions/${file.slice(ACTIONS.length + 1).replace(/\.ts$/, ".js")}`;
    const type = `${name[0]!.toUpperCase()}${name.slice(1)}`;
    const names = byModule.get(module) ?? [];
    names.push(`type ${type}ErrorType`, `type ${type}Parameters`, `type ${type}ReturnType`);
    if (row.chunk) lazy.push(name);
    else names.push(name);
    byModule.set(module, names);
  }
  for (const [module, names] of [...byModule].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = names.sort((a, b) =>
      a.replace(/^type /, "").localeCompare(b.replace(/^type /, "")),
    );
    lines.push(
      sorted.every((n) => n.startsWith("type "))
        ? `export type { ${sorted.map((n) => n.slice(5)).join(", ")} } from "${module}";`
        : `export { ${sorted.join(", ")} } from "${module}";`,
    );
  }
  if (lazy.length > 0)
    lines.push(`export { ${lazy.sort().join(", ")} } from "./catalog/chunks/lazy.js";`);
  return lines.join("\n");
}

/** A relay rule as the README's route table reads it (packages/relay/src/routes.ts, `RelayRouteRule`). */
type RelayRuleDoc = {
  readonly summary: string;
  readonly query?: Readonly<
    Record<
      string,
      { readonly kind: string; readonly required?: boolean; readonly forced?: boolean }
    >
  >;
  readonly queryOneOf?: readonly string[];
  readonly body?: {
    readonly required?: readonly string[];
    readonly exactlyOneOf?: readonly string[];
    readonly valueType?: "string" | "boolean";
    readonly alsoAllowed?: Readonly<Record<string, readonly string[]>>;
    readonly endUserIpAddress?: "optional" | "required";
  };
};

/** What a path's `{Kind}` names, in the table's words; the relay checks that the caller owns it. */
const PATH_IDS: Record<string, string> = {
  AuthMethod: "credential",
  Session: "session",
  InternalAccount: "account",
  Quote: "quote (its source account)",
  Transaction: "transaction",
  Customer: "customer",
  DelegatedKey: "delegated key",
  ExternalAccount: "beneficiary (external account)",
};
/** Query kinds that are no id. */
const NOT_IDS = new Set(["code", "limit", "cursor", "date", "sortOrder"]);

const names = (list: readonly string[]) => list.map((name) => `\`${name}\``).join(", ");

/** The ids the relay checks on a route, from its path and its rule. */
function idsChecked(path: string, rule: RelayRuleDoc): string {
  const ids = [...path.matchAll(/\{(\w+)\}/g)].flatMap((m) => PATH_IDS[m[1]!] ?? []);
  const query = Object.entries(rule.query ?? {}).filter(([, param]) => !NOT_IDS.has(param.kind));
  const forced = query.filter(([, param]) => param.forced).map(([name]) => name);
  if (forced.length > 0) ids.push(`${names(forced)} (query, forced to the caller's customer)`);
  const others = query.filter(([, param]) => !param.forced).map(([name]) => name);
  if (others.length > 0) ids.push(`${names(others)} (query)`);
  if (rule.body?.required?.length) ids.push(`${names(rule.body.required)} (body)`);
  return ids.join("; ");
}

/** What the relay accepts of a route's query and body, from its rule. */
function queryAndBody(method: string, path: string, rule: RelayRuleDoc): string {
  const parts: string[] = [];
  if (path.includes("{WebAuthnCredential}"))
    parts.push(
      "the segment is a base64url WebAuthn credential id, scoped by the forced `customerId`",
    );
  if (path.includes("{ScaReset}"))
    parts.push("the segment is a reset id, scoped by the forced `customerId`");
  const query = Object.entries(rule.query ?? {});
  const required = query.filter(([, param]) => param.required).map(([name]) => name);
  if (required.length > 0) parts.push(`query ${names(required)} required`);
  if (rule.queryOneOf) parts.push(`at least one of ${names(rule.queryOneOf)}`);
  const optional = query
    .filter(([, param]) => !param.required && !param.forced && NOT_IDS.has(param.kind))
    .map(([name]) => name);
  if (optional.length > 0) parts.push(`query ${names(optional)} allowed`);
  const { body } = rule;
  if (body === undefined) {
    if (method !== "GET") parts.push("no body");
    return parts.join("; ");
  }
  if (body.required?.length) parts.push(`body needs ${names(body.required)}`);
  if (body.exactlyOneOf) {
    const type = body.valueType === "boolean" ? " (a boolean)" : "";
    const one =
      body.exactlyOneOf.length === 1
        ? `\`{ ${body.exactlyOneOf[0]} }\`${type}`
        : `exactly one of ${names(body.exactlyOneOf)}${type}`;
    const also = Object.entries(body.alsoAllowed ?? {}).map(
      ([name, values]) => `\`${name}\`: ${values.map((v) => `\`"${v}"\``).join(" or ")}`,
    );
    parts.push(
      also.length > 0 ? `${one}, and ${also.join(", ")} at most; nothing else` : `${one} only`,
    );
  }
  if (body.endUserIpAddress)
    parts.push(
      body.endUserIpAddress === "required"
        ? "`endUserIpAddress` set by the relay when its `endUserIpAddress` option is given (the service requires one: without an address the relay answers `RELAY_MISCONFIGURED`)"
        : "`endUserIpAddress` set by the relay when its `endUserIpAddress` option is given",
    );
  return parts.join("; ");
}

/**
 * The relay README's route table: every route of the list, in its order, with its rule's summary,
 * the ids the relay checks and what it accepts of the query and the body, all read from `RELAY_RULES`.
 */
export function relayRouteTable(
  rows: readonly SourceRow[],
  rules: Readonly<Record<string, RelayRuleDoc>>,
): string {
  const header = ["Method", "Path", "What for", "Ids checked", "Query / body rules"];
  const lines = routesOf(rows).map(({ method, path }) => {
    const rule = rules[`${method} ${path}`];
    if (!rule) return undefined;
    return [
      method,
      `\`${path}\``,
      rule.summary,
      idsChecked(path, rule),
      queryAndBody(method, path, rule),
    ];
  });
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...lines.flatMap((cells) =>
      cells ? [`| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`] : [],
    ),
  ].join("\n");
}

const RELAY_README = "packages/relay/README.md";
const REACT_HOOKS = "packages/react/src/actionHooks.ts";
const REACT_INDEX = "packages/react/src/index.ts";

/** The rows whose hook is the plain mutation over the action (a `doc` in the row): generated. */
const plainMutations = (rows: readonly SourceRow[]) =>
  rows.flatMap(({ name, row }) =>
    row.hook.kind === "mutation" && row.hook.doc !== undefined
      ? [{ name, hook: row.hook.name, doc: row.hook.doc }]
      : [],
  );

/** TSDoc of `text` (paragraphs apart by a blank line), with the mutation's `@returns`. */
const hookDoc = (text: string) =>
  [
    "/**",
    ...text.split("\n\n").flatMap((paragraph, i) => [...(i > 0 ? [" *"] : []), ` * ${paragraph}`]),
    " *",
    " * @returns `{ mutate, mutateAsync, status, data, error, stage, variables, reset }`.",
    " */",
  ].join("\n");

/** packages/react/src/actionHooks.ts: the plain mutation hook of each row that gives its `doc`. */
function actionHooksSource(rows: readonly SourceRow[]): string {
  const hooks = plainMutations(rows);
  const types = (name: string) => {
    const type = `${name[0]!.toUpperCase()}${name.slice(1)}`;
    return [`${type}ErrorType`, `${type}Parameters`, `${type}ReturnType`];
  };
  return `"use client";
// GENERATED by \`node scripts/actions.mjs --write\` from the rows whose hook is a mutation with a
// \`doc\`: do not edit; change the row. Each is the action as a mutation (./mutation.ts); what a
// success refetches follows from the row's \`invalidates\` (queries.ts's \`mutationChanges\`).
import {
${hooks.flatMap(({ name }) => [name, ...types(name).map((type) => `type ${type}`)]).join(",\n")}
} from "@signet/core";
import { type UseMutationReturnType, useSignetMutation } from "./mutation.js";

${hooks
  .map(({ name, hook, doc }) => {
    const [error, parameters, result] = types(name);
    return `${hookDoc(doc)}
export const ${hook} = (): UseMutationReturnType<${parameters}, ${result}, ${error}> =>
  useSignetMutation(${name}, "${name}");`;
  })
  .join("\n\n")}
`;
}
const REACT_QUERY_HOOKS = "packages/react/src/hooks.ts";
const REACT_QUERY_OPTIONS = "packages/react/src/queryOptions.ts";

/** The rows whose hook is the plain query over the action (a `doc` in the row): generated. */
const plainQueries = (rows: readonly SourceRow[]) =>
  rows.flatMap(({ name, row }) =>
    row.hook.kind === "query" && row.hook.doc !== undefined
      ? [
          {
            name,
            hook: row.hook.name,
            doc: row.hook.doc,
            // `useCredentials` → `credentials`: the stem of its `…QueryKey` and `…QueryOptions`.
            stem: `${row.hook.name[3]!.toLowerCase()}${row.hook.name.slice(4)}`,
            types: actionTypes(name),
          },
        ]
      : [],
  );

/** An action's `…ErrorType`, `…Parameters` and `…ReturnType`. */
function actionTypes(name: string): [error: string, parameters: string, result: string] {
  const type = `${name[0]!.toUpperCase()}${name.slice(1)}`;
  return [`${type}ErrorType`, `${type}Parameters`, `${type}ReturnType`];
}

/** packages/react/src/queryOptions.ts: each plain query's key and options, wagmi's shape. */
function queryOptionsSource(rows: readonly SourceRow[]): string {
  const queries = plainQueries(rows);
  return `// GENERATED by \`node scripts/actions.mjs --write\` from the rows whose hook is a query with a
// \`doc\`: do not edit; change the row. Each query's key (the core action's name, then its
// parameters) and its options (the key and the fetch), in the shape TanStack Query takes.
import {
${queries.flatMap(({ name, types: [, parameters, result] }) => [name, `type ${parameters}`, `type ${result}`]).join(",\n")},
  type SignetClient,
} from "@signet/core";
import { keyOf, optionsOf, type SignetQueryKey, type SignetQueryOptions } from "./queries.js";

${queries
  .map(
    ({
      name,
      hook,
      stem,
      types: [, parameters, result],
    }) => `/** \`["${name}", parameters]\`: the key of \`${hook}\`. */
export const ${stem}QueryKey: (
  parameters: ${parameters},
) => SignetQueryKey<"${name}", ${parameters}> = /* @__PURE__ */ keyOf("${name}");
/** Key and fetch of \`${hook}\` (\`${name}\`). */
export const ${stem}QueryOptions: (
  client: SignetClient,
  parameters: ${parameters},
) => SignetQueryOptions<"${name}", ${parameters}, ${result}> =
  /* @__PURE__ */ optionsOf(${stem}QueryKey, ${name});`,
  )
  .join("\n\n")}
`;
}

/** packages/react/src/hooks.ts: the plain query hook of each row that gives its \`doc\`. */
function queryHooksSource(rows: readonly SourceRow[]): string {
  const queries = plainQueries(rows);
  return `"use client";
// GENERATED by \`node scripts/actions.mjs --write\` from the rows whose hook is a query with a
// \`doc\`: do not edit; change the row. Each is the action as a query (./query.ts) under its key
// and options (./queryOptions.ts); the mutations whose row's \`invalidates\` names what its row
// \`reads\` refetch it (queries.ts).
import type {
${queries.flatMap(({ types }) => types).join(",\n")}
} from "@signet/core";
import {
${queries.map(({ stem }) => `${stem}QueryOptions`).join(",\n")}
} from "./queryOptions.js";
import {
  type QueryOptions,
  type QueryParameters,
  type UseQueryReturnType,
  useSignetQuery,
} from "./query.js";

${queries
  .map(({ hook, stem, doc, types: [error, parameters, result] }) => {
    const type = `${hook[0]!.toUpperCase()}${hook.slice(1)}ReturnType`;
    return `/** What \`${hook}\` returns (\`data\` is \`select\`'s result when given). */
export type ${type}<TSelected = ${result}> = UseQueryReturnType<TSelected, ${error}>;

/**
 * ${doc}
 *
 * Pass \`skipToken\` instead of the parameters to wait; options (\`enabled\`, \`select\`,
 * \`staleTime\`, \`retry\`) go with the parameters or in the second argument.
 */
export const ${hook} = <TSelected = ${result}>(
  parameters: QueryParameters<${parameters}, ${result}, ${error}, TSelected>,
  options?: QueryOptions<${result}, ${error}, TSelected>,
): ${type}<TSelected> =>
  useSignetQuery("${hook}", ${stem}QueryOptions, parameters, options);`;
  })
  .join("\n\n")}
`;
}

/** react's index: the generated hooks, their result types, and the queries' keys and options. */
function reactExports(rows: readonly SourceRow[]): string {
  const queries = plainQueries(rows);
  const mutations = plainMutations(rows).map(({ hook }) => hook);
  const queryHooks = queries
    .flatMap(({ hook }) => [hook, `type ${hook[0]!.toUpperCase()}${hook.slice(1)}ReturnType`])
    .sort((a, b) => a.replace(/^type /, "").localeCompare(b.replace(/^type /, "")));
  const options = queries.flatMap(({ stem }) => [`${stem}QueryKey`, `${stem}QueryOptions`]).sort();
  return [
    `export { ${mutations.join(", ")} } from "./actionHooks.js";`,
    `export { ${queryHooks.join(", ")} } from "./hooks.js";`,
    `export { ${options.join(", ")} } from "./queryOptions.js";`,
  ].join("\n");
}

const CORE_README = "packages/core/README.md";

/** The core README's parameters table: each action's parameters and result, from its row. */
function parametersTable(rows: readonly SourceRow[]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  return [
    "| action | parameters | resolves to |",
    "|---|---|---|",
    ...rows.map(
      ({ name, row }) => `| \`${name}\` | ${cell(row.parameters)} | ${cell(row.resolvesTo)} |`,
    ),
  ].join("\n");
}

const TYPES_TEST = `${ACTIONS}/types.test.ts`;

/**
 * actions/types.test.ts's `Declared`: each action with its three exported types, which the test
 * holds to the function (and the set of names to the functions core exports that take a client).
 */
function declaredBlock(rows: readonly SourceRow[], read: (file: string) => string): string {
  const lines = rows.map(({ name, file }) => {
    const type = `core.${name[0]!.toUpperCase()}${name.slice(1)}`;
    // Parameters that may be left out (`parameters: X = {}`) are `X | undefined` to the caller.
    const { signature } = publicFunction(read(file), file, name);
    const optional = /\bparameters(\?:|: \w+ = )/.test(signature) ? " | undefined" : "";
    return `  ${name}: [${type}Parameters${optional}, ${type}ReturnType, ${type}ErrorType];`;
  });
  return `/** Each action with its three exported types. */\ntype Declared = {\n${lines.join("\n")}\n};`;
}

/** Every copy the catalog writes, with what it holds now and what it should. */
export async function catalogCopies(
  root: string,
  rows: readonly SourceRow[],
): Promise<CatalogCopy[]> {
  const read = (file: string) =>
    existsSync(join(root, file)) ? readFileSync(join(root, file), "utf8") : "";
  const copies: CatalogCopy[] = [];
  const table = tableSource(rows);
  copies.push({
    file: TABLE,
    what: "the table of actions",
    before: read(TABLE),
    after: formatted(TABLE, table, root),
  });
  const relay = read(RELAY_ROUTES);
  copies.push({
    file: RELAY_ROUTES,
    what: "the relay's route list",
    before: relay,
    after: formatted(
      RELAY_ROUTES,
      withCodeBlock(relay, RELAY_ROUTES, "routes", relayList(rows)),
      root,
    ),
  });
  const react = read(REACT_QUERIES);
  copies.push({
    file: REACT_QUERIES,
    what: "react's reads and invalidations",
    before: react,
    after: formatted(
      REACT_QUERIES,
      withCodeBlock(react, REACT_QUERIES, "invalidations", reactLists(rows)),
      root,
    ),
  });
  copies.push({
    file: STEP_UP_ACTIONS,
    what: "the actions step-up can name",
    before: read(STEP_UP_ACTIONS),
    after: formatted(STEP_UP_ACTIONS, stepUpActionsSource(rows), root),
  });
  copies.push({
    file: LAZY,
    what: "the lazy actions' stubs",
    before: read(LAZY),
    after: formatted(LAZY, lazySource(rows, read), root),
  });
  for (const chunk of Object.keys(CHUNK_MODULES) as ActionChunk[]) {
    const file = `${CHUNKS}/${CHUNK_MODULES[chunk]}.ts`;
    copies.push({
      file,
      what: `the chunk ${chunk}'s exports`,
      before: read(file),
      after: formatted(file, chunkSource(rows, chunk), root),
    });
  }
  const exportsText = read(EXPORTS);
  copies.push({
    file: EXPORTS,
    what: "the action block of @signet/core's exports",
    before: exportsText,
    after: formatted(
      EXPORTS,
      withCodeBlock(exportsText, EXPORTS, "exports", exportsBlock(rows), true),
      root,
    ),
  });
  copies.push({
    file: REACT_HOOKS,
    what: "react's mutation hooks",
    before: read(REACT_HOOKS),
    after: formatted(REACT_HOOKS, actionHooksSource(rows), root),
  });
  copies.push({
    file: REACT_QUERY_HOOKS,
    what: "react's query hooks",
    before: read(REACT_QUERY_HOOKS),
    after: formatted(REACT_QUERY_HOOKS, queryHooksSource(rows), root),
  });
  copies.push({
    file: REACT_QUERY_OPTIONS,
    what: "react's query keys and options",
    before: read(REACT_QUERY_OPTIONS),
    after: formatted(REACT_QUERY_OPTIONS, queryOptionsSource(rows), root),
  });
  const reactIndex = read(REACT_INDEX);
  copies.push({
    file: REACT_INDEX,
    what: "react's exports of the generated hooks",
    before: reactIndex,
    after: formatted(
      REACT_INDEX,
      withCodeBlock(reactIndex, REACT_INDEX, "hooks", reactExports(rows), true),
      root,
    ),
  });
  const typesTest = read(TYPES_TEST);
  copies.push({
    file: TYPES_TEST,
    what: "the type test's Declared",
    before: typesTest,
    after: formatted(
      TYPES_TEST,
      withCodeBlock(typesTest, TYPES_TEST, "declared", declaredBlock(rows, read)),
      root,
    ),
  });
  // The rules are hand-written beside the list; a route without one is named by missingPlaces.
  const { RELAY_RULES = {} } = (await load(join(root, RELAY_ROUTES))) as {
    RELAY_RULES?: Record<string, RelayRuleDoc>;
  };
  const relayReadme = read(RELAY_README);
  copies.push({
    file: RELAY_README,
    what: "the relay's route table",
    before: relayReadme,
    after: withBlock(relayReadme, {
      file: RELAY_README,
      name: "routes",
      text: relayRouteTable(rows, RELAY_RULES),
    }),
  });
  const coreReadme = read(CORE_README);
  copies.push({
    file: CORE_README,
    what: "the core README's parameters table",
    before: coreReadme,
    after: withBlock(coreReadme, {
      file: CORE_README,
      name: "parameters",
      text: parametersTable(rows),
    }),
  });
  const data = Object.fromEntries(rows.map((row) => [row.name, tableRow(row)]));
  for (const block of actionDocBlocks(data)) {
    const before = read(block.file);
    const previous = copies.find((copy) => copy.file === block.file);
    const base = previous ? previous.after : before;
    const after = withBlock(base, block);
    if (previous) previous.after = after;
    else copies.push({ file: block.file, what: `the docs table (${block.name})`, before, after });
  }
  return copies;
}

/** A hand-written place an action lacks: where, and what belongs there. */
export type MissingPlace = { action: string; place: string };

/** Every `.test.ts` text under `dir`, joined (the check tests are looked for in it). */
function testTexts(root: string, dirs: readonly string[]): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "dist") walk(path);
      } else if (/\.test\.tsx?$/.test(entry.name)) texts.push(readFileSync(path, "utf8"));
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  return texts.join("\n");
}

/** What the source of an emulator handler that takes a signed request holds. */
const SIGNS = /runSignedRetry\(|payloadToSign/;

/** A concrete path for a route: a well-formed id of each `{Kind}`. */
const concrete = (path: string) =>
  path.replace(/\{([A-Za-z]+)\}/g, (_, kind: string) =>
    kind === "WebAuthnCredential"
      ? "AAECAwQFBgcICQoLDA0ODw"
      : `${kind}:0b6c5a3e-7f1d-4c2b-9a8e-1d2c3b4a5f60`,
  );

/**
 * The hand-written places each action needs and lacks: its export from `@signet/core`, the test of
 * each payload check it signs with, the emulator's handler of each route and the payload it issues
 * for each signed one, the relay's rule of each route, the compromised-backend row of each signed
 * action, and (checked as stale copies) the docs.
 */
export async function missingPlaces(
  root: string,
  rows: readonly SourceRow[],
): Promise<MissingPlace[]> {
  const missing: MissingPlace[] = [];
  const exportsText = readFileSync(join(root, "packages/core/src/exports.ts"), "utf8");
  const checkTests = testTexts(root, ["packages/core/src", "packages/core/test"]);
  const compromised = readFileSync(join(root, "test/reliability.compromised.test.ts"), "utf8");
  const { createRouter } = (await load(join(root, "packages/emulator/src/http/router.ts"))) as {
    createRouter: (
      routes: unknown,
    ) => (method: string, path: string) => { kind: string; route?: { handler: () => unknown } };
  };
  const { serviceRoutes } = (await load(join(root, "packages/emulator/src/routes.ts"))) as {
    serviceRoutes: unknown;
  };
  const emulator = createRouter(serviceRoutes);
  const relay = (await load(join(root, RELAY_ROUTES))) as {
    RELAY_RULES?: Record<string, unknown>;
  };
  for (const { name, file, row } of rows) {
    const lack = (place: string) => missing.push({ action: name, place });
    if (!new RegExp(`\\b${name}\\b`).test(exportsText))
      lack(`its export from @signet/core (packages/core/src/exports.ts), beside ${file}`);
    for (const { route, signed } of row.requests) {
      const key = `${route.method} ${route.path}`;
      if (operationOf(route.method, route.path) === undefined)
        console.warn(
          `${name}: the service's OpenAPI (packages/test/spec/grid-openapi-wallet.yaml) documents no ${key}; its union holds the relay's and the client's codes only`,
        );
      const served = emulator(route.method, concrete(route.path));
      if (served.kind !== "found")
        lack(`the emulator's handler of ${key} (packages/emulator/src/resources/, routes.ts)`);
      if (!relay.RELAY_RULES || !Object.hasOwn(relay.RELAY_RULES, key))
        lack(`the relay's rule of ${key} (RELAY_RULES in ${RELAY_ROUTES})`);
      if (!signed) continue;
      const check = signed.check.name;
      if (!new RegExp(`\\b${check}\\(`).test(checkTests))
        lack(`a test of its payload check ${check} (a .test.ts under packages/core calling it)`);
      // The emulator's handler issues a payload to sign: a signed retry with its payload (challenge
      // mode), or the quote's `payloadToSign` it checks the stamp against (direct mode).
      if (served.kind !== "found" || !SIGNS.test(String(served.route?.handler)))
        lack(
          `the emulator's payload to sign for ${key} (its handler's runSignedRetry({ payload }), packages/emulator/src/payloads.ts)`,
        );
      if (!new RegExp(`operation: "${name}\\b`).test(compromised))
        lack(
          `its compromised-backend row (test/reliability.compromised.test.ts, operation: "${name}")`,
        );
    }
  }
  return missing;
}
