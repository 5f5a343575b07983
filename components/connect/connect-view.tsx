import { Panel } from "@/components/ui/panel";
import { CopyButton } from "./copy-button";
import { FirstReport } from "./first-report";
import { RotateKeyButton } from "./rotate-key-button";
import { PageHeader } from "@/components/ui/page-header";
import { CoderSteps, type CoderConnectInfo } from "./coder-steps";

export type ConnectInfo = {
  dashboardUrl: string;
  /** Null for viewers: only admins see the key. */
  enrollmentKey: string | null;
  keySource: "environment" | "generated";
  /** Why workspaces cannot reach dashboardUrl (a loopback address), or null. */
  urlWarning: string | null;
  /** The block to add: by the registry protocol over https, by the archive's URL over plain http. */
  moduleBlock: string;
  /** The other ways: the archive's URL (over https, where the registry is offered first) and a copy. */
  archiveBlock: string | null;
  copy: { commands: string; block: string };
  pushCommand: string;
  coder: CoderConnectInfo;
};

const https = (url: string) => url.startsWith("https:");

/**
 * "Connect workspaces": what a workspace needs, where reporters send to, the key they enroll with, the module to
 * add and the push that makes it run, then the first report as it arrives.
 */
export function ConnectView({ info }: { info: ConnectInfo }) {
  return (
    <div className="stack">
      <PageHeader
        title="Connect workspaces"
        sub={
          <>
            Three parts, each with its proof: the reporter in your Coder templates (each workspace enrolls with the key
            below, then reports its storage on a schedule), the <a href="#coder-sync">workspace sync from Coder</a> and{" "}
            <a href="#coder-sign-in">Sign in with Coder</a>.
          </>
        }
      />
      <Panel title="Before you start">
        <ul className="small" data-testid="prerequisites">
          <li>
            A Coder template you can push (<code>coder templates push</code>) with a <code>coder_agent</code> named{" "}
            <code>main</code>.
          </li>
          <li>
            Workspaces reach this dashboard at the URL below, directly or through the proxy in their{" "}
            <code>https_proxy</code>/<code>http_proxy</code> (the reporter honours <code>no_proxy</code> as curl does).
          </li>
          <li>
            The workspace image has <code>bash</code> and <code>curl</code> or <code>wget</code>. Node.js 18 or newer is
            used where installed; where not (Coder&apos;s own base image), the module fetches the Node.js runtime this
            dashboard serves, about 41 MB once, which needs x86_64 or aarch64, glibc 2.28 or newer (not Alpine),{" "}
            <code>gzip</code> and <code>sha256sum</code>.
          </li>
          <li>The home folder is on the workspace&apos;s persistent volume, as in Coder&apos;s templates.</li>
        </ul>
      </Panel>
      <div className="grid-2">
        <Panel title="Dashboard URL" actions={<CopyButton text={info.dashboardUrl} />}>
          <code data-testid="dashboard-url">{info.dashboardUrl}</code>
          {info.urlWarning ? (
            <p className="notice warn small" data-testid="url-warning" role="alert">
              {info.urlWarning}
            </p>
          ) : (
            <p className="muted small">Taken from this request. Workspaces must be able to reach it.</p>
          )}
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
            <code data-testid="enrollment-key" className="wrap-anywhere">
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
      <Panel title="The reporter, in three steps">
        <ol className="steps">
          <li>
            <p>
              <strong>Add the module to the template.</strong>{" "}
              {https(info.dashboardUrl)
                ? "This dashboard serves it by Terraform's module registry protocol: terraform init fetches it from here, and it always matches this dashboard's version."
                : "This dashboard is served over plain http, and Terraform asks a module registry over https only: the block fetches the module's archive by its URL instead."}
            </p>
            <div className="row">
              <div className="spacer" />
              <CopyButton text={info.moduleBlock} label="Copy module" />
            </div>
            <pre className="snippet" data-testid="module-block">
              {info.moduleBlock}
            </pre>
            {https(info.dashboardUrl) ? null : (
              <p className="notice warn small" data-testid="http-warning">
                Over http, the machine that runs Terraform trusts the network with the code it runs in every workspace.
                Serve the dashboard over https (behind a reverse proxy with a certificate) to use the registry protocol
                and keep that code safe in transit.
              </p>
            )}
          </li>
          <li>
            <p>
              <strong>Push the template</strong> with the key in its variable (the first push; later pushes keep it):
            </p>
            <pre className="snippet" data-testid="push-command">
              {info.pushCommand}
            </pre>
          </li>
          <li>
            <p>
              <strong>Start or restart a workspace</strong> of the template. It reports at start and every 30 minutes.
            </p>
            <FirstReport />
          </li>
        </ol>
      </Panel>
      <CoderSteps info={info.coder} />
      <Panel title="Other ways to add the module">
        <details>
          <summary className="muted small">
            By the archive&apos;s URL, or copied into the template (when the machine that runs Terraform cannot reach
            this dashboard, or every workspace build must not depend on it)
          </summary>
          <div className="stack">
            {info.archiveBlock ? (
              <>
                <p className="small">
                  By the archive&apos;s URL: no registry, no version (it is always this dashboard&apos;s).
                </p>
                <pre className="snippet" data-testid="archive-block">
                  {info.archiveBlock}
                </pre>
              </>
            ) : null}
            <p className="small">
              Copied: the module becomes part of the template, so a workspace build never needs the dashboard. Copy it
              again after upgrading the dashboard.
            </p>
            <pre className="snippet" data-testid="copy-commands">
              {info.copy.commands}
            </pre>
            <pre className="snippet" data-testid="copy-block">
              {info.copy.block}
            </pre>
          </div>
        </details>
      </Panel>
    </div>
  );
}
