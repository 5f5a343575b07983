import { afterEach, expect, it, vi } from "vitest";
import { startMaintenanceSchedule } from "./maintenance-schedule";
import { runMaintenance } from "./maintenance-task";
import type { Database } from "./open";

vi.mock("./maintenance-task", () => ({ runMaintenance: vi.fn(async () => ({ ran: false, reason: "mocked" })) }));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it("tries the database again at the next run when it was down at the first", async () => {
  vi.useFakeTimers();
  const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const database = { kind: "postgres" } as Database;
  const open = vi
    .fn<() => Promise<Database>>()
    .mockRejectedValueOnce(new Error("connection refused"))
    .mockResolvedValue(database);
  startMaintenanceSchedule(open, 60 * 60 * 1000);

  await vi.advanceTimersByTimeAsync(30 * 1000);
  expect(open).toHaveBeenCalledTimes(1);
  expect(runMaintenance).not.toHaveBeenCalled();
  expect(quiet.mock.calls.flat().join(" ")).toContain("connection refused");

  await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
  expect(open).toHaveBeenCalledTimes(2);
  expect(runMaintenance).toHaveBeenCalledWith(database);
});
