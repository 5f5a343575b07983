// The OpenAPI document: valid OpenAPI 3.1, one operation for every route file's every method, each with its role.
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/v1/openapi.json/route";
import { ROUTE_ACCESS } from "@/lib/auth/route-access";
import { buildOpenApiDocument } from "./document";

const METHODS = /export const (GET|POST|PUT|PATCH|DELETE)\b|export (?:async )?function (GET|POST|PUT|PATCH|DELETE)\b/g;

/** "METHOD /path/{param}" of every handler a route file under `dir` exports. */
function routeFiles(dir: string): string[] {
  const found: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.name !== "route.ts") continue;
    const route = `/${path.relative("app", e.parentPath)}`.replace(/\[([^\]]+)\]/g, "{$1}");
    for (const m of fs.readFileSync(path.join(e.parentPath, e.name), "utf8").matchAll(METHODS)) {
      found.push(`${m[1] ?? m[2]} ${route}`);
    }
  }
  return found;
}

describe("GET /api/v1/openapi.json", () => {
  const doc = buildOpenApiDocument();
  const operations = Object.entries(doc.paths ?? {}).flatMap(([p, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`),
  );

  it("validates against the OpenAPI 3.1 schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(doc)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has an operation for every method of every route file under app/api/v1 (and /metrics), and no other", () => {
    const files = [
      ...routeFiles(path.join("app", "api", "v1")),
      ...routeFiles(path.join("app", "metrics")),
      ...routeFiles(path.join("app", "terraform")),
      ...routeFiles(path.join("app", ".well-known")),
    ];
    expect(files.length).toBeGreaterThan(50);
    expect(new Set(operations)).toEqual(new Set(files));
  });

  it("gives each operation the role of the route table, and credentials to every route that needs a role", () => {
    for (const rule of ROUTE_ACCESS) {
      const p = rule.path.replace(/\[([^\]]+)\]/g, "{$1}");
      const op = (doc.paths![p] as Record<string, Record<string, unknown>>)[rule.method.toLowerCase()];
      expect(op["x-required-role"], `${rule.method} ${rule.path}`).toBe(rule.access);
      const security = op.security as Record<string, unknown>[];
      if (rule.access === "public" || rule.access === "setup") continue;
      expect(security.map((s) => Object.keys(s))).toEqual([["session"], ["apiToken"]]);
      expect(Object.keys(op.responses as object)).toEqual(expect.arrayContaining(["401", "403"]));
    }
  });

  it("describes requests with the schemas the routes validate with", () => {
    const post = doc.paths!["/api/v1/cleanup/runs"]!.post!;
    const body = JSON.stringify(post.requestBody);
    expect(body).toContain("confirmBytes");
    const findings = doc.paths!["/api/v1/findings"]!.get!.parameters!.map((p) => (p as { name: string }).name);
    expect(findings).toEqual(expect.arrayContaining(["severity", "rule", "agent", "cursor", "limit"]));
    const detail = doc.paths!["/api/v1/workspaces/{id}"]!.get!.parameters!.map((p) => (p as { name: string }).name);
    expect(detail).toEqual(expect.arrayContaining(["id", "range", "from", "to", "reports"]));
  });

  it("is what the route serves", async () => {
    const res = await GET();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
