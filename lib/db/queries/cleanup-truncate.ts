import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "../types";

/**
 * The file `path` of root `rootKey` as the workspace's latest report lists it among the root's largest entries
 * (what the growing-file finding reads): its size and whether its name came escaped. Undefined when the report
 * does not list it as a file.
 */
export async function reportedFile(
  db: Db,
  workspaceId: string,
  rootKey: string,
  path: string,
): Promise<{ bytes: number; escaped: boolean } | undefined> {
  const [row] = rowsOf<{ bytes: string; escaped: boolean }>(
    await db.execute(sql`
    select (e ->> 'bytes')::bigint as bytes, coalesce(e ->> 'pathEncoding', '') = 'escaped' as escaped
    from root_latest r cross join lateral jsonb_array_elements(r.largest) e
    where r.workspace_id = ${workspaceId} and r.root_key = ${rootKey}
      and e ->> 'path' = ${path} and e ->> 'type' = 'file'
    limit 1`),
  );
  return row ? { bytes: Number(row.bytes), escaped: row.escaped } : undefined;
}
