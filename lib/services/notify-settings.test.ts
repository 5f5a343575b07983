import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import type { NotifyConfig } from "@/lib/config";
import { auditLog, settings } from "@/lib/db/schema";
import { ConflictError } from "@/lib/errors";
import { describeEachDatabase, TEST_WHO } from "@/tests/support/db";
import { notifySettingsInForce, notifySettingsView, updateNotifySettings } from "./notify-settings";

// The Notifications page's settings: stored by admins, audited, and beaten by their environment variable.

const UNSET = { email: null, webhook: null, allowPrivate: false, thresholds: {} } as NotifyConfig;
const FULL_FROM_ENV = { ...UNSET, thresholds: { fullPct: 90 } } as NotifyConfig;

describeEachDatabase("the notices' settings", (t) => {
  it("holds the defaults until an admin saves a value", async () => {
    expect(await notifySettingsInForce(t.current.db, UNSET)).toEqual({
      fillingDays: 7,
      fullPct: 95,
      growingFileGib: 1,
      digestHour: 8,
      maxPerHour: 500,
    });
    expect((await notifySettingsView(t.current.db, UNSET)).map((s) => s.source)).toEqual([
      "default",
      "default",
      "default",
      "default",
      "default",
    ]);
  });

  it("stores an admin's values with one audit entry, and a set variable still wins", async () => {
    const db = t.current.db;
    const view = await updateNotifySettings({ db, who: TEST_WHO }, { fillingDays: 10, maxPerHour: 50 }, UNSET);
    expect(view.find((s) => s.id === "fillingDays")).toMatchObject({ value: 10, source: "stored" });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "settings.notifications_changed"));
    expect(entry.details).toEqual({ fillingDays: 10, maxPerHour: 50 });
    expect(await notifySettingsInForce(db, FULL_FROM_ENV)).toEqual({
      fillingDays: 10,
      fullPct: 90,
      growingFileGib: 1,
      digestHour: 8,
      maxPerHour: 50,
    });
    const full = (await notifySettingsView(db, FULL_FROM_ENV)).find((s) => s.id === "fullPct");
    expect(full).toMatchObject({ value: 90, source: "env", env: "STORAGE_NOTIFY_FULL_PERCENT" });
  });

  it("refuses a setting its variable sets, storing nothing of the request", async () => {
    const db = t.current.db;
    await expect(
      updateNotifySettings({ db, who: TEST_WHO }, { fullPct: 80, digestHour: 3 }, FULL_FROM_ENV),
    ).rejects.toThrow(ConflictError);
    const stored = await db.select().from(settings).where(eq(settings.key, "notify.digest_hour"));
    expect(stored).toEqual([]);
  });

  it("ignores a stored value outside the bounds (written by hand), as if it were not there", async () => {
    const db = t.current.db;
    await db.insert(settings).values({ key: "notify.digest_hour", value: "25" });
    expect((await notifySettingsInForce(db, UNSET)).digestHour).toBe(8);
  });
});
