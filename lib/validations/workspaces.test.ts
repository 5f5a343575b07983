import { describe, expect, it } from "vitest";
import {
  DEFAULT_LIST_STATE,
  parseWorkspaceListSearchParams,
  WORKSPACE_SORT_COLUMNS,
  workspaceListEntries,
  workspaceListQuery,
} from "./workspaces";

const parse = (qs: string) => parseWorkspaceListSearchParams(new URLSearchParams(qs));

describe("workspace list search params", () => {
  it("defaults everything", () => {
    expect(parse("")).toEqual(DEFAULT_LIST_STATE);
  });
  it("reads filters, sort and paging", () => {
    expect(
      parse(
        "q=api&owner=alice&template=ai-dev&organization=org-1&group=g-1&agent=codex&status=stopped&dormant=true&reporting=no&sort=change7d&dir=asc&page=3&pageSize=100",
      ),
    ).toEqual({
      q: "api",
      owner: "alice",
      template: "ai-dev",
      organization: "org-1",
      group: "g-1",
      agent: "codex",
      status: "stopped",
      dormant: "true",
      reporting: "no",
      sort: "change7d",
      dir: "asc",
      page: 3,
      pageSize: 100,
    });
  });
  it("uses each column's natural direction when dir is absent", () => {
    expect(parse("sort=name").dir).toBe("asc");
    expect(parse("sort=lastReport").dir).toBe("desc");
    expect(parse("sort=daysUntilFull").dir).toBe("asc");
  });
  it("ignores invalid values", () => {
    const s = parse("sort=drop+table&dir=sideways&page=-4&pageSize=7");
    expect(s.sort).toBe("total");
    expect(s.dir).toBe("desc");
    expect(s.page).toBe(1);
    expect(s.pageSize).toBe(50);
    expect(parse("status=asleep&dormant=maybe&reporting=sometimes")).toMatchObject({
      status: "",
      dormant: "",
      reporting: "",
    });
  });
  it("reads Next's plain searchParams objects", () => {
    expect(parseWorkspaceListSearchParams({ q: ["x", "y"], page: "2" })).toMatchObject({ q: "x", page: 2 });
  });
  it("round-trips through the URL, leaving defaults out", () => {
    expect(workspaceListEntries(DEFAULT_LIST_STATE)).toEqual({
      q: null,
      owner: null,
      template: null,
      organization: null,
      group: null,
      agent: null,
      status: null,
      dormant: null,
      reporting: null,
      sort: null,
      dir: null,
      page: null,
      pageSize: null,
    });
    const state = parse("q=web&sort=name&dir=desc&page=2");
    const qs = new URLSearchParams(
      Object.entries(workspaceListEntries(state)).filter((e): e is [string, string] => e[1] !== null),
    );
    expect(qs.toString()).toBe("q=web&sort=name&dir=desc&page=2");
    expect(parse(qs.toString())).toEqual(state);
  });
});

describe("workspace list query (API)", () => {
  it("accepts every sort column the URL accepts, and nothing else", () => {
    for (const sort of WORKSPACE_SORT_COLUMNS) {
      expect(workspaceListQuery.parse({ sort }).sort).toBe(sort);
      expect(parse(`sort=${sort}`).sort).toBe(sort);
    }
    expect(workspaceListQuery.safeParse({ sort: "bogus" }).success).toBe(false);
    expect(parse("sort=bogus").sort).toBe(DEFAULT_LIST_STATE.sort);
  });
});
