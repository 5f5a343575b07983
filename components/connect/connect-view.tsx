import { Panel } from "@/components/ui/panel";
import { CopyButton } from "./copy-button";
import { RotateKeyButton } from "./rotate-key-button";

export type ConnectInfo = {
  dashboardUrl: string;
  /** Null for viewers: only admins see the key. */
  enrollmentKey: string | null;
  keySource: "environment" | "generated";
  /** The registry module's block: the way to add the reporter. */
  moduleBlock: string;
  /** The same without the registry, as plain Terraform. */
  snippet: string;
};

/** "Connect workspaces": where reporters send to, the key they enroll with, the module block and the snippet. */
export function ConnectView({ info }: { info: ConnectInfo }) {
  return (
    <div className="stack">
      <div className="page-head">
        <div>
          <h1>Connect workspaces</h1>
          <p className="sub">
            Add the reporter to your Coder templates. Each workspace enrolls with the key below, then reports its
            storage on a schedule.
          </p>
        </div>
      </div>
      <div className="grid-2">
        <Panel title="Dashboard URL" actions={<CopyButton text={info.dashboardUrl} />}>
          <code data-testid="dashboard-url">{info.dashboardUrl}</code>
          <p className="muted small">Taken from this request. Workspaces must be able to reach it.</p>
        </Panel>
        {info.enrollmentKey === null ? (
          <Panel title="Enrollment key">
            <p className="muted small" data-testid="enrollment-key-hidden">
              Only admins can see the enrollment key. Ask one for it.
            </p>
          </Panel>
        ) : (
          <Panel
            title="Enrollment key"
            actions={
              <>
                <CopyButton text={info.enrollmentKey} />
                {info.keySource === "generated" ? <RotateKeyButton /> : null}
              </>
            }
          >
            <code data-testid="enrollment-key" style={{ overflowWrap: "anywhere" }}>
              {info.enrollmentKey}
            </code>
            <p className="muted small">
              {info.keySource === "environment"
                ? "Set by STORAGE_ENROLLMENT_KEY."
                : "Generated at first start and kept in the database; set STORAGE_ENROLLMENT_KEY to choose your own."}{" "}
              Keep it in a Coder secret or template variable.
            </p>
          </Panel>
        )}
      </div>
      <Panel
        title="Add the module to your template"
        actions={<CopyButton text={info.moduleBlock} label="Copy module" />}
      >
        <p className="muted small">
          The storage-reporter module from the Coder registry runs the reporter at the workspace&apos;s start and every
          30 minutes (it assumes a <code>coder_agent</code> named <code>main</code>). Set the{" "}
          <code>storage_enrollment_key</code> variable to the key above and push the template.
        </p>
        <pre className="snippet" data-testid="module-block">
          {info.moduleBlock}
        </pre>
        <p className="muted small">
          Where the template cannot fetch it from the registry, copy the module (<code>deploy/coder</code> in the
          dashboard&apos;s source) beside the template, set <code>source = &quot;./storage-reporter&quot;</code> and
          leave out <code>version</code>.
        </p>
      </Panel>
      <Panel
        title="Or, without the registry: plain Terraform"
        actions={<CopyButton text={info.snippet} label="Copy snippet" />}
      >
        <details>
          <summary className="muted small">
            The same schedule as a <code>coder_script</code> with <code>coder_env</code> values, for templates that
            cannot reach registry.coder.com
          </summary>
          <pre className="snippet" data-testid="template-snippet">
            {info.snippet}
          </pre>
        </details>
      </Panel>
    </div>
  );
}
