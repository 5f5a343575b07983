// npm run maintenance: runs the maintenance task once against the configured database (DATABASE_URL, or the
// embedded one) and prints what it did. The app also runs it hourly by itself; an instance that is running it
// at the same moment makes this one skip.
import { getDatabase } from "@/lib/db";
import { runMaintenance } from "@/lib/db/maintenance-task";
import { decideCleanupAhead } from "@/lib/services/cleanup-ahead";

const database = await getDatabase();
try {
  const r = await runMaintenance(database);
  // As the app's hourly run does: the owners told of the cleanups the policies' next runs will make.
  const cleanupAheadQueued = r.ran ? await decideCleanupAhead(database.db) : 0;
  console.log(JSON.stringify({ ...r, cleanupAheadQueued }, null, 2));
} finally {
  await database.close();
}
