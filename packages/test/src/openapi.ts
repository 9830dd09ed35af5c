// The service's OpenAPI 3.1 description (../spec/grid-openapi-wallet.yaml, provenance in
// ../spec/README.md), with the pull requests vendored beside it merged in (PULL_REQUESTS), as the judge of what crosses the wire in the test suites: requests are checked
// against their operation's parameters and request body, answers against the schema of their
// status. JSON Schema 2020-12 by Ajv; the YAML read by the `yaml` library.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import formatsPlugin from "ajv-formats";
import { parse } from "yaml";

/** One exchange as seen on the wire. Paths are relative to the versioned base URL. */
export type WireRequest = {
  method: string;
  /** Path and query, e.g. `/auth/sessions?accountId=InternalAccount:…`. */
  url: string;
  headers: Headers;
  /** The body as sent, or `undefined`. */
  body: string | undefined;
};
export type WireResponse = { status: number; headers: Headers; body: string };

/** A disagreement between an exchange and the OpenAPI: where, and what the validator said. */
export type OpenApiFinding = {
  side: "request" | "response";
  method: string;
  path: string;
  /** The OpenAPI operation (`POST /quotes/{quoteId}/authorize`), once matched. */
  operation?: string;
  status?: number;
  errors: string[];
};

/**
 * Answers that disagree with the OpenAPI on purpose, each for a reason docs/protocol.md ("Where
 * the OpenAPI and these notes disagree") gives. Keyed by `METHOD /path status code`.
 */
export type Allowance = {
  method: string;
  /** The OpenAPI path template. */
  path: string;
  status: number;
  /** The error code allowed although the schema's enum lacks it. */
  code: string;
  why: string;
};

/** Statuses any operation may answer beyond its documented ones, and why. */
export const UNDOCUMENTED_STATUSES: Readonly<Record<number, string>> = {
  413: "A body over the size limit is refused before any operation sees it, as a gateway does; the OpenAPI documents no 413.",
};

export const ALLOWED_DEVIATIONS: readonly Allowance[] = [
  {
    method: "POST",
    path: "/quotes/{quoteId}/execute",
    status: 400,
    code: "INSUFFICIENT_FUNDS",
    why: "The live sandbox answers it (docs/protocol.md §7); Error400's enum does not list it.",
  },
];

type Operation = {
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  parameters: {
    name: string;
    in: string;
    required?: boolean;
    schema?: unknown;
    /** Where its schema is in the document. */
    pointer: string;
  }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  pointer: string;
};

// Under a DOM test environment `import.meta.url` may not be a file URL: the workspace root then.
const HERE = new URL("../spec/grid-openapi-wallet.yaml", import.meta.url);
const SPEC =
  HERE.protocol === "file:"
    ? HERE
    : join(process.cwd(), "packages/test/spec/grid-openapi-wallet.yaml");
const METHODS = ["get", "post", "put", "patch", "delete"];

/**
 * The service's pull requests after the subset's commit whose paths and schemas the judge merges
 * into it (../spec/README.md): their paths are added, their schemas added or, where the pull
 * request changes one (Error409's codes), put in place of the subset's. Each file names its pull
 * request, its state when copied and its base commit.
 */
export const PULL_REQUESTS = [
  { number: 850, state: "merged", file: "grid-api-pr850.yaml" },
  { number: 853, state: "open when copied", file: "grid-api-pr853.yaml" },
  { number: 802, state: "merged", file: "grid-api-pr802.yaml" },
  { number: 854, state: "open when copied", file: "grid-api-pr854.yaml" },
] as const;

// Beside the subset, found the way SPEC is (a template in `new URL` would be rewritten by Vite).
const specFile = (name: string) =>
  typeof SPEC === "string" ? join(SPEC, "..", name) : new URL(name, SPEC);

/** The subset with each pull request's paths and schemas merged in. */
function loadDocument(): Record<string, unknown> {
  const document = parse(readFileSync(SPEC, "utf8")) as Record<string, unknown>;
  const paths = document.paths as Record<string, unknown>;
  const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
  for (const { file } of PULL_REQUESTS) {
    const pr = parse(readFileSync(specFile(file), "utf8")) as {
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    };
    for (const [template, item] of Object.entries(pr.paths)) mergePath(paths, template, item);
    Object.assign(schemas, pr.components.schemas);
  }
  return document;
}

type PathItem = Record<string, { responses?: Record<string, unknown> } | undefined>;

