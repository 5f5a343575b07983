// The Helm chart (deploy/helm/coder-storage), rendered by the project's own renderer of the subset of Helm's
// template language it keeps to (scripts/lib/chart-render.ts): Helm is not installed on every machine that runs
// the tests. Where `helm` is on the PATH, `helm lint` runs and `helm template` must give the same objects.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { renderChart, type RenderOptions } from "@/scripts/lib/chart-render";
import { CHART_DIR, PLAIN_MANIFEST, plainManifest } from "@/scripts/lib/plain-manifest";

type K8s = { kind: string; metadata: { name: string }; spec: Record<string, unknown> };
type Env = { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } };
type Container = {
  image: string;
  env: Env[];
  readinessProbe?: { httpGet: { path: string } };
  livenessProbe?: { httpGet: { path: string } };
  securityContext: { allowPrivilegeEscalation: boolean };
};
type PodSpec = { securityContext: { runAsNonRoot: boolean }; containers: Container[] };

const BASE = { secrets: { existingSecret: "storage" } };

function objects(text: string): K8s[] {
  return parseAllDocuments(text)
    .map((d) => {
      expect(d.errors).toEqual([]);
      return d.toJS() as K8s | null;
    })
    .filter((o): o is K8s => o != null);
}

function render(values: Record<string, unknown> = {}, opts: RenderOptions = {}): K8s[] {
  const out = renderChart(CHART_DIR, { releaseName: "storage", ...opts, values: { ...BASE, ...values } });
  return [...out.values()].flatMap(objects);
}

const byKind = (objs: K8s[], kind: string) => objs.filter((o) => o.kind === kind);
const podSpecs = (objs: K8s[]): PodSpec[] =>
  objs.flatMap((o) => {
    if (o.kind === "Deployment") return [(o.spec as { template: { spec: PodSpec } }).template.spec];
    if (o.kind === "CronJob") {
      return [(o.spec as { jobTemplate: { spec: { template: { spec: PodSpec } } } }).jobTemplate.spec.template.spec];
    }
    return [];
  });
const dashboard = (objs: K8s[]) => podSpecs(byKind(objs, "Deployment"))[0].containers[0];

