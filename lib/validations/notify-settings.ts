import { z } from "zod";
import { DEFAULT_THRESHOLDS } from "@/lib/notify/decide";

// The owners' notices' settings that the Notifications page shows and admins edit: each is stored in the settings
// table under `key`, unless its environment variable is set, which wins (the page then shows it read-only, named).
// The bounds are the variables' own (lib/config/variables.ts), so a value is valid in either place or neither.

export type NotifySetting = {
  id: "fillingDays" | "fullPct" | "growingFileGib" | "digestHour" | "maxPerHour";
  label: string;
  unit: string;
  key: string;
  env: string;
  defaultValue: number;
  min: number;
  max: number;
};

export const NOTIFY_SETTINGS = [
  {
    id: "fillingDays",
    label: "Filling: the forecast says full within",
    unit: "days",
    key: "notify.filling_days",
    env: "STORAGE_NOTIFY_FILLING_DAYS",
    defaultValue: DEFAULT_THRESHOLDS.fillingDays,
    min: 1,
    max: 365,
  },
  {
    id: "fullPct",
    label: "Full: the volume used at least",
    unit: "%",
    key: "notify.full_percent",
    env: "STORAGE_NOTIFY_FULL_PERCENT",
    defaultValue: DEFAULT_THRESHOLDS.fullPct,
    min: 50,
    max: 100,
  },
  {
    id: "growingFileGib",
    label: "Growing file: one file grew in a day by more than",
    unit: "GiB",
    key: "notify.growing_file_gib",
    env: "STORAGE_NOTIFY_GROWING_FILE_GIB",
    defaultValue: DEFAULT_THRESHOLDS.growingFileBytes / 1024 ** 3,
    min: 1,
    max: 1024,
  },
  {
    id: "digestHour",
    label: "Daily email digest at",
    unit: "h UTC",
    key: "notify.digest_hour",
    env: "STORAGE_NOTIFY_DIGEST_HOUR",
    defaultValue: 8,
    min: 0,
    max: 23,
  },
  {
    id: "maxPerHour",
    label: "At most, across the instances",
    unit: "sends an hour",
    key: "notify.max_per_hour",
    env: "STORAGE_NOTIFY_MAX_PER_HOUR",
    defaultValue: 500,
    min: 1,
    max: 1_000_000,
  },
] as const satisfies readonly NotifySetting[];

export type NotifySettingId = NotifySetting["id"];
/** The value of each setting in force. */
export type NotifySettings = Record<NotifySettingId, number>;

/** Body of PUT /api/v1/settings/notifications: the settings to change. */
export const notifySettingsUpdate = z
  .object(
    Object.fromEntries(
      NOTIFY_SETTINGS.map((s) => [
        s.id,
        z
          .number()
          .int(`must be a whole number (${s.unit})`)
          .min(s.min, `must be from ${s.min} to ${s.max} (${s.unit})`)
          .max(s.max, `must be from ${s.min} to ${s.max} (${s.unit})`)
          .optional(),
      ]),
    ) as Record<NotifySettingId, z.ZodOptional<z.ZodNumber>>,
  )
  .strict()
  .refine((v) => Object.values(v).some((d) => d !== undefined), "name at least one setting to change");

export type NotifySettingsUpdate = z.infer<typeof notifySettingsUpdate>;
