// The container image without Docker: the Dockerfile's last stage is read (tests/support/dockerfile.ts), its
// COPY --from lines are done from the build into a folder that stands for the image's WORKDIR, and its CMD is
// started there with the Dockerfile's ENV and nothing else of this process's environment, on the embedded
// database (the image's default) and on PostgreSQL (DATABASE_URL, as the Kubernetes example runs it). Then the
// HEALTHCHECK's own command, a sign-in, and what the image serves. Also checks the Kubernetes example against
// the Dockerfile's port, user and health path.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { createScratchPostgres } from "@/tests/support/db";
import { ensureBuild, freePort } from "@/scripts/lib/next-server";
import { healthcheckPath, readDockerfile } from "@/tests/support/dockerfile";

const image = readDockerfile();
const pkgVersion = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string }).version;
const runtimePin = JSON.parse(fs.readFileSync("scripts/node-runtime.json", "utf8")) as { version: string };
const ADMIN = { email: "image-admin@example.com", password: "image-admin-password-1" };
let root: string;

/** The image's file system under `root`: a path of the image (absolute, below WORKDIR) as a local path. */
const local = (imagePath: string) => {
  expect(imagePath === image.workdir || imagePath.startsWith(`${image.workdir}/`), imagePath).toBe(true);
  return path.join(root, path.relative(image.workdir, imagePath));
};

type Started = { base: string; env: Record<string, string>; child: ChildProcess; log: () => string };

