// The Coder stand-in's workspace endpoints answer as Coder does (offset paging with the total count, its search
// syntax refusing unknown keys, 410 for a deleted workspace unless include_deleted=true, 404 for an unknown id,
// the session token by either header): the sync's tests rely on it refusing what Coder refuses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCoderStandIn, type CoderStandIn } from "../support/coder-standin/server";
import { coderWorkspace, coderWorkspaces, type CoderWorkspaces } from "../support/coder-standin/workspaces";

const TOKEN = "coder-token-1";
let coder: CoderStandIn;
let api: CoderWorkspaces;

beforeAll(async () => {
  api = coderWorkspaces({
    tokens: [TOKEN],
    workspaces: [
      coderWorkspace({ id: "w-1", name: "dev", owner_name: "alice" }),
      coderWorkspace({ id: "w-2", name: "api", owner_name: "bob", dormant_at: "2026-01-02T00:00:00Z" }),
      coderWorkspace({
        id: "w-3",
        name: "old",
        owner_name: "carol",
        latest_build: { status: "stopped", transition: "stop" },
        last_used_at: "2025-06-01T00:00:00Z",
      }),
      coderWorkspace({ id: "w-4", name: "gone", owner_name: "dave" }),
    ],
  });
  api.remove("w-4");
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

  it("pages by offset with the count of every match, and leaves deleted workspaces out", async () => {
    const first = await (await get("/api/v2/workspaces?limit=2&offset=0")).json();
    const second = await (await get("/api/v2/workspaces?limit=2&offset=2")).json();
    expect(first.count).toBe(3);
    expect(second.count).toBe(3);
    expect(first.workspaces.map((w: { id: string }) => w.id)).toEqual(["w-1", "w-2"]);
    expect(second.workspaces.map((w: { id: string }) => w.id)).toEqual(["w-3"]);
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
    expect(await ids("owner:bob")).toEqual(["w-2"]);
    expect(await ids("dormant:true")).toEqual(["w-2"]);
    expect(await ids("status:stopped")).toEqual(["w-3"]);
    // A time holds colons: Coder takes it only quoted, and refuses it bare (one ':' per term).
    expect(await ids('last_used_before:"2025-12-01T00:00:00Z"')).toEqual(["w-3"]);
    expect((await q("last_used_before:2025-12-01T00:00:00Z")).status).toBe(400);
    expect(await ids("alice/dev")).toEqual(["w-1"]);
    const refused = await q("colour:blue");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      message: "Invalid workspace search query.",
      validations: [{ field: "colour", detail: 'Query param "colour" is not a valid query param' }],
    });
    expect((await q("status:sleeping")).status).toBe(400);
    expect((await q("owner:")).status).toBe(400);
  });

  it("answers 410 for a deleted workspace unless include_deleted=true, and 404 for an unknown id", async () => {
    expect((await get("/api/v2/workspaces/w-1")).status).toBe(200);
    const gone = await get("/api/v2/workspaces/w-4");
    expect(gone.status).toBe(410);
    expect((await gone.json()).message).toMatch(/was deleted/);
    const shown = await get("/api/v2/workspaces/w-4?include_deleted=true");
    expect(shown.status).toBe(200);
    expect((await shown.json()).latest_build.status).toBe("deleted");
    expect((await get("/api/v2/workspaces/w-unknown?include_deleted=true")).status).toBe(404);
  });

  it("fails the next requests as a test asks", async () => {
    api.failNext(503, 2);
    expect((await get("/api/v2/workspaces")).status).toBe(503);
    expect((await get("/api/v2/workspaces")).status).toBe(503);
    expect((await get("/api/v2/workspaces")).status).toBe(200);
  });
});
