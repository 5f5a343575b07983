// Hostile request bodies and query strings, generated with fast-check from the project's own zod schemas: a
// schema is turned into JSON Schema by zod itself (z.toJSONSchema, its public introspection), a value close
// to valid is generated from that, and then broken in one place (a wrong type, a missing or unknown key, a
// boundary or oversized value, a NUL, a lone surrogate, deep nesting), or the bytes themselves are broken
// (invalid UTF-8, truncated JSON, a lying Content-Encoding). So the generators follow the schemas as they change.
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { z } from "zod";
import { findBadText } from "@/lib/validations/text";

/** The subset of JSON Schema that z.toJSONSchema writes for this project's schemas. */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
};

/** How many generated inputs each endpoint gets: HOSTILE_RUNS, or `npm run bench -- hostile` sets more. */
export const hostileRuns = (fallback = 100) => Number(process.env.HOSTILE_RUNS) || fallback;

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const dates = fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true });

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  if (s.format === "uuid") return fc.uuid();
  if (s.format === "date-time") return dates.map((d) => d.toISOString());
  if (s.format === "date") return dates.map(day);
  if (s.format === "email") return fc.emailAddress();
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 1e9));
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40), unit: "grapheme" });
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? s.exclusiveMinimum ?? -1e9, -Number.MAX_SAFE_INTEGER);
  const max = Math.min(s.maximum ?? s.exclusiveMaximum ?? 1e9, Number.MAX_SAFE_INTEGER);
  const inside = integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  // the bounds themselves, where off-by-one mistakes live
  return fc.oneof(inside, fc.constantFrom(min, max));
}

