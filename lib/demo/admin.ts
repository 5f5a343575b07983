import "server-only";
import { count } from "drizzle-orm";
import { createUser } from "@/lib/services/users";
import type { Db } from "@/lib/db/types";
import { users } from "@/lib/db/schema";

/** The demo's admin: a fixed, printed password, because the demo holds a made-up fleet on localhost only. */
export const DEMO_ADMIN = { email: "admin@example.com", password: "demo-admin-password" } as const;

/** Creates the demo admin when the demo database has no user yet. */
export async function ensureDemoAdmin(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  if (row.n > 0) return false;
  await createUser(
    db,
    { email: DEMO_ADMIN.email, password: DEMO_ADMIN.password, role: "admin", name: "Demo admin" },
    {
      actor: { type: "system", label: "demo" },
    },
  );
  return true;
}
