import { APIError } from "better-auth/api";
import { afterEach, expect, it, vi } from "vitest";
import { authLog } from "./auth-log";

afterEach(() => vi.restoreAllMocks());

function spy() {
  const lines: string[] = [];
  for (const level of ["info", "warn", "error"] as const) {
    vi.spyOn(console, level).mockImplementation(
      (...args: unknown[]) => void lines.push(`${level}: ${args.map(String).join(" ")}`),
    );
  }
  return lines;
}

it("drops Better Auth's per-instance base URL warning (said once at start instead)", () => {
  const lines = spy();
  authLog("warn", "[better-auth] Base URL is not set. Set the baseURL option or BETTER_AUTH_URL env, …");
  expect(lines).toEqual([]);
});

it("logs a refused token as one info line, without the error object", () => {
  const lines = spy();
  authLog(
    "error",
    "Failed to validate API key:",
    APIError.from("UNAUTHORIZED", { message: "Invalid API key.", code: "INVALID_API_KEY" }),
  );
  expect(lines).toEqual(["info: [auth] API token refused: Invalid API key."]);
});

it("passes an unexpected failure through as an error", () => {
  const lines = spy();
  authLog("error", "Failed to validate API key:", new Error("connection refused"));
  expect(lines).toEqual(["error: [auth] Failed to validate API key: Error: connection refused"]);
});