/**
 * A pull request's path: a new one is added whole; on a path the subset has, an operation the
 * pull request only adds answers to (#850's `200`s) keeps the subset's operation, each answer it
 * names put in place of the subset's answer of that status.
 */
function mergePath(paths: Record<string, unknown>, template: string, item: unknown) {
  const base = paths[template] as PathItem | undefined;
  if (base === undefined) {
    paths[template] = item;
    return;
  }
  for (const [method, operation] of Object.entries(item as PathItem)) {
    const own = base[method];
    if (own === undefined || operation === undefined) base[method] = operation;
    else own.responses = { ...own.responses, ...operation.responses };
  }
}

const escapePointer = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");

function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  // oneOf failures list every branch's errors; the few most specific ones say enough.
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}${paramsOf(e)}`);
}

function paramsOf(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if ("allowedValues" in p) return ` (${JSON.stringify(p.allowedValues)})`;
  if ("additionalProperty" in p) return ` (${String(p.additionalProperty)})`;
  return "";
}

/** The judge: compiled validators for every operation of the OpenAPI subset. */
export type OpenApiJudge = {
  /** The operation for a method and path, or `undefined` when the subset has none. */
  operationOf(method: string, url: string): string | undefined;
  checkRequest(request: WireRequest): OpenApiFinding[];
  checkResponse(
    request: Pick<WireRequest, "method" | "url">,
    response: WireResponse,
  ): OpenApiFinding[];
  /**
   * Checks a value against one of the document's component schemas (`InternalAccount`,
   * `TransactionOneOf`…): the schema errors, none when it conforms. For answers of operations
   * outside the subset whose schemas the subset holds.
   */
  checkComponent(name: string, value: unknown): string[];
  /**
   * Whether the operation's 200 may be `WalletOperationProcessing` (#850, #854, #853's submit):
   * where the service documents a PROCESSING answer, the emulator's is judged against it.
   */
  documentsProcessing(method: string, url: string): boolean;
  /** The parsed document (read-only by convention), for checks that walk it. */
  readonly document: Readonly<Record<string, unknown>>;
};

let cached: OpenApiJudge | undefined;

/** Loads the OpenAPI subset (pull requests merged) once per process and compiles its schemas on first use. */
export function openApiJudge(): OpenApiJudge {
  cached ??= createJudge(loadDocument());
  return cached;
}

function createJudge(document: Record<string, unknown>): OpenApiJudge {
  // OpenAPI keywords (discriminator, example, xml, readOnly…) are annotations to JSON Schema:
  // strict mode off lets them be, while every real 2020-12 keyword is enforced.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  // ajv-formats is CommonJS: its plugin is the default export or the module itself.
  const addFormats = ((formatsPlugin as { default?: unknown }).default ?? formatsPlugin) as (
    instance: Ajv2020,
  ) => Ajv2020;
  addFormats(ajv);
  for (const format of ["int32", "int64", "float", "double", "byte", "binary", "password"]) {
    ajv.addFormat(format, true);
  }
  ajv.addSchema(document, "openapi.json");
  const componentSchemas = (document.components as { schemas: Record<string, unknown> }).schemas;
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string): ValidateFunction => {
    let fn = compiled.get(pointer);
    if (!fn) {
      fn = ajv.compile({ $ref: `openapi.json#${pointer}` });
      compiled.set(pointer, fn);
    }
    return fn;
  };

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(
    document.paths as Record<string, Record<string, unknown>>,
  )) {
    type Parameter = Omit<Operation["parameters"][number], "pointer">;
    const withPointers = (list: Parameter[] | undefined, at: string) =>
      (list ?? []).map((p, i) => ({ ...p, pointer: `${at}/parameters/${i}/schema` }));
    const itemPointer = `/paths/${escapePointer(template)}`;
    const shared = withPointers(item.parameters as Parameter[] | undefined, itemPointer);
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const segments = template.split("/").filter(Boolean);
      operations.push({
        method: method.toUpperCase(),
        template,
        pattern: new RegExp(
          `^/${segments.map((s) => (s.startsWith("{") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/")}$`,
        ),
        literalSegments: segments.filter((s) => !s.startsWith("{")).length,
        parameters: [
          ...shared,
          ...withPointers(op.parameters as Parameter[] | undefined, `${itemPointer}/${method}`),
        ],
        ...(op.requestBody ? { requestBody: op.requestBody as Operation["requestBody"] } : {}),
        responses: (op.responses ?? {}) as Operation["responses"],
        pointer: `/paths/${escapePointer(template)}/${method}`,
      });
    }
  }

  const find = (method: string, url: string) => {
    const path = url.split("?")[0] ?? "";
    return operations
      .filter((op) => op.method === method.toUpperCase() && op.pattern.test(path))
      .sort((a, b) => b.literalSegments - a.literalSegments)[0];
  };

  const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      return { ok: false };
    }
  };

  return {
    operationOf(method, url) {
      const op = find(method, url);
      return op && `${op.method} ${op.template}`;
    },

    documentsProcessing(method, url) {
      const schema = find(method, url)?.responses["200"]?.content?.["application/json"]?.schema;
      const ref = (schema as { $ref?: string } | undefined)?.$ref;
      const name = ref?.replace("#/components/schemas/", "");
      const named = name === undefined ? schema : componentSchemas[name];
      return (
        name === "WalletOperationProcessing" ||
        JSON.stringify(named ?? null).includes("#/components/schemas/WalletOperationProcessing")
      );
    },

    checkRequest(request) {
      return guarded("request", request, () => checkRequest(request));
    },

    checkResponse(request, response) {
      return guarded("response", request, () => checkResponse(request, response));
    },

    checkComponent(name, value) {
      const fn = validator(`/components/schemas/${escapePointer(name)}`);
      return fn(value) ? [] : describeErrors(fn.errors);
    },

    document,
  };

  function checkRequest(request: WireRequest): OpenApiFinding[] {
    const op = find(request.method, request.url);
    const path = request.url.split("?")[0] ?? "";
    if (!op) return [];
    const finding = (errors: string[]) => findingsOf("request", op, path, errors);
    const errors: string[] = [];
    const query = new URLSearchParams(request.url.split("?")[1] ?? "");
    op.parameters.forEach((parameter) => {
      if (parameter.in !== "query" && parameter.in !== "header") return;
      const value =
        parameter.in === "query" ? query.get(parameter.name) : request.headers.get(parameter.name);
      if (value === null) {
        if (parameter.required) errors.push(`${parameter.in} ${parameter.name} is required`);
        return;
      }
      if (!parameter.schema) return;
      const fn = validator(parameter.pointer);
      // Query values are strings on the wire; integer parameters are read as numbers.
      const typed =
        (parameter.schema as { type?: unknown }).type === "integer" ? Number(value) : value;
      if (!fn(typed)) {
        errors.push(
          ...describeErrors(fn.errors).map((e) => `${parameter.in} ${parameter.name}${e}`),
        );
      }
    });
    const body = request.body ?? "";
    if (body === "") {
      if (op.requestBody?.required) errors.push("a request body is required");
      return finding(errors);
    }
    const schema = op.requestBody?.content?.["application/json"]?.schema;
    if (!op.requestBody) return finding([...errors, "this operation takes no request body"]);
    if (!schema) return finding(errors);
    const json = parseJson(body);
    if (!json.ok) return finding([...errors, "the request body is not JSON"]);
    const fn = validator(`${op.pointer}/requestBody/content/application~1json/schema`);
    if (!fn(json.value)) errors.push(...describeErrors(fn.errors));
    return finding(errors);
  }

  function checkResponse(
    request: Pick<WireRequest, "method" | "url">,
    response: WireResponse,
  ): OpenApiFinding[] {
    const op = find(request.method, request.url);
    const path = request.url.split("?")[0] ?? "";
    if (!op) return [];
    const finding = (errors: string[]) => findingsOf("response", op, path, errors, response.status);
    const key = String(response.status);
    const declared = op.responses[key] ?? op.responses.default;
    if (!declared) {
      if (UNDOCUMENTED_STATUSES[response.status]) return [];
      return finding([`status ${response.status} is not documented for this operation`]);
    }
    const schema = declared.content?.["application/json"]?.schema;
    if (!schema) {
      return response.body.trim() === ""
        ? []
        : finding(["a body where the OpenAPI documents none"]);
    }
    const json = parseJson(response.body);
    if (!json.ok) return finding(["the response body is not JSON"]);
    const fn = validator(
      `${op.pointer}/responses/${op.responses[key] ? key : "default"}/content/application~1json/schema`,
    );
    if (fn(json.value)) return [];
    const code = (json.value as { code?: unknown } | null)?.code;
    const allowed = ALLOWED_DEVIATIONS.some(
      (a) =>
        a.method === op.method &&
        a.path === op.template &&
        a.status === response.status &&
        a.code === code,
    );
    return allowed ? [] : finding(describeErrors(fn.errors));
  }

  /** No finding for no errors, else one naming the operation. */
  function findingsOf(
    side: OpenApiFinding["side"],
    op: Operation,
    path: string,
    errors: string[],
    status?: number,
  ): OpenApiFinding[] {
    if (errors.length === 0) return [];
    const operation = `${op.method} ${op.template}`;
    return [{ side, method: op.method, path, operation, ...(status ? { status } : {}), errors }];
  }

  /** A judge that cannot judge (a schema that does not compile) reports it, never throws. */
  function guarded(
    side: OpenApiFinding["side"],
    request: Pick<WireRequest, "method" | "url">,
    check: () => OpenApiFinding[],
  ): OpenApiFinding[] {
    try {
      return check();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return [
        {
          side,
          method: request.method,
          path: request.url.split("?")[0] ?? "",
          errors: [`the judge failed: ${message}`],
        },
      ];
    }
  }
}

