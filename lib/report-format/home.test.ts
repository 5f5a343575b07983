import { expect, it } from "vitest";
import { homeUsage as homeUsageSchema } from "./home";
import { homeUsage } from "@/tests/support/home";

it("accepts a home from a reporter before 0.5 (nothing measured under the mounts) and one that measured it", () => {
  const older = homeUsage();
  expect(older.hiddenUnderMounts).toBeUndefined();
  expect(homeUsageSchema.safeParse(older).success).toBe(true);
  expect(homeUsageSchema.parse(homeUsage({ hiddenUnderMounts: 4096 })).hiddenUnderMounts).toBe(4096);
  expect(homeUsageSchema.safeParse(homeUsage({ hiddenUnderMounts: -1 })).success).toBe(false);
  expect(homeUsageSchema.safeParse(homeUsage({ hiddenUnderMounts: 1.5 })).success).toBe(false);
});