/** Values that follow the schema (as far as JSON Schema says: zod's refinements are not in it). */
export function validish(s: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const options = s.anyOf ?? s.oneOf;
  if (options) return fc.oneof(...options.map((o) => validish(o, depth)));
  if (s.allOf?.length) return validish(s.allOf[0], depth);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "object": {
      const props = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, validish(v, depth + 1)]));
      const record = fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
      if (typeof s.additionalProperties !== "object" || depth > 4) return record;
      const keys = s.propertyNames ? (validish(s.propertyNames, depth + 1) as fc.Arbitrary<string>) : fc.string();
      const extra = fc.dictionary(keys, validish(s.additionalProperties, depth + 1), { maxKeys: 3 });
      return fc.tuple(record, extra).map(([a, b]) => ({ ...b, ...a }));
    }
    case "array": {
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => validish(p, depth + 1)));
      const max = Math.min(s.maxItems ?? 4, 4);
      return fc.array(s.items ? validish(s.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: Math.min(s.minItems ?? 0, max),
        maxLength: max,
      });
    }
    case "string":
      return stringArb(s);
    case "integer":
      return numberArb(s, true);
    case "number":
      return numberArb(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Leaves that break a field: wrong types, boundaries past any limit, and text a database or a path must refuse. */
const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    -0,
    0.5,
    2 ** 53,
    -(2 ** 63),
    1e308,
    "",
    " ",
    [],
    {},
    "\u0000",
    "name\u0000.jsonl",
    "\ud800",
    "a\udfffb",
    "\ud83d",
    "\u202egnp.exe",
    "\ufeffbom",
    "..",
    "../../etc/passwd",
    "a/../../b",
    "/etc/shadow",
    "C:\\Windows",
    "~/.ssh/id_rsa",
    "%00",
    "<script>alert(1)</script>",
    "=cmd|' /C calc'!A0",
    "x".repeat(5_000),
    "🙂".repeat(3_000),
    "9".repeat(400),
  ),
  fc.string({ unit: "binary", maxLength: 50 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer(),
  fc.double({ noNaN: true }),
);

type Path = (string | number)[];

/** Every place in a JSON value (the root included), for picking one to break. */
function placesOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => placesOf(v, [...at, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) placesOf(v, [...at, k], out);
  return out;
}

type Mutation = "replace" | "delete" | "unknown-key" | "nest" | "wrap-array" | "poison-text";

/** What PostgreSQL cannot store in text or jsonb, put inside an otherwise valid string. */
const POISON = ["\u0000", "\ud800", "\udfff", "\ud83d", "a\u0000"];

function mutate(base: unknown, pick: number, leaf: unknown, kind: Mutation): unknown {
  const root = { v: structuredClone(base) } as Record<string | number, unknown>;
  const places = placesOf(root.v);
  const at = ["v", ...places[pick % places.length]];
  const parent = at.slice(0, -1).reduce<Record<string | number, unknown>>((o, k) => o[k] as never, root);
  const key = at[at.length - 1];
  const current = parent[key];
  switch (kind) {
    case "replace":
      parent[key] = leaf;
      break;
    case "delete":
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
      break;
    case "unknown-key":
      if (current && typeof current === "object" && !Array.isArray(current))
        (current as Record<string, unknown>)[typeof leaf === "string" && leaf ? leaf : "__proto__x"] = leaf;
      else parent[key] = { [keyOf(leaf)]: current };
      break;
    case "nest": {
      let v: unknown = current;
      for (let i = 0; i < 200; i++) v = i % 2 ? [v] : { a: v };
      parent[key] = v;
      break;
    }
    case "wrap-array":
      parent[key] = Array.from({ length: 3 }, () => current);
      break;
    case "poison-text": {
      // the first string at or after the picked place, so that a body valid but for this one character is common
      const strings = places.filter((p) => typeof p.reduce<unknown>((o, k) => (o as never)[k], root.v) === "string");
      if (!strings.length) break;
      const target = ["v", ...strings[pick % strings.length]];
      const holder = target.slice(0, -1).reduce<Record<string | number, unknown>>((o, k) => o[k] as never, root);
      const text = holder[target[target.length - 1]] as string;
      const poison = POISON[pick % POISON.length];
      const at = text.length ? pick % text.length : 0;
      holder[target[target.length - 1]] = text.slice(0, at) + poison + text.slice(at);
      break;
    }
  }
  return root.v;
}

/**
 * A property name made from any leaf. String() throws on a leaf like `{"toString": 1}` or an object without a
 * prototype (it failed a CI run that drew one); JSON.stringify takes every JSON value.
 */
function keyOf(leaf: unknown): string {
  try {
    return JSON.stringify(leaf) ?? "undefined";
  } catch {
    return "leaf";
  }
}

/** Whether the server must refuse the value: text a database cannot hold, or what the schema refuses. */
export function mustRefuse(schema: z.ZodType, value: unknown): boolean {
  return findBadText(value) !== null || !schema.safeParse(value).success;
}

/** JSON values the schema refuses: a value close to valid, broken in one place (or a whole random value). */
export function hostileValue(schema: z.ZodType): fc.Arbitrary<unknown> {
  const base = validish(jsonSchemaOf(schema));
  const broken = fc
    .tuple(
      base,
      fc.nat(),
      hostileLeaf,
      fc.constantFrom<Mutation>("replace", "delete", "unknown-key", "nest", "wrap-array"),
    )
    .map(([v, pick, leaf, kind]) => mutate(v, pick, leaf, kind));
  return fc
    .oneof({ weight: 8, arbitrary: broken }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) })
    .filter((v) => mustRefuse(schema, v));
}

/** A request body and the headers that go with it. */
export type HostileBody = { body: Uint8Array; headers: Record<string, string>; label: string };

const utf8 = (s: string) => new TextEncoder().encode(s);
/** JSON text of a value; nothing at all (an empty body) for a value deleted whole. */
const jsonText = (v: unknown) => JSON.stringify(v) ?? "";

/** Puts an invalid UTF-8 sequence inside the first string value of the JSON text (or its first string). */
function invalidUtf8In(json: string, bytes: number[]): Uint8Array {
  const value = json.indexOf(':"');
  const at = value >= 0 ? value + 2 : json.indexOf('"') + 1;
  const head = utf8(json.slice(0, at));
  const tail = utf8(json.slice(at));
  return new Uint8Array([...head, ...bytes, ...tail]);
}

