// The emulator against the service's OpenAPI (packages/test/spec): every path and method, every
// request-body field and enum value, and every query enum of a list. A difference is either fixed
// or listed in SPEC_GAPS (src/gaps.ts), which the README's "Gaps" section shows too; a listed
// gap that is no longer one fails as well, so the table stays true.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openApiJudge } from "../../test/src/openapi.js";
import { SPEC_GAPS } from "../src/gaps.js";
import { createRouter } from "../src/http/router.js";
import { createEmulator } from "../src/index.js";
import { serviceRoutes } from "../src/routes.js";
import type { FieldError, Schema } from "../src/validation.js";

type Json = Record<string, unknown>;
const document = openApiJudge().document as Json;
const router = createRouter(serviceRoutes);
const METHODS = ["get", "post", "put", "patch", "delete"];
const SAMPLE_ID = "019542f5-b3e7-1d02-0000-000000000001";

function resolve(schema: unknown): Json {
  let s = (schema ?? {}) as Json;
  for (let i = 0; i < 20 && typeof s.$ref === "string"; i++) {
    const path = (s.$ref as string).replace(/^#\//, "").split("/");
    s = path.reduce<Json>(
      (node, key) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")] as Json,
      document,
    );
  }
  return s;
}

/** An `allOf` merged into one object schema: properties and required fields of every part. */
function flatten(schema: unknown): Json {
  const s = resolve(schema);
  if (!Array.isArray(s.allOf)) return s;
  const out: Json = { ...s, allOf: undefined, properties: { ...((s.properties as Json) ?? {}) } };
  const required = new Set<string>((s.required as string[]) ?? []);
  for (const part of s.allOf as unknown[]) {
    const p = flatten(part);
    Object.assign(out.properties as Json, p.properties ?? {});
    for (const r of (p.required as string[]) ?? []) required.add(r);
    for (const key of ["enum", "type", "oneOf", "discriminator", "items"]) {
      if (p[key] !== undefined && out[key] === undefined) out[key] = p[key];
    }
  }
  out.required = [...required];
  return out;
}

function accepts(schema: Schema<unknown>, value: unknown, field: string): boolean {
  const errors: FieldError[] = [];
  return schema.check(value, field, errors) !== undefined && errors.length === 0;
}

/** Walks the OpenAPI schema and the emulator's side by side; pushes each difference. */
function compare(spec: unknown, emu: Schema<unknown>, at: string, where: string, out: string[]) {
  const s = flatten(spec);
  const meta = emu.meta;
  if (meta?.kind === "any") return;
  const mapping = (s.discriminator as { propertyName?: string; mapping?: Json } | undefined)
    ?.mapping;
  if (Array.isArray(s.oneOf) && mapping) {
    const discriminator = (s.discriminator as { propertyName: string }).propertyName;
    if (meta?.kind === "object" && meta.open) return;
    for (const [value, ref] of Object.entries(mapping)) {
      const variant =
        meta?.kind === "union" && meta.discriminator === discriminator
          ? meta.variants[value]
          : meta?.kind === "object" &&
              meta.fields[discriminator] &&
              accepts(meta.fields[discriminator], value, discriminator)
            ? emu
            : undefined;
      if (!variant) out.push(`${where} ${at}${discriminator}=${value}`);
      else compare({ $ref: ref }, variant, at, where, out);
    }
    return;
  }
  if (Array.isArray(s.enum)) {
    for (const value of s.enum) {
      if (!accepts(emu, value, at)) out.push(`${where} ${at.replace(/\.$/, "")}=${String(value)}`);
    }
    return;
  }
  if (s.type === "array" && s.items && meta?.kind === "array") {
    compare(s.items, meta.item, `${at.replace(/\.$/, "")}[].`, where, out);
    return;
  }
  if (s.properties && meta?.kind === "object") {
    const required = new Set((s.required as string[]) ?? []);
    for (const [name, property] of Object.entries(s.properties as Json)) {
      const field = meta.fields[name];
      if (!field) {
        if (!meta.open) out.push(`${where} ${at}${name}`);
        continue;
      }
      if (!required.has(name) && !field.optional) out.push(`${where} ${at}${name} (required)`);
      compare(property, field, `${at}${name}.`, where, out);
    }
  }
}

type Operation = { method: string; template: string; op: Json };
const operations: Operation[] = Object.entries(document.paths as Record<string, Json>).flatMap(
  ([template, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      method: m.toUpperCase(),
      template,
      op: item[m] as Json,
    })),
);
const samplePath = (template: string) =>
  template.replace(/\{[^}]+\}/g, (name) => {
    const prefix = name.includes("quote")
      ? "Quote"
      : name.includes("customer")
        ? "Customer"
        : name.includes("transaction")
          ? "Transaction"
          : "InternalAccount";
    return `${prefix}:${SAMPLE_ID}`;
  });