/** CMD in WORKDIR with ENV (paths of the image mapped into `root`), on a free port: others share this machine. */
async function startImage(extra: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: root };
  for (const [k, v] of Object.entries(image.env)) env[k] = v.startsWith(`${image.workdir}/`) ? local(v) : v;
  Object.assign(env, { PORT: String(port) }, extra);
  let log = "";
  const child = spawn(image.cmd[0], image.cmd.slice(1), {
    cwd: root,
    env: env as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (log += d));
  child.stderr!.on("data", (d: Buffer) => (log += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${image.cmd.join(" ")} exited with ${child.exitCode}:\n${log}`);
    const ok = await fetch(`${base}${healthcheckPath(image)}`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the image did not become healthy in 120 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { base, env, child, log: () => log };
}

async function stop(s: Started | undefined) {
  if (!s || s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once("exit", r));
  s.child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (s.child.exitCode === null) s.child.kill("SIGKILL");
}

/** What a person does: sign in with email and password, then ask who they are. */
async function signInAndAskWhoAmI(base: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify(ADMIN),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const me = await fetch(`${base}/api/v1/me`, { headers: { cookie } });
  expect(me.status).toBe(200);
  return (await me.json()) as { kind: string; role: string };
}

beforeAll(() => {
  // CI builds before the tests; run alone, this builds once when the build is missing or stale.
  ensureBuild();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "image-"));
  // The COPY --from=<build stage> lines: the build stage's WORKDIR is this checkout after `npm run build`.
  const build = image.stages.find((s) => image.copies.some((c) => c.from === s.name))!;
  const buildWorkdir = build.instructions
    .filter((i) => i.getKeyword() === "WORKDIR")
    .at(-1)!
    .getArgumentsContent()!
    .trim();
  for (const c of image.copies) {
    expect(c.from, `COPY ${c.src} ${c.dest}`).toBe(build.name);
    const src = path.join(process.cwd(), path.relative(buildWorkdir, c.src));
    fs.cpSync(src, local(c.dest), { recursive: true, verbatimSymlinks: true });
  }
  // RUN mkdir -p <data folder> (owned by the app's user)
  const dataDir = /mkdir -p (\S+)/.exec(image.run.join("\n"))![1];
  fs.mkdirSync(local(dataDir), { recursive: true });
}, 900_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe("the Dockerfile", () => {
  it("builds in stages and runs the standalone server as a user that is not root, with a health check", () => {
    expect(image.stages.length).toBeGreaterThanOrEqual(3);
    expect(image.user).not.toMatch(/^(root|0)(:|$)/);
    expect(image.cmd).toEqual(["node", "server.js"]);
    expect(image.copies.map((c) => c.src)).toEqual(
      expect.arrayContaining(["/app/.next/standalone", "/app/.next/static", "/app/public", "/app/drizzle"]),
    );
    expect(image.expose).toEqual([Number(image.env.PORT)]);
    expect(image.env.HOSTNAME).toBe("0.0.0.0");
    expect(healthcheckPath(image)).toBe("/api/v1/health");
    expect(image.healthcheck.flags).toMatchObject({ interval: expect.any(String), "start-period": expect.any(String) });
  });

  it("compiles the reporter's native scanner in the build stage, and fails the build without it", () => {
    const build = image.stages.find((s) => image.copies.some((c) => c.from === s.name))!;
    const text = build.instructions.map((i) => `${i.getKeyword()} ${i.getArgumentsContent()}`).join("\n");
    expect(text).toMatch(/^RUN .*apt-get install [^\n]*musl-tools/m);
    expect(text).toMatch(/^ENV STORAGE_REPORTER_NATIVE=required$/m);
    // the reporter the image serves (built the same way here) measures with it
    const home = fs.mkdtempSync(path.join(root, "home-"));
    fs.mkdirSync(path.join(home, ".claude"));
    const r = spawnSync("node", ["public/reporter.mjs", "--dry-run", "--home", home, "--scanner", "native"], {
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
  });

  it("leaves dependencies, builds, data and secrets out of the build context", () => {
    const ignored = fs
      .readFileSync(".dockerignore", "utf8")
      .split("\n")
      .filter((l) => l && !l.startsWith("#"));
    expect(ignored).toEqual(expect.arrayContaining(["node_modules", ".next", ".data", ".git", ".env*"]));
    // what the build stage needs is not ignored
    for (const needed of ["package.json", "package-lock.json", "drizzle", "public", "app", "lib", "next.config.ts"])
      expect(ignored, needed).not.toContain(needed);
  });
});

describe.each([
  { database: "embedded (the image's default)", url: false },
  { database: "PostgreSQL (DATABASE_URL)", url: true },
])("the image's entry point on the $database database", ({ url }) => {
  let app: Started | undefined;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const extra: Record<string, string> = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
    if (url) {
      const scratch = await createScratchPostgres();
      drop = scratch.drop;
      extra.DATABASE_URL = scratch.url;
    }
    app = await startImage(extra);
  }, 180_000);

  afterAll(async () => {
    await stop(app);
    await drop?.();
    if (!url) fs.rmSync(local(image.env.STORAGE_DATA_DIR), { recursive: true, force: true });
  });

  it("is healthy by the HEALTHCHECK's own command, on the database it was given", async () => {
    const health = (await (await fetch(`${app!.base}/api/v1/health`)).json()) as { status: string; database: string };
    expect(health.status).toBe("ok");
    expect(JSON.stringify(health.database)).toMatch(url ? /postgres/i : /embedded|pglite/i);
    const [cmd, ...args] = image.healthcheck.cmd;
    const env = app!.env as unknown as NodeJS.ProcessEnv;
    const check = spawnSync(cmd, args, { env, encoding: "utf8", timeout: 15_000 });
    expect(check.status, check.stderr).toBe(0);
    if (!url) expect(fs.existsSync(local(image.env.STORAGE_DATA_DIR))).toBe(true);
  });

  it("signs the admin in (ADMIN_EMAIL / ADMIN_PASSWORD) and serves the pages with their scripts", async () => {
    expect(await signInAndAskWhoAmI(app!.base)).toMatchObject({ kind: "user", role: "admin" });
    const page = await fetch(`${app!.base}/sign-in`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const scripts = [...html.matchAll(/src="(\/_next\/static\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts.slice(0, 3)) expect((await fetch(`${app!.base}${s}`)).status, s).toBe(200);
  });

  it("serves the reporter with its checksum", async () => {
    const bundle = Buffer.from(await (await fetch(`${app!.base}/reporter.mjs`)).arrayBuffer());
    expect(bundle.toString("utf8", 0, 40)).toContain("Coder storage reporter");
    const sum = await (await fetch(`${app!.base}/reporter.mjs.sha256`)).text();
    expect(sum).toBe(`${crypto.createHash("sha256").update(bundle).digest("hex")}  reporter.mjs\n`);
  });

  it("serves the Terraform module by the registry protocol, and the Node.js runtimes, which the build strips", async () => {
    const build = image.stages.find((s) => image.copies.some((c) => c.from === s.name))!;
    const text = build.instructions.map((i) => `${i.getKeyword()} ${i.getArgumentsContent()}`).join("\n");
    expect(text).toMatch(/^RUN .*apt-get install [^\n]*binutils/m);
    const download = await fetch(
      `${app!.base}/terraform/modules/v1/coder/storage-reporter/coder/${pkgVersion}/download`,
    );
    expect(download.status).toBe(204);
    const archive = await fetch(new URL(download.headers.get("x-terraform-get")!, app!.base));
    expect(archive.status).toBe(200);
    for (const arch of ["x64", "arm64"]) {
      const res = await fetch(`${app!.base}/runtime/node-v${runtimePin.version}-linux-${arch}.gz`, { method: "HEAD" });
      expect(res.status, arch).toBe(200);
    }
  });

  it("stops on the SIGTERM of docker stop, within the 10 seconds Docker waits before it kills", async () => {
    const exited = new Promise((r) => app!.child.once("exit", (code) => r(code)));
    app!.child.kill("SIGTERM");
    expect(await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running"), 10_000))])).toBe(143);
  });
});

describe("the Kubernetes example (deploy/kubernetes)", () => {
  type K8s = { kind: string; metadata: { name: string }; spec?: unknown };
  const docs = parseAllDocuments(fs.readFileSync("deploy/kubernetes/storage-dashboard.yaml", "utf8")).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as K8s;
  });
  const byKind = (kind: string) => docs.find((d) => d.kind === kind)!;
  type Container = {
    ports: { name: string; containerPort: number }[];
    env: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
    readinessProbe: { httpGet: { path: string; port: string | number } };
    livenessProbe: { httpGet: { path: string; port: string | number } };
  };
  const deployment = byKind("Deployment") as K8s & {
    spec: { template: { spec: { securityContext: { runAsNonRoot: boolean }; containers: Container[] } } };
  };
  const [container] = deployment.spec.template.spec.containers;
  const portOf = (p: string | number) =>
    typeof p === "number" ? p : container.ports.find((x) => x.name === p)?.containerPort;

  it("has a Deployment, its PodDisruptionBudget and a Service", () => {
    expect(docs.map((d) => d.kind).sort()).toEqual(["Deployment", "PodDisruptionBudget", "Service"]);
  });

  it("listens on the image's port and probes its health check's path", () => {
    expect(container.ports.map((p) => p.containerPort)).toEqual(image.expose);
    for (const probe of [container.readinessProbe, container.livenessProbe]) {
      expect(probe.httpGet.path).toBe(healthcheckPath(image));
      expect(portOf(probe.httpGet.port)).toBe(Number(image.env.PORT));
    }
    const service = byKind("Service") as K8s & { spec: { ports: { targetPort: string | number }[] } };
    expect(portOf(service.spec.ports[0].targetPort)).toBe(Number(image.env.PORT));
    expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
  });

  it("takes DATABASE_URL and BETTER_AUTH_SECRET from the Secret its header says to create", () => {
    const header = fs.readFileSync("deploy/kubernetes/storage-dashboard.yaml", "utf8");
    for (const name of ["DATABASE_URL", "BETTER_AUTH_SECRET"]) {
      const ref = container.env.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
      expect(ref, name).toEqual({ name: "storage-dashboard", key: name });
      expect(header, name).toContain(`--from-literal=${name}=`);
    }
  });
});
