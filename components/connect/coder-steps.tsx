import type { CoderSyncState } from "@/lib/db/queries/coder-sync";
import { formatCount, formatCountOf } from "@/lib/format/numbers";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/time";

export type CoderConnectInfo = {
  /** CODER_URL, or null when unset. */
  coderUrl: string | null;
  /** CODER_URL and CODER_SESSION_TOKEN are set, and the last sync (null before one ran). */
  sync: { configured: boolean; last: CoderSyncState | null };
  /** The OAuth2 app's settings are set; the callback URL to register; who signed in with Coder so far. */
  signIn: { configured: boolean; callbackUrl: string; people: number; latestAt: string | null };
};

function Proof({ ok, testId, children }: { ok: boolean | null; testId: string; children: React.ReactNode }) {
  const tone = ok === null ? "" : ok ? " ok" : " warn";
  return (
    <p className={`notice small${tone}`} data-testid={testId} role="status">
      {children}
    </p>
  );
}

function SyncProof({ info }: { info: CoderConnectInfo["sync"] }) {
  const last = info.last;
  if (last?.error)
    return (
      <Proof ok={false} testId="coder-sync-proof">
        <strong>The last sync failed</strong> <RelativeTime value={last.finishedAt ?? last.startedAt} />: {last.error}
        {last.succeededAt ? (
          <>
            {" "}
            (the last success: <RelativeTime value={last.succeededAt} />)
          </>
        ) : null}
      </Proof>
    );
  if (last?.succeededAt)
    return (
      <Proof ok testId="coder-sync-proof">
        <strong>Syncing.</strong> The last sync, <RelativeTime value={last.succeededAt} />, listed{" "}
        {formatCountOf(last.listed, "workspace")} in Coder ({formatCount(last.added)} new, {formatCount(last.deleted)}{" "}
        deleted). The overview says how many of them report.
      </Proof>
    );
  return (
    <Proof ok={null} testId="coder-sync-proof">
      {info.configured ? (
        <>
          <strong>Set, no sync yet.</strong> The first runs within a minute of the start.
        </>
      ) : (
        <>
          <strong>Not set up.</strong> Until it is, the dashboard knows a workspace only by its reports: it cannot tell
          a stopped workspace from a broken reporter, nor see deleted ones.
        </>
      )}
    </Proof>
  );
}

/** The Coder sync: what it brings, the token and its least rights, the settings, and its last run as the proof. */
function CoderSync({ info }: { info: CoderConnectInfo }) {
  return (
    <Panel title="Sync workspaces from Coder" id="coder-sync">
      <p className="small">
        Coder says which workspaces exist, which run, which are dormant or deleted: deleted ones leave the totals, and a
        silent workspace is told stopped (expected) from running (a broken reporter).
      </p>
      <ol className="steps small">
        <li>
          Make a Coder user for the dashboard with the site-wide <strong>Template Admin</strong> role (the least it
          needs, in every organization: <em>Workspace: read</em>, <em>Dormant workspace: read</em>,{" "}
          <em>Template: read</em>; the sync only reads).
        </li>
        <li>
          Signed in as that user, make its token:
          <pre className="snippet">coder tokens create --name storage-dashboard --lifetime 8760h</pre>
        </li>
        <li>
          Set the dashboard&apos;s environment and restart it:
          <pre className="snippet" data-testid="coder-sync-env">
            {`CODER_URL=${info.coderUrl ?? "https://coder.example.com"}\nCODER_SESSION_TOKEN=<the token>`}
          </pre>
        </li>
      </ol>
      <SyncProof info={info.sync} />
    </Panel>
  );
}

/** Sign in with Coder: Coder's OAuth2 provider, the app to register and its callback, and who signed in so far. */
function CoderSignIn({ info }: { info: CoderConnectInfo }) {
  const s = info.signIn;
  return (
    <Panel title="Sign in with Coder" id="coder-sign-in">
      <p className="small">
        People sign in with their Coder account: Coder&apos;s owners as admins, template and user admins and auditors as
        viewers, everyone else as a member who sees their own workspaces (<code>CODER_ADMIN_ROLES</code>,{" "}
        <code>CODER_VIEWER_ROLES</code>).
      </p>
      <ol className="steps small">
        <li>
          Turn on Coder&apos;s OAuth2 provider: <code>CODER_OAUTH2_PROVIDER_ENABLE=true</code> from Coder v2.38 (
          <code>CODER_EXPERIMENTS=oauth2</code> before).
        </li>
        <li>
          As a Coder owner, under <strong>Deployment Settings → OAuth2 Applications</strong>, add an application with
          this callback URL, then <em>Generate secret</em>:
          <pre className="snippet" data-testid="coder-callback-url">
            {s.callbackUrl}
          </pre>
        </li>
        <li>
          Set the dashboard&apos;s environment and restart it:
          <pre className="snippet">
            {`CODER_URL=${info.coderUrl ?? "https://coder.example.com"}\nCODER_OAUTH2_CLIENT_ID=<the application's id>\nCODER_OAUTH2_CLIENT_SECRET=<its secret>\nBETTER_AUTH_URL=${new URL(s.callbackUrl).origin}`}
          </pre>
        </li>
      </ol>
      {s.people > 0 ? (
        <Proof ok testId="coder-sign-in-proof">
          <strong>Working.</strong> {formatCountOf(s.people, "person", "people")} signed in with Coder
          {s.latestAt ? (
            <>
              , the latest <RelativeTime value={s.latestAt} />
            </>
          ) : null}
          .
        </Proof>
      ) : (
        <Proof ok={null} testId="coder-sign-in-proof">
          {s.configured ? (
            <>
              <strong>Set, nobody signed in with Coder yet.</strong> The sign-in page offers &quot;Sign in with
              Coder&quot;: the first person to use it shows here.
            </>
          ) : (
            <>
              <strong>Not set up.</strong> People sign in with a password (or your OpenID provider) meanwhile.
            </>
          )}
        </Proof>
      )}
    </Panel>
  );
}

/** After the reporter, the rest of the way in: the Coder sync and Sign in with Coder, each with its proof. */
export function CoderSteps({ info }: { info: CoderConnectInfo }) {
  return (
    <>
      <CoderSync info={info} />
      <CoderSignIn info={info} />
    </>
  );
}
