import "server-only";
import { Gauge, Registry } from "prom-client";
import type { Db } from "@/lib/db";
import { getRestartRisk } from "@/lib/db/queries/restart-risk";
import { FLEET } from "@/lib/db/scope";

// Workspaces that lose agent data at a restart (their home, or an agent's folder, on storage lost at a stop), as
// the "Lost at restart" page counts them, by template: the template is nearly always the cause and the fix.

export async function restartRegistry(db: Db): Promise<Registry> {
  const r = new Registry();
  const g = new Gauge({
    name: "coder_storage_workspaces_lost_at_restart",
    help: "Workspaces that lose agent data when they stop (home or an agent's folder not on a persistent volume), by template.",
    labelNames: ["template"] as const,
    registers: [r],
  });
  for (const t of (await getRestartRisk(db, FLEET)).templates) g.set({ template: t.template ?? "" }, t.atRisk.length);
  return r;
}
