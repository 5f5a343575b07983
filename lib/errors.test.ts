import { describe, expect, it } from "vitest";
import { ValidationError, isDatabaseUnavailable } from "./errors";

const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("knows an unreachable, restarting, overloaded or timed-out database, however the driver words it", () => {
    for (const err of [
      coded("ECONNREFUSED"),
      coded("57P01", "terminating connection due to administrator command"),
      coded("57014", "canceling statement due to statement timeout"),
      coded("53300", "too many connections"),
      coded("08006"),
      new Error("timeout exceeded when trying to connect"),
      new Error("Connection terminated unexpectedly"),
      new Error("Connection terminated due to connection timeout"),
      new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")]),
      new Error("Failed query: select 1", { cause: coded("ECONNRESET") }),
    ])
      expect(isDatabaseUnavailable(err), String(err)).toBe(true);
  });

  it("does not take a wrong query or a domain error for an outage", () => {
    for (const err of [
      coded("23505", "duplicate key value violates unique constraint"),
      coded("42P01", "relation does not exist"),
      new ValidationError("bad"),
      new TypeError("Cannot read properties of undefined"),
      Object.assign(new Error("Connection terminated unexpectedly"), { code: "22P02" }),
    ])
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
  });
});
