// npm run restore -- FILE [--check] [--force]: verifies a backup (--check writes nothing) or restores it into the
// configured database (DATABASE_URL, or the embedded one), which must be empty unless --force. docs/backup.md.
import path from "node:path";
import { parseArgs } from "node:util";
import { checkBackup, leftOutNotice } from "@/lib/backup/restore";
import { restoreTarget } from "@/lib/backup/run";
import { config } from "@/lib/config";
import { configuredTarget, describeTarget, fail, progress } from "./backup/target";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { check: { type: "boolean", default: false }, force: { type: "boolean", default: false } },
});
const file = positionals[0];
if (!file || file === "-") {
  console.error("usage: npm run restore -- FILE [--check] [--force]   (a file: it is read twice, checked then loaded)");
  process.exit(2);
}
try {
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  if (values.check) {
    const { header, manifest } = await checkBackup(file);
    const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
    console.log(
      `${file} is whole: ${header.product} ${header.version}, migration ${header.migration.tag}, from the ${header.kind} ` +
        `database at ${header.createdAt}; ${manifest.tables.length} tables, ${rows.toLocaleString("en")} rows, every ` +
        `checksum and count verified in ${seconds()}.${header.withSecrets ? "" : " Secrets left out."}`,
    );
  } else {
    const target = configuredTarget();
    const safetyFile = path.join(
      path.dirname(path.resolve(file)),
      `safety-${new Date().toISOString().replace(/[:.]/g, "-")}.storage-backup`,
    );
    const result = await restoreTarget(target, file, {
      force: values.force,
      safetyFile,
      onTable: progress("restoring"),
    });
    const rows = result.manifest.tables.reduce((n, t) => n + t.rows, 0);
    if (result.safetyFile) console.log(`What the target held is backed up in ${result.safetyFile}.`);
    console.log(
      `Restored ${file} (${result.header.version}, migration ${result.header.migration.tag}) into ${describeTarget(target)}: ` +
        `${rows.toLocaleString("en")} rows in ${seconds()}.`,
    );
    const lost = leftOutNotice(result.header, config().enrollmentKey !== null);
    if (lost.length) console.log(`The backup holds no secrets. What stops working:\n  ${lost.join("\n  ")}`);
  }
} catch (err) {
  fail(err);
}
