import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import { ROUTE_ACCESS, type RouteRule } from "@/lib/auth/route-access";
import { errorEnvelope } from "@/lib/validations/responses";
import type { Operation } from "./operation";
import { OPERATIONS } from "./operations";

// The API's OpenAPI 3.1 description, made from the route table (paths, methods, roles) and the zod schemas the
// routes validate with (lib/openapi/operations.ts). A route in the table without an operation is an error here,
// so the document cannot silently leave one out.

const SECURITY = {
  session: { type: "apiKey", in: "cookie", name: "storage.session_token", description: "A signed-in user's session" },
  apiToken: { type: "http", scheme: "bearer", description: "A dashboard API token (sdt_…) with a role" },
  workspaceToken: { type: "http", scheme: "bearer", description: "A workspace's token (swt_…), from enrollment" },
  enrollmentKey: { type: "apiKey", in: "header", name: "X-Enrollment-Key", description: "The fleet's enrollment key" },
} as const;

const ERRORS: Record<number, string> = {
  401: "No valid credentials",
  403: "The caller's role is too low, or a cross-site change",
  422: "Parameters or body do not match the schema",
  429: "Too many wrong enrollment keys from this address: wait Retry-After seconds",
};

/** The envelope as one component, referenced by every error response. */
const errorSchema = errorEnvelope.meta({ id: "Error" });

const openApiPath = (path: string) => path.replace(/\[([^\]]+)\]/g, "{$1}");
const pathParams = (path: string) => [...path.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]);

/** A query schema as the object of its parameters (an intersection's sides merged, a pipe's input). */
function queryObject(schema: z.ZodType): z.ZodObject {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodIntersection) {
    const { left, right } = schema.def;
    return z.object({ ...queryObject(left as z.ZodType).shape, ...queryObject(right as z.ZodType).shape });
  }
  if (schema instanceof z.ZodPipe) return queryObject(schema.def.in as z.ZodType);
  throw new Error(`A query schema must be an object of parameters, not ${schema.def.type}`);
}

function security(rule: RouteRule, op: Operation): Record<string, string[]>[] {
  if (op.auth === "workspace-token") return [{ workspaceToken: [] }];
  if (op.auth === "enrollment-key") return [{ enrollmentKey: [] }, { enrollmentKey: [], workspaceToken: [] }];
  if (rule.access === "public" || rule.access === "setup") return [];
  return [{ session: [] }, { apiToken: [] }];
}

function content(op: Operation) {
  if (op.produces === "csv") return { "text/csv": { schema: z.string() } };
  if (op.produces === "gzip") return { "application/gzip": { schema: z.string() } };
  if (op.produces === "prometheus") return { "text/plain; version=0.0.4": { schema: z.string() } };
  if (op.produces === "html") return { "text/html": { schema: z.string() } };
  if (op.produces === "script")
    return { "text/javascript": { schema: z.string() }, "text/plain": { schema: z.string() } };
  return { "application/json": { schema: op.response ?? z.looseObject({}) } };
}

function register(registry: OpenAPIRegistry, rule: RouteRule) {
  const op = OPERATIONS[`${rule.method} ${rule.path}`];
  if (!op) throw new Error(`No OpenAPI operation for ${rule.method} ${rule.path} (lib/openapi/operations.ts)`);
  const params = pathParams(rule.path);
  const role = rule.access === "public" || rule.access === "setup" ? null : rule.access;
  const keyErrors = op.auth === "enrollment-key" ? [429] : [];
  const errors = role
    ? [401, 403, 422]
    : op.auth === "signed-link"
      ? [403, 422]
      : op.auth
        ? [401, 422, ...keyErrors]
        : [422];
  registry.registerPath({
    method: rule.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete",
    path: openApiPath(rule.path),
    summary: op.summary,
    description: [
      role ? `Needs the ${role} role (or higher).` : `Public${rule.why ? `: ${rule.why}` : ""}.`,
      op.responseType ? `Answers with ${op.responseType}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
    tags: [op.tag],
    security: security(rule, op),
    "x-required-role": rule.access,
    request: {
      ...(params.length ? { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
      ...(op.query ? { query: queryObject(op.query) } : {}),
      ...(op.body ? { body: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
    },
    responses: {
      [op.status ?? 200]:
        op.status === 204 ? { description: op.summary } : { description: op.summary, content: content(op) },
      ...Object.fromEntries(
        errors.map((s) => [s, { description: ERRORS[s], content: { "application/json": { schema: errorSchema } } }]),
      ),
    },
  });
}

/** The whole document. */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  for (const [name, scheme] of Object.entries(SECURITY)) registry.registerComponent("securitySchemes", name, scheme);
  for (const rule of ROUTE_ACCESS) register(registry, rule);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Coder storage dashboard API",
      version: "1",
      description:
        "Every error has the shape { error: { code, message, details? } }. Roles: member < viewer < admin; " +
        "x-required-role gives each operation's.",
    },
    servers: [{ url: "/" }],
  });
}
