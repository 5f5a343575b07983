// npm run maintenance: runs the maintenance task once against the configured database (DATABASE_URL, or the
// embedded one) and prints what it did. The app also runs it hourly by itself; an instance that is running it
// at the same moment makes this one skip.
import { getDatabase } from "@/lib/db";
import { runMaintenance } from "@/lib/db/maintenance-task";

const database = await getDatabase();
try {
  const r = await runMaintenance(database);
  console.log(JSON.stringify(r, null, 2));
} finally {
  await database.close();
}
