"use client";

import { useState } from "react";
import type { OwnerOffer } from "@/lib/services/my-storage";
import type { OwnerPreview } from "@/lib/services/owner-cleanup";
import { formatCountOf } from "@/lib/format/numbers";
import { useOwnerPreview, useOwnerRun } from "@/lib/query/use-owner-mutations";
import { Bytes } from "@/components/ui/bytes";
import { Button } from "@/components/ui/button";

/**
 * One thing the owner may run: the recipe's figure from the latest report, Preview (the figure as the run would
 * confirm it, with the Keeps it skips), then one button that moves exactly that to the trash. No admin: the run
 * is the owner's own, restorable from the trash for its days.
 */
export function OwnerOfferItem({ offer }: { offer: OwnerOffer }) {
  const [seen, setSeen] = useState<OwnerPreview | null>(null);
  const preview = useOwnerPreview({ onSuccess: setSeen });
  const run = useOwnerRun();
  const target = { workspaceId: offer.workspaceId, recipe: offer.recipe };
  const error = preview.error ?? run.error;
  return (
    <li className="stacked" data-testid={`offer-${offer.recipe}`}>
      <div className="row">
        <strong className="grow">{offer.title}</strong>
        <span>
          {offer.estimate ? "about " : ""}
          <Bytes value={offer.bytes} /> · {formatCountOf(offer.units, "unit")}
        </span>
        {seen ? null : (
          <Button size="small" pending={preview.isPending} onClick={() => preview.mutate(target)}>
            Preview
          </Button>
        )}
      </div>
      {seen && !run.data ? (
        <div className="stack snug" role="group" aria-label={`Preview of ${offer.title}`}>
          <p className="small">
            Moves {formatCountOf(seen.units, "unit")} (<Bytes value={seen.bytes} />) to the workspace&apos;s trash:
            restorable here for {seen.trashDays} days, then emptied. The space comes back once the trash is emptied.
            {seen.protectedUnits > 0 ? ` ${formatCountOf(seen.protectedUnits, "protected unit")} stay.` : ""}
          </p>
          {seen.kept.length ? (
            <p className="small" data-testid="preview-kept">
              Kept (never touched): {seen.kept.map((k) => k.path).join(", ")}
            </p>
          ) : null}
          <div className="row">
            <Button
              variant="primary"
              pending={run.isPending}
              disabled={seen.bytes === 0}
              onClick={() => run.mutate({ ...target, confirmBytes: seen.bytes })}
            >
              Move <Bytes value={seen.bytes} /> to the trash
            </Button>
            <Button onClick={() => setSeen(null)}>Not now</Button>
          </div>
        </div>
      ) : null}
      {run.data ? (
        <p className="small" role="status" data-testid="offer-queued">
          Queued: your workspace&apos;s reporter moves it when it next calls in, and it shows in your trash below.
        </p>
      ) : null}
      {error ? (
        <p className="error-message" role="alert">
          {error.message}
        </p>
      ) : null}
    </li>
  );
}
