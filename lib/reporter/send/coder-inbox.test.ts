import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  CODER_MESSAGE_MAX_BYTES,
  CODER_TITLE_MAX_BYTES,
  coderContent,
  cutToBytes,
  type InboxNotice,
} from "@/lib/report-format/coder-inbox";
import { report as reportSchema } from "@/lib/report-format/schema";
import { coderNotifications, type CoderNotifications } from "@/tests/support/coder-standin/notifications";
import { startCoderStandIn, type CoderStandIn } from "@/tests/support/coder-standin/server";
import { main } from "../cli/main";
import { DEFAULT_RETRY } from "./http";
import { coderInboxFrom, postToCoder } from "./coder-inbox";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");
const TOKEN = "owner-session-token-s3cret";
const ID = "3b0f9a52-4c43-4d7e-9d1e-1f2a3b4c5d6e";

let coder: CoderStandIn;
let inbox: CoderNotifications;

beforeAll(async () => {
  inbox = coderNotifications();
  inbox.tokens.set(TOKEN, { user: "alice" });
  inbox.tokens.set("prebuilds-token", { user: "prebuilds", system: true });
  coder = await startCoderStandIn([inbox.handler]);
});
afterAll(() => coder.close());
beforeEach(() => {
  inbox.sent.length = 0;
  inbox.requests.length = 0;
});

/** A raw request to the stand-in, as any client would send it. */
async function post(body: unknown, headers: Record<string, string> = { "Coder-Session-Token": TOKEN }) {
  const r = await fetch(`${coder.url}/api/v2/notifications/custom`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as { message: string; detail?: string }) : null };
}

describe("the Coder stand-in's custom notification endpoint (Coder's rules)", () => {
  it("queues a notice for the token's user and answers 204", async () => {
    expect(await post({ content: { title: "Disk", message: "full" } })).toEqual({ status: 204, body: null });
    expect(await post({ content: { title: "Disk", message: "full" } }, { Authorization: `Bearer ${TOKEN}` })).toEqual({
      status: 204,
      body: null,
    });
    expect(inbox.sent).toEqual([
      { user: "alice", title: "Disk", message: "full" },
      { user: "alice", title: "Disk", message: "full" },
    ]);
  });

  it("401 without a session token or with one Coder does not know", async () => {
    const none = await post({ content: { title: "t", message: "m" } }, {});
    expect(none.status).toBe(401);
    expect(none.body?.message).toMatch(/signed out/);
    const wrong = await post({ content: { title: "t", message: "m" } }, { "Coder-Session-Token": "nope" });
    expect(wrong).toMatchObject({ status: 401, body: { detail: "API key is invalid." } });
    expect(inbox.sent).toEqual([]);
  });

  it("400 for a body that is not JSON, no content, or an empty title or message after trimming", async () => {
    expect((await post("{")).body?.message).toBe("Request body must be valid JSON.");
    expect(await post({})).toMatchObject({
      status: 400,
      body: { message: "Invalid request body", detail: "content is required" },
    });
    for (const content of [{ title: "  ", message: "m" }, { title: "t", message: "\n\t" }, { title: "t" }])
      expect(await post({ content })).toMatchObject({
        status: 400,
        body: { detail: "provide a non-empty 'content.title' and 'content.message'" },
      });
    expect(inbox.sent).toEqual([]);
  });

  it("counts the limits in bytes of UTF-8: 40 three-byte characters fit a title, 41 do not", async () => {
    const title = "€".repeat(40); // 120 bytes, 40 characters
    expect((await post({ content: { title, message: "m" } })).status).toBe(204);
    expect(await post({ content: { title: title + "€", message: "m" } })).toMatchObject({
      status: 400,
      body: { detail: "'content.title' must be less than 120 characters" },
    });
    const message = "😀".repeat(500); // 2000 bytes, 500 characters
    expect((await post({ content: { title: "t", message } })).status).toBe(204);
    expect(await post({ content: { title: "t", message: message + "a" } })).toMatchObject({
      status: 400,
      body: { detail: "'content.message' must be less than 2000 characters" },
    });
  });

  it("403 for Coder's prebuilds system user", async () => {
    const r = await post({ content: { title: "t", message: "m" } }, { "Coder-Session-Token": "prebuilds-token" });
    expect(r).toMatchObject({ status: 403, body: { message: "Forbidden" } });
  });
});

