-- When the newest report says the reporter's own writes failed for lack of space (ENOSPC, EDQUOT): the owner is
-- told the volume is full whatever df's figures say. Null for reports that do not say so and older reporters.
ALTER TABLE "workspaces" ADD COLUMN "writes_failed_no_space_at" timestamp with time zone;
