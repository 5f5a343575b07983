import type { VolumeSummary } from "@/lib/db/queries/volume";
import { formatCount } from "@/lib/format/numbers";
import { Bytes } from "@/components/ui/bytes";
import { stackedTable } from "@/components/ui/stacked-table";

/**
 * The home volume in df's own columns (df -B1 and df -i), so an admin can hold it against df on the workspace.
 * Use% is Used ÷ (Used + Avail) rounded up, as df computes it: space reserved for root is in neither.
 * A plain <table>, not DataTable: with no inode count reported, its Inodes row is one cell across four columns.
 */
export function VolumeTable({ volume }: { volume: VolumeSummary }) {
  const i = volume.inodes;
  return (
    <div className="table-wrap" style={{ marginBottom: 12 }} title="As df -B1 and df -i show it on the workspace">
      <table {...stackedTable(4)} data-testid="volume-table">
        <thead>
          <tr>
            <th></th>
            <th className="num">Size</th>
            <th className="num">Used</th>
            <th className="num">Avail</th>
            <th className="num">Use%</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Space</td>
            <td className="num">
              <Bytes value={volume.sizeBytes} />
            </td>
            <td className="num">
              <Bytes value={volume.usedBytes} />
            </td>
            <td className="num">
              <Bytes value={volume.availBytes} />
            </td>
            <td className="num">
              <span className={volume.full ? "badge critical" : undefined} data-testid="volume-use-percent">
                {volume.usePercent}%
              </span>
            </td>
          </tr>
          <tr>
            <td>Inodes</td>
            {i ? (
              <>
                <td className="num">{formatCount(i.total)}</td>
                <td className="num">{formatCount(i.used)}</td>
                <td className="num">{formatCount(i.free)}</td>
                <td className="num">
                  <span className={volume.inodesFull ? "badge critical" : undefined}>{i.usePercent}%</span>
                </td>
              </>
            ) : (
              <td colSpan={4} className="muted small">
                not reported (reporter before 0.2, or a file system without a fixed inode count)
              </td>
            )}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