describe("fitting a notice to Coder's limits", () => {
  it("cuts between characters, never inside one, and says it cut", () => {
    expect(cutToBytes("short", 10)).toBe("short");
    const cut = cutToBytes("€".repeat(50), CODER_TITLE_MAX_BYTES);
    expect(bytes(cut)).toBeLessThanOrEqual(CODER_TITLE_MAX_BYTES);
    expect(cut).toBe("€".repeat(39) + "…");
    // a four-byte emoji is kept whole or left out
    const emoji = cutToBytes("a😀😀😀", 9);
    expect(emoji).toBe("a😀…");
    expect(emoji.includes("\uFFFD")).toBe(false);
  });

  it("keeps the link whole at the message's end however long the text", () => {
    const link = "https://storage.example.com/workspaces/ws-1";
    const c = coderContent({ title: "Workspace dev ".repeat(20), text: "ü".repeat(5000), link });
    expect(bytes(c.title)).toBeLessThanOrEqual(CODER_TITLE_MAX_BYTES);
    expect(bytes(c.message)).toBeLessThanOrEqual(CODER_MESSAGE_MAX_BYTES);
    expect(c.message.endsWith(`…\n\n${link}`)).toBe(true);
    expect(coderContent({ title: "t", text: "short", link })).toEqual({ title: "t", message: `short\n\n${link}` });
  });
});

describe("posting to Coder as the owner", () => {
  const notice: InboxNotice = {
    id: ID,
    title: "Workspace dev is full: 99 % used — 🚨",
    text: "Largest:\n- claude-code: ~/.claude/projects (12 GB)\n" + "é".repeat(3000),
    link: "https://storage.example.com/workspaces/ws-1",
  };

  it("delivers with the owner's token, within Coder's limits; the stand-in took it", async () => {
    expect(await postToCoder({ url: coder.url, token: TOKEN }, notice)).toEqual({ id: ID, outcome: "delivered" });
    expect(inbox.sent).toHaveLength(1);
    expect(inbox.sent[0].user).toBe("alice");
    expect(inbox.sent[0].title).toBe(notice.title);
    expect(inbox.sent[0].message.endsWith(notice.link)).toBe(true);
    expect(inbox.requests[0].headers["coder-session-token"]).toBe(TOKEN);
  });

  it("a refusal carries Coder's status and message; an unreachable Coder is told apart", async () => {
    expect(await postToCoder({ url: coder.url, token: "expired" }, notice)).toEqual({
      id: ID,
      outcome: "refused",
      status: 401,
      message: "You are signed out or your session has expired. Please sign in again to continue.: API key is invalid.",
    });
    const down = await postToCoder({ url: "http://127.0.0.1:9", token: TOKEN }, notice);
    expect(down).toMatchObject({ id: ID, outcome: "unreachable" });
  });

  it("takes Coder's URL and the token from the environment, and not for an unclaimed prebuilt workspace", () => {
    const env = { STORAGE_CODER_URL: "https://coder.example.com/", STORAGE_CODER_SESSION_TOKEN: "t" };
    expect(coderInboxFrom(env)).toEqual({ url: "https://coder.example.com", token: "t" });
    expect(coderInboxFrom({ ...env, STORAGE_CODER_SESSION_TOKEN: " " })).toBeNull();
    expect(coderInboxFrom({ STORAGE_CODER_SESSION_TOKEN: "t" })).toBeNull();
    expect(coderInboxFrom({ ...env, CODER_WORKSPACE_OWNER_NAME: "prebuilds" })).toBeNull();
  });
});