/** Every difference the check finds, by kind. */
function differences(): { paths: string[]; bodies: string[]; queries: Promise<string[]> } {
  const paths: string[] = [];
  const bodies: string[] = [];
  for (const { method, template, op } of operations) {
    const match = router(method, samplePath(template));
    if (match.kind !== "found") {
      paths.push(`${method} ${template}`);
      continue;
    }
    const body = (op.requestBody as Json | undefined)?.content as Json | undefined;
    const schema = (body?.["application/json"] as Json | undefined)?.schema;
    if (!schema) continue;
    if (!match.route.body) {
      bodies.push(`${method} ${template} body`);
      continue;
    }
    compare(schema, match.route.body, "", `${method} ${template}`, bodies);
  }
  return { paths, bodies, queries: queryDifferences() };
}

/** Every enum value of a list's query parameters, sent to the emulator: none may be refused. */
async function queryDifferences(): Promise<string[]> {
  const emulator = createEmulator({ seed: "spec-check" });
  const out: string[] = [];
  for (const { method, template, op } of operations) {
    if (method !== "GET" || template.includes("{")) continue;
    if (router(method, template).kind !== "found") continue;
    for (const parameter of (op.parameters as Json[] | undefined) ?? []) {
      if (parameter.in !== "query") continue;
      const values = (flatten(parameter.schema).enum as string[] | undefined) ?? [];
      for (const value of values) {
        const url = `http://emulator${template}?${parameter.name as string}=${encodeURIComponent(value)}`;
        const response = await emulator.fetch(
          new Request(url, { headers: { authorization: `Basic ${btoa("emulator:emulator")}` } }),
        );
        if (response.status === 400)
          out.push(`${method} ${template} ?${parameter.name as string}=${value}`);
      }
    }
  }
  return out;
}

const gapKeys = SPEC_GAPS.map((g) => g.where);

describe("the emulator against the service's OpenAPI", () => {
  it("serves every path and method of the OpenAPI, or lists it as a gap", () => {
    const { paths } = differences();
    expect(paths.filter((p) => !gapKeys.includes(p))).toEqual([]);
  });

  it("accepts every request-body field and enum value of the OpenAPI, or lists it as a gap", () => {
    const { bodies } = differences();
    expect(bodies.filter((p) => !gapKeys.includes(p))).toEqual([]);
  });

  it("accepts every enum value of a list's query parameters, or lists it as a gap", async () => {
    const queries = await differences().queries;
    expect(queries.filter((p) => !gapKeys.includes(p))).toEqual([]);
  });

  it("lists no gap that is not one, and the README shows every gap", async () => {
    const { paths, bodies, queries } = differences();
    const found = new Set([...paths, ...bodies, ...(await queries)]);
    expect(gapKeys.filter((g) => !found.has(g))).toEqual([]);
    expect(new Set(gapKeys).size).toBe(gapKeys.length);
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Gaps"));
    expect(gapKeys.filter((g) => !section.includes(`\`${g}\``))).toEqual([]);
  });

  it("notices a difference: a request schema narrower than the OpenAPI is named", () => {
    const out: string[] = [];
    const quote = serviceRoutes.find((r) => r.method === "POST" && r.pattern === "/quotes")!;
    const spec = {
      type: "object",
      properties: {
        lockedCurrencySide: { type: "string", enum: ["SENDING", "RECEIVING", "SIDEWAYS"] },
        notAField: { type: "string" },
      },
    };
    compare(spec, quote.body!, "", "POST /quotes", out);
    expect(out).toEqual([
      "POST /quotes lockedCurrencySide (required)",
      "POST /quotes lockedCurrencySide=SIDEWAYS",
      "POST /quotes notAField",
    ]);
  });
});
