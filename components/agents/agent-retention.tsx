import { Bytes } from "@/components/ui/bytes";
import { Panel } from "@/components/ui/panel";
import { PolicyLink } from "@/components/cleanup/cleanup-link";
import { RETENTION_COMPARE_DAYS, retentionAdvice } from "@/lib/catalog/retention";
import { recipeForFinding } from "@/lib/cleanup/links";
import type { RetentionShare } from "@/lib/db/queries/agent-retention";
import { formatCountOf } from "@/lib/format/numbers";

/**
 * The agent's own retention across the fleet (each setting and how many workspaces have it) beside the data
 * those workspaces hold past 30 days, and the durable fix.
 */
export function AgentRetentionPanel({ agent, shares }: { agent: string; shares: readonly RetentionShare[] }) {
  if (shares.length === 0) return null;
  return (
    <Panel title="Its own retention">
      <ul className="list" data-testid="agent-retention">
        {shares.map((s) => (
          <li key={s.text}>
            <span className={s.known ? "grow" : "grow muted"}>{s.text}</span>
            <span className="muted small">{formatCountOf(s.workspaces, "workspace")}</span>
            <span className="num" title={`Data older than ${RETENTION_COMPARE_DAYS} days in those workspaces`}>
              <Bytes value={s.olderBytes} /> older than {RETENTION_COMPARE_DAYS} days
            </span>
          </li>
        ))}
      </ul>
      <p className="muted small">
        Beside each setting, the data past {RETENTION_COMPARE_DAYS} days in the workspaces that have it, counted per
        file as the agent&apos;s own retention would see it: not what a cleanup frees, which is Reclaimable above.
      </p>
      <p className="small">
        <strong>Durable fix:</strong> {retentionAdvice(agent)}{" "}
        <PolicyLink recipe={recipeForFinding({ ruleId: "agent-retention", agent })} />
      </p>
    </Panel>
  );
}
