// The Coder stand-in's workspace endpoints answer as Coder does (offset paging with the total count, rows of an
// unreadable template left out of a page but counted, started workspaces first, its search syntax refusing unknown
// keys, 410 for a deleted workspace unless include_deleted=true, 404 for an unknown id, 400 for an id that is not a
// UUID, 403 for a workspace whose template the token cannot read, 429 with Retry-After, the session token by either
// header): the sync's tests rely on it refusing what Coder refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";
import { coderWorkspace, coderWorkspaces, type CoderWorkspaces } from "../support/coder-standin/workspaces";

const TOKEN = "coder-token-1";
const id = (n: number) => `a1b2c3d4-0000-4000-8000-00000000000${n}`;
let coder: CoderStandIn;
let api: CoderWorkspaces;

beforeAll(async () => {
  api = coderWorkspaces({
    tokens: [TOKEN],
    workspaces: [
      coderWorkspace({
        id: id(3),
        name: "old",
        owner_name: "Carol",
        latest_build: { status: "stopped", transition: "stop" },
        last_used_at: "2025-06-01T00:00:00Z",
      }),
      coderWorkspace({ id: id(2), name: "api", owner_name: "bob", dormant_at: "2026-01-02T00:00:00Z" }),
      coderWorkspace({ id: id(1), name: "dev", owner_name: "alice" }),
      coderWorkspace({ id: id(4), name: "gone", owner_name: "dave" }),
      coderWorkspace({ id: id(5), name: "secret", owner_name: "eve", template_id: "tpl-secret" }),
    ],
  });
  api.remove(id(4));
  coder = await startCoderStandIn([api.handler]);
});
afterAll(() => coder?.close());

const get = (path: string, headers: Record<string, string> = { "Coder-Session-Token": TOKEN }) =>
  fetch(`${coder.url}${path}`, { headers });

describe("Coder stand-in: workspaces", () => {
  it("refuses a request without a valid session token, and takes Authorization: Bearer", async () => {
    expect((await get("/api/v2/workspaces", {})).status).toBe(401);
    const bad = await get("/api/v2/workspaces", { "Coder-Session-Token": "nope" });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: "API key is invalid." });
    expect((await get("/api/v2/workspaces", { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it("pages by offset with the count of every match, running first, and leaves deleted workspaces out", async () => {
    const first = await (await get("/api/v2/workspaces?limit=2&offset=0")).json();
    const second = await (await get("/api/v2/workspaces?limit=2&offset=2")).json();
    expect(first.count).toBe(4);
    expect(second.count).toBe(4);
    expect(first.workspaces.map((w: { id: string }) => w.id)).toEqual([id(1), id(2)]);
    expect(second.workspaces.map((w: { id: string }) => w.id)).toEqual([id(5), id(3)]);
    expect(first.workspaces[0]).toMatchObject({
      owner_name: "alice",
      template_display_name: "Docker",
      latest_build: { status: "running", transition: "start" },
      health: { healthy: true },
    });
  });

  it("filters with Coder's search syntax and refuses unknown keys with Coder's validations", async () => {
    const q = async (query: string) => get(`/api/v2/workspaces?q=${encodeURIComponent(query)}`);
    const ids = async (query: string) =>
      ((await (await q(query)).json()).workspaces as { id: string }[]).map((w) => w.id);
    expect(await ids("owner:bob")).toEqual([id(2)]);
    expect(await ids("dormant:true")).toEqual([id(2)]);
    expect(await ids("status:stopped")).toEqual([id(3)]);
    // A time holds colons: Coder takes it only quoted, and refuses it bare (one ':' per term).
    expect(await ids('last_used_before:"2025-12-01T00:00:00Z"')).toEqual([id(3)]);
    expect((await q("last_used_before:2025-12-01T00:00:00Z")).status).toBe(400);
    expect(await ids("alice/dev")).toEqual([id(1)]);
    const refused = await q("colour:blue");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      message: "Invalid workspace search query.",
      validations: [{ field: "colour", detail: 'Query param "colour" is not a valid query param' }],
    });
    expect((await q("status:sleeping")).status).toBe(400);
    expect((await q("owner:")).status).toBe(400);
  });

  it("answers 410 for a deleted workspace unless include_deleted=true, 404 for an unknown id, 400 for a non-UUID", async () => {
    expect((await get(`/api/v2/workspaces/${id(1)}`)).status).toBe(200);
    const gone = await get(`/api/v2/workspaces/${id(4)}`);
    expect(gone.status).toBe(410);
    expect((await gone.json()).message).toMatch(/was deleted/);
    const shown = await get(`/api/v2/workspaces/${id(4)}?include_deleted=true`);
    expect(shown.status).toBe(200);
    expect((await shown.json()).latest_build).toMatchObject({
      status: "deleted",
      job: { completed_at: expect.any(String) },
    });
    expect((await get(`/api/v2/workspaces/${id(9)}?include_deleted=true`)).status).toBe(404);
    const hand = await get("/api/v2/workspaces/w-unknown?include_deleted=true");
    expect(hand.status).toBe(400);
    expect((await hand.json()).message).toBe('Invalid UUID "w-unknown".');
  });

  it("hides a workspace of an unreadable template: 403 by id, left out of its page with the count kept", async () => {
    api.unreadableTemplates.add("tpl-secret");
    try {
      const denied = await get(`/api/v2/workspaces/${id(5)}`);
      expect(denied.status).toBe(403);
      expect((await denied.json()).message).toBe("Forbidden.");
      const page = await (await get("/api/v2/workspaces?limit=2&offset=2")).json();
      expect(page).toMatchObject({ count: 4 });
      expect(page.workspaces.map((w: { id: string }) => w.id)).toEqual([id(3)]);
    } finally {
      api.unreadableTemplates.clear();
    }
  });

  it("answers Coder's 429 with the headers a test gives", async () => {
    api.rateLimitNext(1, { "retry-after": "7" });
    const limited = await get("/api/v2/workspaces");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("7");
    expect((await get("/api/v2/workspaces")).status).toBe(200);
  });

  it("fails the next requests as a test asks", async () => {
    api.failNext(503, 2);
    expect((await get("/api/v2/workspaces")).status).toBe(503);
    expect((await get("/api/v2/workspaces")).status).toBe(503);
    expect((await get("/api/v2/workspaces")).status).toBe(200);
  });
});
