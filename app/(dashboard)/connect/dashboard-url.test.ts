import { describe, expect, it } from "vitest";
import { dashboardUrlFrom } from "./dashboard-url";

const h = (o: Record<string, string>) => new Headers(o);

describe("dashboardUrlFrom", () => {
  it("prefers forwarded headers", () => {
    expect(
      dashboardUrlFrom(
        h({ host: "10.0.0.1:3000", "x-forwarded-host": "storage.example.com", "x-forwarded-proto": "https" }),
      ),
    ).toBe("https://storage.example.com");
  });
  it("takes the first of a forwarded list", () => {
    expect(dashboardUrlFrom(h({ "x-forwarded-host": "a.example.com, b", "x-forwarded-proto": "https,http" }))).toBe(
      "https://a.example.com",
    );
  });
  it("guesses http for local hosts and https otherwise", () => {
    expect(dashboardUrlFrom(h({ host: "localhost:3000" }))).toBe("http://localhost:3000");
    expect(dashboardUrlFrom(h({ host: "storage.internal" }))).toBe("https://storage.internal");
  });
});
