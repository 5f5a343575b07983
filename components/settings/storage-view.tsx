"use client";

import type { ColumnDef } from "@tanstack/react-table";
import type { StorageSettings } from "@/lib/db/queries/storage";
import { Bytes } from "@/components/ui/bytes";
import { Panel } from "@/components/ui/panel";
import { column, DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/time";
import { SyncFailure } from "@/components/coder/sync-failure";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { RetentionEditor } from "./retention-editor";
import { ExportLink } from "@/components/ui/export-link";
import { exportPaths } from "@/lib/validations/export";
import { PageHeader } from "@/components/ui/page-header";
import type { ReporterRolloutView } from "@/lib/services/reporter-rollout";
import { ReporterRolloutPanel } from "./reporter-rollout";

/** The last workspace sync from Coder, as its state was kept: when, what it found, or why it failed. */
function CoderSyncLine({ sync }: { sync: StorageSettings["coderSync"] }) {
  if (!sync) {
    return (
      <p className="muted small" data-testid="coder-sync-settings">
        No workspace sync from Coder has run (set <code>CODER_URL</code> and <code>CODER_SESSION_TOKEN</code>).
      </p>
    );
  }
  const at = sync.finishedAt ?? sync.startedAt;
  return (
    <p className={sync.error ? "small delta up" : "muted small"} data-testid="coder-sync-settings">
      {sync.error ? (
        <SyncFailure at={at} error={sync.error} succeededAt={sync.succeededAt} />
      ) : (
        <>
          Last sync from Coder <RelativeTime value={at} />: {formatCount(sync.listed)} listed, {formatCount(sync.added)}{" "}
          new, {formatCount(sync.deleted)} deleted, {formatCountOf(sync.jobsCancelled, "job")} cancelled.
        </>
      )}
    </p>
  );
}

/** The scheduled backup's last success (docs/backup.md): its time, file and size. */
function BackupLine({ backup }: { backup: StorageSettings["backup"] }) {
  if (!backup.scheduled && !backup.last)
    return (
      <p className="muted small" data-testid="last-backup">
        No scheduled backup: set <code>STORAGE_BACKUP_DIR</code> for one a day, or download one (admins:{" "}
        <code>GET /api/v1/backup</code>).
      </p>
    );
  return (
    <p className="muted small" data-testid="last-backup">
      {backup.last ? (
        <>
          Last backup <RelativeTime value={backup.last.at} />: <code>{backup.last.file}</code>,{" "}
          <Bytes value={backup.last.bytes} /> in {(backup.last.ms / 1000).toFixed(1)} s
        </>
      ) : (
        "No scheduled backup has succeeded yet"
      )}
      {backup.keep ? <>; the newest {backup.keep} are kept.</> : "."}
    </p>
  );
}

const tableSizeColumns: ColumnDef<StorageSettings["tables"][number]>[] = [
  column("table", "Table", (t) => <code>{t.table}</code>),
  column("size", "Size", (t) => <Bytes value={t.bytes} />, { className: "num" }),
  column(
    "rows",
    "Rows",
    (t) =>
      t.exact ? (
        formatCount(t.rows)
      ) : (
        <>
          ≈ {formatCount(t.rows)}
          <div className="muted small">
            {t.estimatedAt ? (
              <>
                estimate, analysed <RelativeTime value={t.estimatedAt} />
              </>
            ) : (
              "estimate, not analysed yet"
            )}
          </div>
        </>
      ),
    { className: "num", cell: (t) => ({ "data-exact": t.exact }) },
  ),
  column("partitions", "Partitions", (t) => t.partitions || "", { className: "num" }),
];

/**
 * Settings: how long data is kept, where expired history ends, the reporter's rollout (admins), and what the
 * product's tables take on disk.
 */
export function StorageView({
  settings,
  rollout,
}: {
  settings: StorageSettings;
  /** The reporter's rollout: for admins only, null for viewers. */
  rollout: ReporterRolloutView | null;
}) {
  const last = settings.lastMaintenance;
  return (
    <div className="stack">
      <PageHeader
        title="Settings"
        sub={<>Retention of stored data and the size of the dashboard&apos;s own database.</>}
      />
      <div className="grid-2">
        <Panel title="Retention">
          <RetentionEditor retention={settings.retention} />
        </Panel>
        <Panel title="Maintenance">
          <p>
            Raw reports kept from{" "}
            {settings.horizons.raw ? <time>{settings.horizons.raw.slice(0, 10)}</time> : "the first report"}; charts
            from {settings.horizons.rollups ?? "the first report"}.
          </p>
          {last?.ran ? (
            <p className="muted small" data-testid="last-maintenance">
              Last run {last.at} ({last.ms} ms): {formatCountOf(last.partitionsCreated.length, "partition")} created,{" "}
              {last.partitionsDropped.length} dropped,{" "}
              {formatCountOf(
                Object.values(last.deleted).reduce((s, n) => s + n, 0),
                "expired row",
              )}{" "}
              deleted.
            </p>
          ) : (
            <p className="muted small">
              Not run yet: it runs shortly after the app starts, then hourly (or <code>npm run maintenance</code>).
            </p>
          )}
          <CoderSyncLine sync={settings.coderSync} />
          <BackupLine backup={settings.backup} />
        </Panel>
      </div>
      {rollout ? (
        <Panel title="Reporter rollout" actions={<ExportLink path={exportPaths.reporterVersions()} />}>
          <ReporterRolloutPanel view={rollout} />
        </Panel>
      ) : null}
      <Panel
        title={
          <>
            Database tables · <Bytes value={settings.totalBytes} />
          </>
        }
        actions={<ExportLink path={exportPaths.tableSizes()} title="Download every table's size and rows as CSV" />}
      >
        <p className="muted small">
          Rows are counted exactly in tables up to <Bytes value={settings.exactCountMaxBytes} />; larger tables show
          PostgreSQL&apos;s estimate from its last analysis of the table, and when that was.
        </p>
        <DataTable
          data={settings.tables}
          columns={tableSizeColumns}
          rowId={(t) => t.table}
          testId="table-sizes"
          stacked={3}
          wrap={false}
        />
      </Panel>
    </div>
  );
}
