import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, fetchJson, withQuery } from "./fetch-json";

afterEach(() => vi.unstubAllGlobals());

function stubFetch(status: number, body: string) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body, { status, statusText: "x" })),
  );
}

describe("fetchJson", () => {
  it("returns the parsed body", async () => {
    stubFetch(200, JSON.stringify({ a: 1 }));
    await expect(fetchJson("/api/v1/x")).resolves.toEqual({ a: 1 });
  });
  it("turns the error envelope into a thrown ApiError", async () => {
    stubFetch(404, JSON.stringify({ error: { code: "not_found", message: "No such workspace." } }));
    const err = await fetchJson("/api/v1/x").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("No such workspace.");
    expect((err as ApiError).code).toBe("not_found");
    expect((err as ApiError).status).toBe(404);
  });
  it("still throws when the error body is not JSON", async () => {
    stubFetch(502, "<html>bad gateway</html>");
    await expect(fetchJson("/api/v1/x")).rejects.toMatchObject({ status: 502, code: "http_502" });
  });
  it("reports network failures", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("fetch failed");
      }),
    );
    await expect(fetchJson("/api/v1/x")).rejects.toMatchObject({ code: "network" });
  });
});

describe("withQuery", () => {
  it("drops empty values", () => {
    expect(withQuery("/p", { a: 1, b: "", c: undefined, d: null, e: "x y" })).toBe("/p?a=1&e=x+y");
    expect(withQuery("/p", {})).toBe("/p");
  });
});
