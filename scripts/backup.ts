// npm run backup -- FILE [--with-secrets]: writes a backup of the configured database (DATABASE_URL, or the
// embedded one) to FILE, or to stdout for "-". docs/backup.md.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { backupTarget } from "@/lib/backup/run";
import { DataFolderLockedError } from "@/lib/db/open";
import { configuredTarget, describeTarget, fail, progress, sizeOf } from "./backup/target";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { "with-secrets": { type: "boolean", default: false } },
});
const file = positionals[0];
if (!file) {
  console.error("usage: npm run backup -- FILE [--with-secrets]   (FILE - writes to stdout)");
  process.exit(2);
}
const target = configuredTarget();
// A temporary name until the backup is whole: a file named FILE is always a complete backup.
const partial = `${file}.partial`;
try {
  const out = file === "-" ? process.stdout : fs.createWriteStream(partial);
  const onProgress = progress("backing up");
  const summary = await backupTarget(target, out, {
    withSecrets: values["with-secrets"],
    onTable: (t, i, n) => onProgress(t.name, t.rows, i, n),
  });
  if (file !== "-") fs.renameSync(partial, file);
  const rows = summary.manifest.tables.reduce((n, t) => n + t.rows, 0);
  console.error(
    `Backed up ${describeTarget(target)} (migration ${summary.header.migration.tag}) to ${file === "-" ? "stdout" : file}: ` +
      `${summary.manifest.tables.length} tables, ${rows.toLocaleString("en")} rows, ${sizeOf(summary.bytes)} in ` +
      `${(summary.ms / 1000).toFixed(1)} s.`,
  );
  if (summary.header.leftOut.length)
    console.error(
      `Secrets left out (--with-secrets keeps them): ${summary.header.leftOut.map((l) => `${l.table} (${l.what})`).join("; ")}.`,
    );
} catch (err) {
  if (file !== "-") fs.rmSync(partial, { force: true });
  if (err instanceof DataFolderLockedError)
    fail(
      `${err.message}\nWhile the app runs, back up through it: GET /api/v1/backup as an admin (streamed), ` +
        `or set STORAGE_BACKUP_DIR for a scheduled backup each day (docs/backup.md).`,
    );
  else fail(err);
}
