import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { rowsOf } from "@/lib/db/types";
import { getEnrollmentKey, enrollWorkspace } from "@/lib/enrollment/workspaces";
import { REPORTER_VERSION } from "@/lib/reporter/version";
import { inShare, recordBundledRelease, type ReporterRolloutView } from "@/lib/services/reporter-rollout";
import { storeRelease } from "@/lib/db/queries/reporter-rollout";
import { BASE, ctx, makePrincipals } from "@/tests/support/auth";
import { describeEachDatabase, serveRoutesFrom } from "@/tests/support/db";
import { send } from "@/tests/support/reports";
import { GET as download } from "../../reporter/[file]/route";
import { GET, PUT } from "./route";

// The staged rollout through its endpoints: an admin stages a candidate for one template and a percentage of the
// rest, each workspace's download (by its token) gets the candidate or the default, and the panel counts the
// workspaces per version, those with errors and those that fell back.

const CANDIDATE = "9.0.0-rc.1";
const OLDER = "0.0.1";
const bundleOf = (v: string) => Buffer.from(`// reporter ${v}\n`);
const sha = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

describeEachDatabase("the reporter's staged rollout", (t) => {
  let admin: Record<string, string>;
  let viewer: Record<string, string>;
  /** 6 workspaces of the "canary" template and 30 of "ai-dev", each with its token. */
  const fleet: { id: string; template: string; token: string }[] = [];

  const put = (who: Record<string, string>, body: unknown) =>
    PUT(
      new Request(`${BASE}/api/v1/settings/reporter-rollout`, {
        method: "PUT",
        headers: { "content-type": "application/json", ...who },
        body: JSON.stringify(body),
      }),
      ctx(),
    );
  const view = async () =>
    (await (
      await GET(new Request(`${BASE}/api/v1/settings/reporter-rollout`, { headers: admin }), ctx())
    ).json()) as ReporterRolloutView;
  /** The version a download with `token` gets, checked against its .sha256. */
  async function versionFor(token: string | null): Promise<string> {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const get = (file: string) => download(new Request(`${BASE}/api/v1/reporter/${file}`, { headers }), ctx({ file }));
    const res = await get("reporter.mjs");
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(await (await get("reporter.mjs.sha256")).text()).toBe(`${sha(bytes)}  reporter.mjs\n`);
    return res.headers.get("x-reporter-version")!;
  }

  beforeAll(async () => {
    serveRoutesFrom(t.current);
    const db = t.current.db;
    const p = await makePrincipals(t.current, "rollout");
    admin = { cookie: p.admin.cookie };
    viewer = { cookie: p.viewer.cookie };
    // this release's bundle as the server stores it at start; two more held from before and from a build
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rollout-"));
    fs.writeFileSync(path.join(tmp, "reporter.mjs"), bundleOf(REPORTER_VERSION));
    await recordBundledRelease(db, path.join(tmp, "reporter.mjs"));
    fs.rmSync(tmp, { recursive: true });
    for (const v of [OLDER, CANDIDATE])
      await storeRelease(db, { version: v, sha256: sha(bundleOf(v)), bytes: bundleOf(v) }, []);
    const { key } = await getEnrollmentKey(db);
    for (let i = 0; i < 36; i++) {
      const ws = { id: `ws-roll-${i}`, name: `w${i}`, owner: "olga", template: i < 6 ? "canary" : "ai-dev" };
      const { token } = await enrollWorkspace(db, ws, key, null);
      fleet.push({ id: ws.id, template: ws.template, token });
    }
  });

  it("serves latest to everyone until an admin stages a candidate", async () => {
    expect((await view()).rollout).toEqual({ pinned: null, candidate: null });
    expect(await versionFor(null)).toBe(REPORTER_VERSION);
    expect(await versionFor(fleet[0].token)).toBe(REPORTER_VERSION);
  });

  it("lets only an admin choose, and only a version it holds (audited)", async () => {
    const staged = { pinned: null, candidate: { version: CANDIDATE, templates: ["canary"], percent: 25 } };
    expect((await put({}, staged)).status).toBe(401);
    expect((await put(viewer, staged)).status).toBe(403);
    const unknown = await put(admin, { pinned: "8.8.8", candidate: null });
    expect(unknown.status).toBe(422);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain("8.8.8");
    expect((await put(admin, staged)).status).toBe(200);
    const audit = rowsOf<{ details: unknown }>(
      await t.current.db.execute(sql`select details from audit_log where action = 'settings.reporter_rollout_changed'`),
    );
    expect(audit.map((a) => a.details)).toEqual([staged]);
  });

  it("gives the candidate to the template's workspaces and a stable share of the rest, the default to others", async () => {
    const got = new Map<string, string>();
    for (const w of fleet) got.set(w.id, await versionFor(w.token));
    const share = fleet.filter((w) => w.template === "ai-dev" && inShare(w.id, 25));
    // the fixed ids put some of the 30 in the share and leave most out
    expect(share.length).toBeGreaterThan(0);
    expect(share.length).toBeLessThan(30);
    for (const w of fleet)
      expect(got.get(w.id), w.id).toBe(w.template === "canary" || share.includes(w) ? CANDIDATE : REPORTER_VERSION);
    // the same workspaces again, and the anonymous download gets the default
    for (const w of fleet) expect(await versionFor(w.token)).toBe(got.get(w.id));
    expect(await versionFor(null)).toBe(REPORTER_VERSION);
    expect(await versionFor("swt_no_such_token")).toBe(REPORTER_VERSION);
  });

  it("pins the default to a held version, the candidate's share unchanged", async () => {
    const candidate = { version: CANDIDATE, templates: ["canary"], percent: 25 };
    expect((await put(admin, { pinned: OLDER, candidate })).status).toBe(200);
    expect(await versionFor(null)).toBe(OLDER);
    expect(await versionFor(fleet[0].token)).toBe(CANDIDATE);
    const out = fleet.find((w) => w.template === "ai-dev" && !inShare(w.id, 25))!;
    expect(await versionFor(out.token)).toBe(OLDER);
  });

  it("counts per version the workspaces reporting with it, with errors, and fallen back from it", async () => {
    const at = "2026-11-20T10:00:00.000Z";
    const error = { path: "x", code: "EACCES", message: "denied" };
    const report = (i: number, reporter: { version: string; scanMs: number; fellBackFrom?: string }, errors = false) =>
      send(t.current.db, { id: fleet[i].id, owner: "olga", template: fleet[i].template }, at, [], undefined, {
        reporter,
        ...(errors ? { errors: [error] } : {}),
      });
    await report(0, { version: CANDIDATE, scanMs: 1 });
    await report(1, { version: CANDIDATE, scanMs: 1 }, true);
    // workspace 2 ran the candidate, which failed: its previous reporter's report says so
    await report(2, { version: REPORTER_VERSION, scanMs: 1, fellBackFrom: CANDIDATE });
    await report(6, { version: REPORTER_VERSION, scanMs: 1 });
    const versions = (await view()).versions;
    expect(versions.find((v) => v.version === CANDIDATE)).toMatchObject({
      held: true,
      reporting: 2,
      withErrors: 1,
      fellBack: 1,
    });
    expect(versions.find((v) => v.version === REPORTER_VERSION)).toMatchObject({
      held: true,
      reporting: 2,
      fellBack: 0,
    });
    expect(versions.find((v) => v.version === OLDER)).toMatchObject({ held: true, reporting: 0 });
    const stored = rowsOf<{ fell_back_from: string }>(
      await t.current.db.execute(sql`select fell_back_from from reports where workspace_id = ${fleet[2].id}`),
    );
    expect(stored).toEqual([{ fell_back_from: CANDIDATE }]);
  });
});