/** Renders findings for a failing assertion: one line per finding with its schema errors. */
export function formatFindings(findings: readonly (OpenApiFinding & { test?: string })[]): string {
  return findings
    .map(
      (f) =>
        `${f.side} ${f.method} ${f.path}${f.status ? ` → ${f.status}` : ""}` +
        `${f.operation ? ` [${f.operation}]` : ""}${f.test ? ` in "${f.test}"` : ""}:\n    ${f.errors.join("\n    ")}`,
    )
    .join("\n");
}

/** What `judgingFetch` reports a finding with. */
export type JudgingFetchOptions = {
  /** The service's base URL: paths are judged relative to it; other URLs pass unjudged. */
  base: string;
  /** Judge requests too (default true). Suites that send malformed requests on purpose say false. */
  requests?: boolean;
  onFinding: (finding: OpenApiFinding) => void;
  fetch?: typeof fetch;
};

const textOf = (body: BodyInit | null | undefined): string | undefined => {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer)
    return new TextDecoder().decode(body);
  return undefined;
};

/**
 * A `fetch` that judges every exchange with the service against the OpenAPI: the request as sent
 * and the answer as received (answers an injected fault shaped, marked by the emulator's
 * `X-Emulator-Fault`, are skipped, but for `processing`: a PROCESSING answer is the service's). Findings go to `onFinding`; the exchange itself is untouched.
 */