describe("a reporter run with the Coder Inbox", () => {
  let server: http.Server;
  let url: string;
  let home: string;
  let requests: { path: string; headers: http.IncomingHttpHeaders; raw: string; json: unknown }[];
  /** What the dashboard answers a report with (an older dashboard: no `inbox`). */
  let answer: Record<string, unknown>;
  /** The outcomes endpoint's status (404: an older dashboard). */
  let outcomesStatus: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        let body = Buffer.concat(chunks);
        if (req.headers["content-encoding"] === "gzip") body = zlib.gunzipSync(body);
        const raw = body.toString();
        requests.push({ path: req.url!, headers: req.headers, raw, json: raw ? JSON.parse(raw) : null });
        const [status, out] =
          req.url === "/api/v1/enroll"
            ? [200, { workspaceId: "ws-1", token: "swt_1" }]
            : req.url === "/api/v1/reports"
              ? [200, answer]
              : req.url === "/api/v1/inbox/outcomes"
                ? [outcomesStatus, { applied: 1 }]
                : [200, { jobs: [] }];
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(out));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  const homes: string[] = [];
  afterAll(async () => {
    for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
    await new Promise<void>((r) => server.close(() => r()));
  });
  beforeEach(() => {
    requests = [];
    outcomesStatus = 200;
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "inbox-home-")));
    homes.push(home);
    fs.mkdirSync(path.join(home, ".claude"));
    fs.writeFileSync(path.join(home, ".claude/x"), "x");
  });

  const run = async (extra: Record<string, string>, verbose = true) => {
    const err: string[] = [];
    const env = {
      HOME: home,
      CODER_WORKSPACE_ID: "ws-1",
      CODER_WORKSPACE_NAME: "dev",
      CODER_WORKSPACE_OWNER_NAME: "alice",
      STORAGE_DASHBOARD_URL: url,
      STORAGE_ENROLLMENT_KEY: "sek_x",
      ...extra,
    };
    const code = await main(verbose ? ["--verbose", "--splay", "0"] : ["--splay", "0"], {
      env,
      io: { stdout: () => {}, stderr: (s) => void err.push(s) },
      retry: { ...DEFAULT_RETRY, sleep: async () => {} },
    });
    return { code, log: err.join("") };
  };
  const withCoder = { STORAGE_CODER_URL: "", STORAGE_CODER_SESSION_TOKEN: TOKEN };
  const refusedId = "9d5c1f0e-7a1b-4c2d-8e3f-a0b1c2d3e4f5";

  it("says it can deliver, posts the answer's notices as the owner and tells the outcomes; the token stays", async () => {
    answer = {
      reportId: "r",
      status: "stored",
      inbox: [
        { id: ID, title: "Workspace dev is full: 99 % used", text: "What to do: grow the disk", link: `${url}/w` },
        { id: refusedId, title: " ", text: "x", link: `${url}/w` },
      ],
    };
    const r = await run({ ...withCoder, STORAGE_CODER_URL: coder.url });
    expect(r.code).toBe(0);
    const report = requests.find((q) => q.path === "/api/v1/reports")!;
    expect(report.headers["x-coder-inbox"]).toBe("ready");
    // The report itself is what older dashboards accept: no new field
    expect(reportSchema.safeParse(report.json).success).toBe(true);
    expect(inbox.sent).toEqual([
      { user: "alice", title: "Workspace dev is full: 99 % used", message: `What to do: grow the disk\n\n${url}/w` },
    ]);
    const told = requests.find((q) => q.path === "/api/v1/inbox/outcomes")!;
    expect(told.headers.authorization).toBe("Bearer swt_1");
    expect(told.json).toEqual({
      outcomes: [
        { id: ID, outcome: "delivered" },
        {
          id: refusedId,
          outcome: "refused",
          status: 400,
          message: "Invalid request body: provide a non-empty 'content.title' and 'content.message'",
        },
      ],
    });
    // The owner's token goes to Coder alone: never in a request to the dashboard, nor in the run's (verbose) log
    for (const q of requests) expect(JSON.stringify(q.headers) + q.raw).not.toContain(TOKEN);
    expect(r.log).toContain("Coder Inbox through");
    expect(r.log).not.toContain(TOKEN);
    expect(fs.readdirSync(path.join(home, ".coder-modules/coder/storage-reporter")).join(" ")).not.toMatch(/inbox/);
  });

  it("without the token (an older module, or coder_inbox off) it says nothing of the Inbox and posts nothing", async () => {
    answer = { reportId: "r", status: "stored", inbox: [] };
    expect((await run({})).code).toBe(0);
    expect(requests.find((q) => q.path === "/api/v1/reports")!.headers["x-coder-inbox"]).toBeUndefined();
    expect(inbox.requests).toEqual([]);
  });

  it("against an older dashboard (no inbox in its answer, no outcomes endpoint) the run is as before", async () => {
    answer = { reportId: "r", status: "stored" };
    outcomesStatus = 404;
    const r = await run({ ...withCoder, STORAGE_CODER_URL: coder.url }, false);
    expect(r.code).toBe(0);
    expect(inbox.requests).toEqual([]);
    expect(requests.map((q) => q.path)).toEqual(["/api/v1/enroll", "/api/v1/reports", "/api/v1/jobs/claim"]);
  });

  it("outcomes the dashboard could not take wait for the next run; Coder unreachable is one of them", async () => {
    answer = {
      reportId: "r",
      status: "stored",
      inbox: [{ id: ID, title: "t", text: "m", link: `${url}/w` }],
    };
    outcomesStatus = 503;
    const first = await run({ ...withCoder, STORAGE_CODER_URL: "http://127.0.0.1:9" });
    expect(first.code).toBe(0);
    expect(first.log).toMatch(/Coder could not be reached for notice/);
    const state = path.join(home, ".coder-modules/coder/storage-reporter");
    expect(fs.existsSync(path.join(state, "inbox-outcomes.json"))).toBe(true);
    outcomesStatus = 200;
    answer = { reportId: "r", status: "stored", inbox: [] };
    requests = [];
    await run({ ...withCoder, STORAGE_CODER_URL: coder.url });
    const told = requests.find((q) => q.path === "/api/v1/inbox/outcomes")!;
    expect(told.json).toMatchObject({ outcomes: [{ id: ID, outcome: "unreachable" }] });
    expect(fs.existsSync(path.join(state, "inbox-outcomes.json"))).toBe(false);
  });
});
