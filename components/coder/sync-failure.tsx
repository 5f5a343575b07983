import { RelativeTime } from "@/components/ui/time";

/** A sync from Coder that failed: when, Coder's error, and when one last went through (the figures shown are its). */
export function SyncFailure({ at, error, succeededAt }: { at: string; error: string; succeededAt: string | null }) {
  return (
    <>
      The last sync from Coder failed <RelativeTime value={at} />: {error}
      {succeededAt ? (
        <>
          {" "}
          (last success <RelativeTime value={succeededAt} />)
        </>
      ) : null}
    </>
  );
}