const INVALID_UTF8 = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80]];

/** Bodies whose bytes or headers are broken, around a value the schema would take or not. */
export function hostileBody(schema: z.ZodType): fc.Arbitrary<HostileBody> {
  const json = { "content-type": "application/json" };
  const asJson = hostileValue(schema).map((v) => ({ body: utf8(jsonText(v)), headers: json, label: "json" }));
  const near = validish(jsonSchemaOf(schema)).map(jsonText);
  const bytes = fc.oneof(
    fc
      .tuple(near, fc.constantFrom(...INVALID_UTF8))
      .map(([text, b]) => ({ body: invalidUtf8In(text, b), headers: json, label: "invalid utf-8" })),
    fc.tuple(near, fc.nat()).map(([text, n]) => ({
      body: utf8(text.slice(0, n % Math.max(text.length, 1))),
      headers: json,
      label: "truncated",
    })),
    fc.uint8Array({ maxLength: 200 }).map((b) => ({ body: b, headers: json, label: "random bytes" })),
    near.map((text) => ({ body: utf8(text), headers: { "content-type": "text/plain" }, label: "wrong type" })),
    near.map((text) => ({
      body: utf8(text),
      headers: { ...json, "content-encoding": "gzip" },
      label: "not gzip",
    })),
    near.map((text) => ({ body: utf8(text), headers: { ...json, "content-encoding": "br" }, label: "brotli" })),
    fc.constantFrom("[".repeat(100_000), '{"a":'.repeat(50_000), "1".repeat(10_000)).map((text) => ({
      body: utf8(text),
      headers: json,
      label: "deep or huge",
    })),
    hostileValue(schema).map((v) => ({
      body: new Uint8Array(gzipSync(jsonText(v))),
      headers: { ...json, "content-encoding": "gzip" },
      label: "gzip json",
    })),
  );
  return fc.oneof({ weight: 3, arbitrary: asJson }, { weight: 2, arbitrary: bytes });
}

/**
 * Query strings: a query the schema reads, broken in one parameter (or that parameter repeated), or raw text
 * with escapes that decode to NUL, invalid UTF-8, repeated and bracketed names.
 */
export function hostileQuery(schema: z.ZodType): fc.Arbitrary<string> {
  const base = validish(jsonSchemaOf(schema)) as fc.Arbitrary<Record<string, unknown>>;
  const encoded = fc.tuple(base, fc.nat(), hostileLeaf, fc.boolean()).map(([q, pick, leaf, repeat]) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q ?? {})) params.append(k, String(v));
    const keys = [...params.keys()];
    const key = keys.length ? keys[pick % keys.length] : "x";
    const text = typeof leaf === "string" ? leaf : JSON.stringify(leaf);
    if (repeat) params.append(key, text);
    else params.set(key, text);
    return params.toString();
  });
  const raw = fc.oneof(
    fc.constantFrom(
      "owner=%00",
      "owner=%ED%A0%80",
      "owner=%FF%FE",
      "owner=%",
      "owner=%zz",
      "range=custom&from=2026-02-30&to=2026-01-01",
      "range=custom&from=0000-01-01&to=9999-12-31",
      "workspace[]=a&workspace[x]=b",
      "__proto__=x&constructor=y",
      "sort=;drop table reports;--",
      `workspace=${"a,".repeat(5_000)}`,
      "limit=-1&cursor=%00",
      "limit=1e400",
    ),
    fc.string({ unit: "binary", maxLength: 80 }).map((s) => {
      try {
        return encodeURIComponent(s).replace(/%2[06]/g, "&");
      } catch {
        return "owner=%ED%A0%80"; // a lone surrogate has no percent-encoding: its UTF-8 imitation instead
      }
    }),
  );
  return fc.oneof({ weight: 3, arbitrary: encoded }, { weight: 1, arbitrary: raw });
}
