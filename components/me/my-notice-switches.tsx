"use client";

import { useQuery } from "@tanstack/react-query";
import { KIND_LABELS } from "@/components/notifications/notice-badges";
import { CheckField } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { OPTIONAL_KINDS, NOTICE_CHANNELS, type NoticeKind } from "@/lib/notify/types";
import { myNoticePreferencesOptions } from "@/lib/query/me";
import { useNoticePreferences } from "@/lib/query/use-owner-mutations";

const CHANNEL_LABELS = { email: "Email", webhook: "Team chat (webhook)", "coder-inbox": "Coder Inbox" } as const;

/**
 * Which notices the owner receives, per channel: the optional kinds can be turned off (as an email's unsubscribe
 * link does); a full volume and a cleanup ahead always go, since both can cost the owner data.
 */
export function MyNoticeSwitches() {
  const query = useQuery(myNoticePreferencesOptions());
  const change = useNoticePreferences();
  const prefs = query.data;
  return (
    <Panel title="What you hear" id="notice-switches">
      {query.isError ? <p className="error-message">{query.error.message}</p> : null}
      {prefs ? (
        <div className="stack snug" data-testid="notice-switches">
          {/* Coder Inbox only where one of the owner's workspaces can deliver to it. */}
          {NOTICE_CHANNELS.filter((c) => c !== "coder-inbox" || prefs.coderInbox).map((channel) => (
            <fieldset key={channel} className="stack snug">
              <legend className="small">{CHANNEL_LABELS[channel]}</legend>
              {OPTIONAL_KINDS.map((kind) => (
                <CheckField
                  key={kind}
                  name={`${channel}-${kind}`}
                  label={KIND_LABELS[kind]}
                  // The switch as asked until the server's answer is read back (the mutation stays pending
                  // until then), so it turns at once and never flickers back.
                  checked={
                    (change.isPending ? change.variables.channels[channel]?.[kind] : undefined) ??
                    prefs.channels[channel][kind]
                  }
                  disabled={change.isPending}
                  onChecked={(on) => change.mutate({ channels: { [channel]: { [kind]: on } } })}
                />
              ))}
            </fieldset>
          ))}
          <p className="muted small">
            Always sent: {prefs.alwaysSent.map((k) => KIND_LABELS[k as NoticeKind]).join(" and ")}.
          </p>
          {change.isError ? <p className="error-message">{change.error.message}</p> : null}
        </div>
      ) : null}
    </Panel>
  );
}
