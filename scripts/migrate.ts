// Applies pending migrations to the configured database (DATABASE_URL, or the embedded one) and exits.
import { getDatabase } from "@/lib/db";

const database = await getDatabase();
console.log(`migrations applied (${database.kind}: ${database.location})`);
await database.close();
