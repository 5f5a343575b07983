"use client";

import { useState } from "react";
import { useIsAdmin } from "@/components/auth/caller-context";
import { Button } from "@/components/ui/button";
import { ErrorPanel } from "@/components/ui/error-panel";
import { Panel } from "@/components/ui/panel";
import { RelativeTime } from "@/components/ui/time";
import type { SenderChannel } from "@/lib/notify/types";
import type { ChannelState } from "@/lib/services/notification-log";
import { useSendNoticeTest } from "@/lib/query/use-notification-mutations";
import { formatCount } from "@/lib/format/numbers";

const TITLES = { email: "Email", webhook: "Webhook", "coder-inbox": "Coder Inbox" } as const;

/** "Send a test": one message at once on the channel; says what the channel answered. */
function TestButton({ channel }: { channel: SenderChannel }) {
  const send = useSendNoticeTest();
  const [sentTo, setSentTo] = useState<string | null>(null);
  return (
    <div className="stack tight">
      <div className="row">
        <Button
          pending={send.isPending}
          data-testid={`test-${channel}`}
          onClick={() => {
            setSentTo(null);
            send.mutate({ channel }, { onSuccess: (o) => setSentTo(o.to ?? "the webhook") });
          }}
        >
          Send a test
        </Button>
        {sentTo ? (
          <span className="small" role="status" data-testid={`test-${channel}-sent`}>
            Sent to {sentTo}.
          </span>
        ) : null}
      </div>
      {send.isError ? <ErrorPanel title="The test was not sent" error={send.error} /> : null}
    </div>
  );
}

function ChannelCard({ c }: { c: ChannelState }) {
  const isAdmin = useIsAdmin();
  return (
    <Panel title={TITLES[c.channel]} className="stack tight">
      <dl className="kv phone-stack" data-testid={`channel-${c.channel}`}>
        <dt>State</dt>
        <dd>
          {c.configured ? <span className="badge info">configured</span> : <span className="badge">off</span>}{" "}
          <span className="small muted">
            {c.configured ? "from" : "set"}{" "}
            {c.variables.map((v) => (
              <code key={v}>{v} </code>
            ))}
          </span>
          {c.signed === false && c.configured ? <span className="small muted"> (unsigned)</span> : null}
        </dd>
        <dt>Last success</dt>
        <dd>
          <RelativeTime value={c.lastSuccessAt} />
        </dd>
        <dt>Last error</dt>
        <dd>
          {c.lastError ? (
            <>
              <RelativeTime value={c.lastErrorAt} />: <span className="critical-text">{c.lastError}</span>
            </>
          ) : (
            "—"
          )}
        </dd>
        <dt>Pending</dt>
        <dd data-testid={`pending-${c.channel}`}>{formatCount(c.pending)}</dd>
      </dl>
      {c.channel === "coder-inbox" ? (
        <p className="small muted">
          Delivered by each workspace&apos;s own reporter, as its owner, while the workspace runs: a stopped
          workspace&apos;s notices wait for it to start.
        </p>
      ) : isAdmin && c.configured ? (
        <TestButton channel={c.channel} />
      ) : null}
    </Panel>
  );
}

/** Each channel: configured or not (by which variables; their values are secrets, never shown), what it did last. */
export function ChannelsPanel({ channels }: { channels: ChannelState[] }) {
  return (
    <div className="grid-2">
      {channels.map((c) => (
        <ChannelCard key={c.channel} c={c} />
      ))}
    </div>
  );
}
