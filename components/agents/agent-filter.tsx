import { Select } from "@/components/ui/select";
import { AGENT_OPTIONS } from "./agent-label";

const CHOICES = [{ value: "", label: "All agents" }, ...AGENT_OPTIONS.map((a) => ({ value: a.id, label: a.label }))];

/** A list's "Filter by agent" select: any agent (""), or one catalog agent by id. */
export function AgentFilter({ value, onValue }: { value: string; onValue: (agent: string) => void }) {
  return <Select aria-label="Filter by agent" value={value} options={CHOICES} onValue={onValue} />;
}
