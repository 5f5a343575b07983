// instrumentation.ts at start: a database that cannot be opened then must not keep the scheduled tasks from
// starting (each of their ticks opens it when it can).
import { expect, it, vi } from "vitest";
import { startCleanupScheduler } from "@/lib/services/cleanup-scheduler";
import { getDatabase, getDb } from "@/lib/db";
import { startMaintenanceSchedule } from "@/lib/db/maintenance-schedule";
import { register } from "@/instrumentation";

vi.mock("@/lib/db", () => ({
  getDatabase: vi.fn(async () => {
    throw new Error("connection refused");
  }),
  getDb: vi.fn(async () => {
    throw new Error("connection refused");
  }),
}));
vi.mock("@/lib/shutdown", () => ({ installShutdownBound: vi.fn() }));
vi.mock("@/lib/auth/client-ip", () => ({ installForwardedForGuard: vi.fn(async () => undefined) }));
vi.mock("@/lib/services/cleanup-scheduler", () => ({ startCleanupScheduler: vi.fn() }));
vi.mock("@/lib/db/maintenance-schedule", () => ({
  startMaintenanceSchedule: vi.fn(),
  MAINTENANCE_EVERY_MS: 3_600_000,
}));

it("starts the cleanup scheduler and the maintenance schedule when the database is down at start", async () => {
  const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
  vi.stubEnv("NEXT_RUNTIME", "nodejs");
  try {
    await register();
  } finally {
    vi.unstubAllEnvs();
    quiet.mockRestore();
  }
  expect(getDatabase).toHaveBeenCalled();
  expect(startCleanupScheduler).toHaveBeenCalledWith(getDb);
  expect(vi.mocked(startMaintenanceSchedule).mock.calls[0][0]).toBe(getDatabase);
});
