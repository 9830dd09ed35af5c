// Request validation: small composable schemas that report every bad field at once as
// `FieldError`s (spec "Errors": `details.errors[]` with `field`, `message`, `constraint`).

/** A named constraint that a field failed, as the service describes it. */
export type FieldConstraint = {
  format?: string;
  pattern?: string;
  enum?: readonly string[];
  minLength?: number;
  maxLength?: number;
};

/** One invalid field: a dot-notation path, a message and the constraint when there is one. */
export type FieldError = { field: string; message: string; constraint?: FieldConstraint };

/**
 * What a schema is, for the check that compares the emulator's request schemas with the
 * service's OpenAPI (test/specCheck.test.ts): objects name their fields, unions their variants.
 */
export type SchemaMeta =
  | { kind: "object"; fields: Readonly<Record<string, Schema<unknown>>>; open: boolean }
  | { kind: "union"; discriminator: string; variants: Readonly<Record<string, Schema<unknown>>> }
  | { kind: "array"; item: Schema<unknown> }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "any" };

/** A schema checks an unknown value and returns it typed, pushing errors for every bad field. */
export interface Schema<T> {
  readonly optional: boolean;
  /** Its structure, where it has one (scalars have none). */
  readonly meta?: SchemaMeta;
  check(value: unknown, field: string, errors: FieldError[]): T | undefined;
}

/** The type a schema produces. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K]["optional"] extends true ? K : never;
}[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** The object type an object schema produces (optional fields may be absent, never `undefined`). */
export type ObjectOf<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

interface OptionalSchema<T> extends Schema<T> {
  readonly optional: true;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Marks a field as optional: absent is fine, but `null` is still checked by the inner schema. */
export function optional<T>(inner: Schema<T>): OptionalSchema<T> {
  return {
    optional: true,
    ...(inner.meta ? { meta: inner.meta } : {}),
    check: (v, f, e) => inner.check(v, f, e),
  };
}

/** Accepts `null` as well as the inner schema's values. */
export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return {
    optional: inner.optional,
    ...(inner.meta ? { meta: inner.meta } : {}),
    check: (v, f, e) => (v === null ? null : inner.check(v, f, e)),
  };
}

/** String constraints; `format` is only a label reported with a `pattern` failure. */
export type StringRules = {
  minLength?: number;
  maxLength?: number;
  pattern?: RegExp;
  format?: string;
  /** Message used when the pattern fails. */
  patternMessage?: string;
};

/** A string field. */
export function string(rules: StringRules = {}): Schema<string> {
  return {
    optional: false,
    check(value, field, errors) {
      if (typeof value !== "string") {
        errors.push({ field, message: `expected a string, got ${describe(value)}` });
        return undefined;
      }
      if (rules.minLength !== undefined && value.length < rules.minLength) {
        errors.push({
          field,
          message: `must be at least ${rules.minLength} characters`,
          constraint: { minLength: rules.minLength },
        });
        return undefined;
      }
      if (rules.maxLength !== undefined && value.length > rules.maxLength) {
        errors.push({
          field,
          message: `must be at most ${rules.maxLength} characters`,
          constraint: { maxLength: rules.maxLength },
        });
        return undefined;
      }
      if (rules.pattern && !rules.pattern.test(value)) {
        const constraint: FieldConstraint = { pattern: rules.pattern.source };
        if (rules.format) constraint.format = rules.format;
        errors.push({
          field,
          message: rules.patternMessage ?? `does not match ${rules.pattern.source}`,
          constraint,
        });
        return undefined;
      }
      return value;
    },
  };
}

/** One of a fixed set of strings. */
export function enumOf<const V extends string>(values: readonly V[]): Schema<V> {
  return {
    optional: false,
    meta: { kind: "enum", values },
    check(value, field, errors) {
      if (typeof value !== "string" || !(values as readonly string[]).includes(value)) {
        errors.push({
          field,
          message: `must be one of ${values.join(", ")}`,
          constraint: { enum: values },
        });
        return undefined;
      }
      return value as V;
    },
  };
}

/** Exactly one string value (a discriminator such as `type`). */
export function literal<const V extends string>(expected: V): Schema<V> {
  return enumOf([expected]);
}

/** A safe integer within bounds. */
export function integer(rules: { min?: number; max?: number } = {}): Schema<number> {
  return {
    optional: false,
    check(value, field, errors) {
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        errors.push({ field, message: `expected an integer, got ${describe(value)}` });
        return undefined;
      }
      if (rules.min !== undefined && value < rules.min) {
        errors.push({ field, message: `must be at least ${rules.min}` });
        return undefined;
      }
      if (rules.max !== undefined && value > rules.max) {
        errors.push({ field, message: `must be at most ${rules.max}` });
        return undefined;
      }
      return value;
    },
  };
}

/** A boolean field. */
export function boolean(): Schema<boolean> {
  return {
    optional: false,
    check(value, field, errors) {
      if (typeof value !== "boolean") {
        errors.push({ field, message: `expected a boolean, got ${describe(value)}` });
        return undefined;
      }
      return value;
    },
  };
}