export function judgingFetch(options: JudgingFetchOptions): typeof fetch {
  const judge = openApiJudge();
  const base = options.base.replace(/\/$/, "");
  return async (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const url = request ? request.url : String(input);
    const send = options.fetch ?? globalThis.fetch;
    if (!url.startsWith(`${base}/`)) return send(input, init);
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    // The service's paths, with or without the version prefix the emulator also serves.
    const relative = url.slice(base.length).replace(/^\/grid\/\d{4}-\d{2}-\d{2}(?=\/)/, "");
    if (options.requests !== false) {
      const body = textOf(init?.body) ?? (request ? await request.clone().text() : undefined);
      const headers = new Headers(init?.headers ?? request?.headers);
      for (const finding of judge.checkRequest({ method, url: relative, headers, body })) {
        options.onFinding(finding);
      }
    }
    const received = await send(input, init);
    // Read once and handed on as a new Response: clone() is not reliable in every test
    // environment's fetch (happy-dom's).
    const bytes = new Uint8Array(await received.arrayBuffer());
    const empty = received.status === 204 || received.status === 205 || received.status === 304;
    const response = new Response(empty ? null : bytes, {
      status: received.status,
      statusText: received.statusText,
      headers: received.headers,
    });
    // A PROCESSING answer where the service documents one (#850, #854, #853's submit) is the
    // service's own: judged like any other. Elsewhere (quote execute) it stays fault-shaped.
    const fault = received.headers.get("X-Emulator-Fault");
    const judged =
      fault === null || (fault === "processing" && judge.documentsProcessing(method, relative));
    if (judged) {
      const body = new TextDecoder().decode(bytes);
      for (const finding of judge.checkResponse(
        { method, url: relative },
        { status: received.status, headers: received.headers, body },
      )) {
        options.onFinding(finding);
      }
    }
    return response;
  };
}