describe("the Helm chart", () => {
  const chart = parseYaml(fs.readFileSync(`${CHART_DIR}/Chart.yaml`, "utf8")) as { appVersion: string };
  const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };

  it("is the release's version, and every image has an explicit tag (the appVersion by default)", () => {
    expect(chart.appVersion).toBe(pkg.version);
    const all = render({ maintenance: { mode: "cronjob" } });
    const images = podSpecs(all).flatMap((p) => p.containers.map((c) => c.image));
    expect(images).toEqual([
      `coder-storage-dashboard:${pkg.version}-maintenance`,
      `coder-storage-dashboard:${pkg.version}`,
    ]);
    for (const image of images) expect(image).toMatch(/:[\w.-]+$/);
    expect(images.join()).not.toContain(":latest");
    expect(dashboard(render({ image: { tag: "1.2.3" } })).image).toBe("coder-storage-dashboard:1.2.3");
  });

  it("probes the health endpoint, runs as a user that is not root, and turns Next's telemetry off", () => {
    const c = dashboard(render());
    expect(fs.existsSync("app/api/v1/health/route.ts")).toBe(true);
    expect(c.readinessProbe?.httpGet.path).toBe("/api/v1/health");
    expect(c.livenessProbe?.httpGet.path).toBe("/api/v1/health");
    for (const pod of podSpecs(render({ maintenance: { mode: "cronjob" } }))) {
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      for (const container of pod.containers) {
        expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
        expect(container.env).toContainEqual({ name: "NEXT_TELEMETRY_DISABLED", value: "1" });
      }
    }
  });

  it("mounts extra volumes (PostgreSQL's CA) in every container", () => {
    const ca = { name: "postgres-ca", secret: { secretName: "postgres-ca" } };
    const mount = { name: "postgres-ca", mountPath: "/etc/postgres-ca", readOnly: true };
    const pods = podSpecs(render({ extraVolumes: [ca], extraVolumeMounts: [mount], maintenance: { mode: "cronjob" } }));
    expect(pods).toHaveLength(2);
    for (const pod of pods as (PodSpec & { volumes: unknown[]; containers: { volumeMounts: unknown[] }[] })[]) {
      expect(pod.volumes).toEqual([ca]);
      expect(pod.containers[0].volumeMounts).toEqual([mount]);
    }
  });

  it("keeps a PodDisruptionBudget when there is more than one replica", () => {
    expect(byKind(render({ replicaCount: 2 }), "PodDisruptionBudget")).toHaveLength(1);
    expect(byKind(render({ replicaCount: 1 }), "PodDisruptionBudget")).toHaveLength(0);
  });

  it("takes every secret from the existing Secret, and values.yaml holds none", () => {
    const env = dashboard(render()).env;
    for (const name of ["DATABASE_URL", "BETTER_AUTH_SECRET", "STORAGE_ENROLLMENT_KEY"]) {
      expect(
        env.find((e) => e.name === name),
        name,
      ).toEqual({
        name,
        valueFrom: { secretKeyRef: { name: "storage", key: name } },
      });
    }
    // Names of Secrets and of their keys only: no URL with a password, no value under a secret's name.
    const values = JSON.stringify(parseYaml(fs.readFileSync(`${CHART_DIR}/values.yaml`, "utf8")));
    expect(values).not.toMatch(/postgres(ql)?:\/\/|"(password|token|secret|value)":|BEGIN CERTIFICATE/i);
    expect(() => renderChart(CHART_DIR)).toThrow(/secrets\.existingSecret/);
  });

  it("has an Ingress only when enabled, always with TLS for its hosts", () => {
    expect(byKind(render(), "Ingress")).toHaveLength(0);
    const hosts = ["storage.example.com"];
    const objs = render({ ingress: { enabled: true, className: "nginx", hosts, tlsSecretName: "storage-tls" } });
    const [ingress] = byKind(objs, "Ingress");
    expect(ingress.spec).toMatchObject({ ingressClassName: "nginx", tls: [{ hosts, secretName: "storage-tls" }] });
    expect(dashboard(objs).env).toContainEqual({ name: "BETTER_AUTH_URL", value: "https://storage.example.com" });
    expect(() => render({ ingress: { enabled: true, hosts } })).toThrow(/tlsSecretName/);
  });

  it("has no ServiceMonitor unless asked, and then scrapes /metrics with the token from a Secret", () => {
    expect(byKind(render(), "ServiceMonitor")).toHaveLength(0);
    const [monitor] = byKind(
      render({ serviceMonitor: { enabled: true, tokenSecret: { name: "prom" } } }),
      "ServiceMonitor",
    );
    expect(monitor.spec.endpoints).toEqual([
      expect.objectContaining({
        path: "/metrics",
        authorization: { type: "Bearer", credentials: { name: "prom", key: "token" } },
      }),
    ]);
  });

  it("runs the maintenance task in process, or as a CronJob with the replicas' own run off", () => {
    const inProcess = render();
    expect(byKind(inProcess, "CronJob")).toHaveLength(0);
    expect(dashboard(inProcess).env.map((e) => e.name)).not.toContain("STORAGE_MAINTENANCE");
    const cron = render({ maintenance: { mode: "cronjob" } });
    const [job] = byKind(cron, "CronJob");
    expect(job.spec).toMatchObject({ schedule: "17 * * * *", concurrencyPolicy: "Forbid" });
    const [pod] = podSpecs([job]);
    expect(pod.containers[0]).toMatchObject({ command: ["npm", "run", "maintenance"] });
    expect(dashboard(cron).env).toContainEqual({ name: "STORAGE_MAINTENANCE", value: "off" });
    expect(() => render({ maintenance: { mode: "sometimes" } })).toThrow(/maintenance\.mode/);
    // The image's maintenance stage is what the CronJob runs.
    expect(fs.readFileSync("Dockerfile", "utf8")).toMatch(/^FROM build AS maintenance$/m);
  });

  it("is what deploy/kubernetes holds, rendered for kubectl (npm run manifest)", () => {
    expect(fs.readFileSync(PLAIN_MANIFEST, "utf8")).toBe(plainManifest());
  });

  const helm = spawnSync("helm", ["version", "--short"], { encoding: "utf8" });
  it.skipIf(helm.status !== 0)("passes helm lint, and helm template renders the same objects (helm installed)", () => {
    const values = { ...BASE, ingress: { enabled: true, hosts: ["s.example.com"], tlsSecretName: "t" } };
    const file = `${fs.mkdtempSync("/tmp/chart-")}/values.json`;
    fs.writeFileSync(file, JSON.stringify(values));
    const lint = spawnSync("helm", ["lint", CHART_DIR, "-f", file], { encoding: "utf8" });
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
    const t = spawnSync("helm", ["template", "storage", CHART_DIR, "-f", file], { encoding: "utf8" });
    expect(t.status, t.stderr).toBe(0);
    const sortByKind = (objs: K8s[]) => objs.sort((a, b) => a.kind.localeCompare(b.kind));
    expect(sortByKind(objects(t.stdout))).toEqual(sortByKind(render(values)));
  });
  if (helm.status !== 0) console.log("helm is not installed: helm lint and helm template are skipped");
});
