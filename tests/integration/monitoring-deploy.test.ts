// deploy/grafana and deploy/prometheus: each file parses (JSON, YAML), each query in it is valid PromQL (read
// with Prometheus's own PromQL grammar), and every metric a query names is one that /metrics exposes, read from a
// real scrape of a seeded fleet on both databases.
import fs from "node:fs";
import path from "node:path";
import { parser } from "@prometheus-io/lezer-promql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { resetConfigForTests } from "@/lib/config";
import { makePrincipals } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { scrapeFamilies, type MetricFamily } from "@/tests/support/metrics";
import { seedScenario, testNow } from "@/tests/support/reports";

const GRAFANA = path.join("deploy", "grafana");
const PROMETHEUS = path.join("deploy", "prometheus");
const filesIn = (dir: string, ext: RegExp) =>
  fs
    .readdirSync(dir)
    .filter((f) => ext.test(f))
    .map((f) => path.join(dir, f));

/** Every `expr` anywhere in a parsed document (Grafana targets, rule files). */
function exprsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(exprsOf);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => (k === "expr" && typeof v === "string" ? [v] : exprsOf(v)));
  }
  return [];
}

/** The metric names a PromQL expression selects, and whether it parsed without an error. */
function selected(expr: string): { names: string[]; errors: string[] } {
  const names: string[] = [];
  const errors: string[] = [];
  parser.parse(expr).iterate({
    enter: (node) => {
      if (node.type.isError) errors.push(`${expr.slice(0, node.from)} ⚠ ${expr.slice(node.from)}`);
      if (node.name === "VectorSelector") {
        const id = node.node.getChild("Identifier");
        if (id) names.push(expr.slice(id.from, id.to));
      }
    },
  });
  return { names, errors };
}

const dashboards = filesIn(GRAFANA, /\.json$/).map((f) => ({ file: f, doc: JSON.parse(fs.readFileSync(f, "utf8")) }));
const ruleFiles = filesIn(PROMETHEUS, /\.ya?ml$/).map((f) => ({ file: f, doc: parseYaml(fs.readFileSync(f, "utf8")) }));
const queries = [...dashboards, ...ruleFiles].flatMap(({ file, doc }) => exprsOf(doc).map((expr) => ({ file, expr })));

describe("deploy/: the Grafana dashboard and the Prometheus rules", () => {
  it("parse, and hold the three alerts docs/metrics.md promises", () => {
    expect(dashboards.map((d) => d.file)).toEqual([path.join(GRAFANA, "coder-storage.json")]);
    expect(dashboards[0].doc.panels.length).toBeGreaterThan(10);
    const alerts = ruleFiles.flatMap(({ doc }) =>
      ((doc.groups ?? []) as { rules: { alert: string; expr: string; for: string }[] }[]).flatMap((g) => g.rules),
    );
    expect(alerts.map((a) => a.alert)).toEqual(
      expect.arrayContaining([
        "CoderStorageVolumeFull",
        "CoderStorageVolumePredictedFull",
        "CoderStorageReporterSilent",
      ]),
    );
    const rule = (name: string) => alerts.find((a) => a.alert === name)!.expr;
    expect(rule("CoderStorageVolumeFull")).toContain("> 0.95");
    expect(rule("CoderStorageVolumePredictedFull")).toMatch(/predict_linear\(\S+\[6h\], 4 \* 86400\) *\) < 0/);
    expect(rule("CoderStorageReporterSilent")).toContain("coder_storage_workspaces_silent");
  });

  it("hold only valid PromQL", () => {
    expect(queries.length).toBeGreaterThan(20);
    for (const q of queries) expect(selected(q.expr).errors, `${q.file}: ${q.expr}`).toEqual([]);
    // The check finds an error where there is one.
    expect(selected("sum(rate(coder_storage_ingest_reports_total[5m])").errors).not.toEqual([]);
  });
});

describeEachDatabase("deploy/ names only metrics that /metrics exposes", (t) => {
  let families: MetricFamily[];
  const savedBackupDir = process.env.STORAGE_BACKUP_DIR;
  beforeAll(async () => {
    // The backup's gauge is exposed only when a scheduled backup is configured.
    process.env.STORAGE_BACKUP_DIR = "/nonexistent/backups";
    resetConfigForTests();
    serveRoutesFrom(t.current);
    await seedScenario(t.current.db, testNow());
    families = await scrapeFamilies((await makePrincipals(t.current, "deploy")).viewerToken);
  });
  afterAll(() => {
    if (savedBackupDir === undefined) delete process.env.STORAGE_BACKUP_DIR;
    else process.env.STORAGE_BACKUP_DIR = savedBackupDir;
    resetConfigForTests();
  });

  it("every metric of every query is a family of the scrape (a histogram's by its _bucket, _sum, _count)", () => {
    const exposed = new Set(
      families.flatMap((f) =>
        f.type === "HISTOGRAM" ? ["_bucket", "_sum", "_count"].map((s) => `${f.name}${s}`) : [f.name],
      ),
    );
    const named = new Set(queries.flatMap((q) => selected(q.expr).names));
    expect(named.size).toBeGreaterThan(10);
    for (const name of named) expect(exposed.has(name), `${name} is not exposed`).toBe(true);
    // And the dashboard shows every family.
    const dashboardNames = new Set(exprsOf(dashboards[0].doc).flatMap((e) => selected(e).names));
    for (const f of families) {
      const shown = f.type === "HISTOGRAM" ? dashboardNames.has(`${f.name}_bucket`) : dashboardNames.has(f.name);
      expect(shown, `${f.name} is on no panel`).toBe(true);
    }
  });
});
