import "server-only";
import { parse } from "csv-parse/sync";
import { knownOwners, replaceTeams } from "@/lib/db/queries/teams";
import { BadRequestError } from "@/lib/errors";
import { withTransaction, type ChangeContext } from "./transaction";

/** What an upload did: the teams and owners it stored, and the owners no workspace here has (stored too). */
export type TeamUpload = { teams: number; owners: number; unknownOwners: string[] };

const MAX_ROWS = 100_000;

/** The file's rows as { owner, team }, or 400 `malformed_mapping` saying what is wrong (and nothing changed). */
function readMapping(text: string): { owner: string; team: string }[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, {
      columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
      skip_empty_lines: true,
      bom: true,
      trim: true,
    });
  } catch (err) {
    throw new BadRequestError(`The file is not CSV: ${(err as Error).message}`, undefined, "malformed_mapping");
  }
  if (rows.length === 0 || !("owner" in rows[0]) || !("team" in rows[0])) {
    throw new BadRequestError(
      "The file needs a header row with the columns owner and team, and rows under it.",
      undefined,
      "malformed_mapping",
    );
  }
  if (rows.length > MAX_ROWS)
    throw new BadRequestError(`The file has more than ${MAX_ROWS} rows.`, undefined, "malformed_mapping");
  const empty = rows.findIndex((r) => !r.owner || !r.team);
  if (empty >= 0) {
    throw new BadRequestError(`Row ${empty + 2} has no owner or no team.`, undefined, "malformed_mapping");
  }
  return rows.map((r) => ({ owner: r.owner, team: r.team }));
}

/**
 * An admin's owner → team mapping, for a dashboard without a Coder sync: replaces the uploaded teams whole, in one
 * transaction with its audit entry. A malformed file changes nothing; owners no workspace here has are named back,
 * and kept (their workspaces may report later).
 */
export async function uploadTeams(ctx: ChangeContext, text: string): Promise<TeamUpload> {
  const rows = readMapping(text);
  const byTeam = new Map<string, string[]>();
  for (const r of rows) byTeam.set(r.team, [...(byTeam.get(r.team) ?? []), r.owner]);
  const owners = [...new Set(rows.map((r) => r.owner.toLowerCase()))];
  return withTransaction(ctx, async ({ tx, now, audit }) => {
    const known = await knownOwners(tx);
    const teams = [...byTeam].map(([name, members]) => ({
      id: `upload:${name}`,
      organizationId: null,
      name,
      displayName: name,
      members,
    }));
    await replaceTeams(tx, "upload", teams, now);
    const unknownOwners = owners.filter((o) => !known.has(o)).sort();
    await audit({
      action: "teams.uploaded",
      details: { teams: teams.length, owners: owners.length, unknownOwners: unknownOwners.length },
    });
    return { teams: teams.length, owners: owners.length, unknownOwners };
  });
}