/** An array whose items all match `item`. */
export function array<T>(
  item: Schema<T>,
  rules: { minItems?: number; maxItems?: number } = {},
): Schema<T[]> {
  return {
    optional: false,
    meta: { kind: "array", item },
    check(value, field, errors) {
      if (!Array.isArray(value)) {
        errors.push({ field, message: `expected an array, got ${describe(value)}` });
        return undefined;
      }
      if (rules.minItems !== undefined && value.length < rules.minItems) {
        errors.push({ field, message: `must have at least ${rules.minItems} item(s)` });
        return undefined;
      }
      if (rules.maxItems !== undefined && value.length > rules.maxItems) {
        errors.push({ field, message: `must have at most ${rules.maxItems} item(s)` });
        return undefined;
      }
      const before = errors.length;
      const out = value.map((v, i) => item.check(v, `${field}[${i}]`, errors));
      return errors.length === before ? (out as T[]) : undefined;
    },
  };
}

/**
 * An object with exactly these fields: unknown fields are errors, so a typo never passes
 * silently. Pass `{ open: true }` to accept and keep unknown fields (free-form objects).
 */
export function object<S extends Shape>(
  shape: S,
  options: { open?: boolean } = {},
): Schema<ObjectOf<S>> {
  return {
    optional: false,
    meta: { kind: "object", fields: shape, open: options.open === true },
    check(value, field, errors) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        errors.push({
          field: field || "body",
          message: `expected an object, got ${describe(value)}`,
        });
        return undefined;
      }
      const input = value as Record<string, unknown>;
      const before = errors.length;
      const out: Record<string, unknown> = {};
      const path = (key: string) => (field ? `${field}.${key}` : key);
      for (const [key, schema] of Object.entries(shape)) {
        const present = Object.hasOwn(input, key);
        if (!present) {
          if (!schema.optional) errors.push({ field: path(key), message: "is required" });
          continue;
        }
        const checked = schema.check(input[key], path(key), errors);
        if (checked !== undefined) out[key] = checked;
      }
      for (const key of Object.keys(input)) {
        if (Object.hasOwn(shape, key)) continue;
        if (options.open) out[key] = input[key];
        else errors.push({ field: path(key), message: "is not a known field" });
      }
      return errors.length === before ? (out as ObjectOf<S>) : undefined;
    },
  };
}

/** Any JSON value (free-form fields the emulator stores without interpreting). */
export function anyJson(): Schema<unknown> {
  return { optional: false, meta: { kind: "any" }, check: (v) => v };
}

/**
 * An object whose `discriminator` field picks the schema it is checked by (the service's
 * `oneOf` with a `discriminator`). An unknown discriminator value is one error on that field.
 */
export function union<V extends Record<string, Schema<unknown>>>(
  discriminator: string,
  variants: V,
): Schema<Infer<V[keyof V]>> {
  const values = Object.keys(variants);
  return {
    optional: false,
    meta: { kind: "union", discriminator, variants },
    check(value, field, errors) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        errors.push({
          field: field || "body",
          message: `expected an object, got ${describe(value)}`,
        });
        return undefined;
      }
      const tag = (value as Record<string, unknown>)[discriminator];
      const variant =
        typeof tag === "string" && Object.hasOwn(variants, tag) ? variants[tag] : undefined;
      if (!variant) {
        errors.push({
          field: field ? `${field}.${discriminator}` : discriminator,
          message: `must be one of ${values.join(", ")}`,
          constraint: { enum: values },
        });
        return undefined;
      }
      return variant.check(value, field, errors) as Infer<V[keyof V]> | undefined;
    },
  };
}

/** A string the `test` function accepts (checks a regular expression cannot say, e.g. checksums). */
export function checkedString(test: (value: string) => boolean, message: string): Schema<string> {
  return {
    optional: false,
    check(value, field, errors) {
      if (typeof value !== "string") {
        errors.push({ field, message: `expected a string, got ${describe(value)}` });
        return undefined;
      }
      if (!test(value)) {
        errors.push({ field, message });
        return undefined;
      }
      return value;
    },
  };
}

/** Runs a schema; returns the value or the list of field errors. */
export function validate<T>(
  schema: Schema<T>,
  value: unknown,
  field = "",
): { ok: true; value: T } | { ok: false; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const out = schema.check(value, field, errors);
  if (errors.length > 0 || out === undefined) {
    return {
      ok: false,
      errors: errors.length > 0 ? errors : [{ field: field || "body", message: "is invalid" }],
    };
  }
  return { ok: true, value: out };
}

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/** The pattern of a service id `<Prefix>:<uuid>`. */
export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}:${UUID}$`);
}

/** A string field holding an id of the given resource prefix. */
export function id(prefix: string): Schema<string> {
  return string({
    pattern: idPattern(prefix),
    patternMessage: `must be an id of the form ${prefix}:<uuid>`,
  });
}

/** Compressed (66 hex) or uncompressed (130 hex) P-256 public key, as the spec's pattern. */
export const CLIENT_PUBLIC_KEY = /^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/;
/** Uncompressed P-256 public key (130 hex). */
export const UNCOMPRESSED_PUBLIC_KEY = /^04[0-9a-fA-F]{128}$/;
