"use client";

import { subDays } from "date-fns";
import { useSearchParams } from "next/navigation";
import { RANGE_OPTIONS, parseRange, rangeEntries, type RangeState } from "@/lib/validations/range";
import { useSetSearchParams } from "./use-set-search-params";
import { TextField } from "./field";
import { Button } from "./button";

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}
function daysAgoUtc(n: number): string {
  return subDays(new Date(), n).toISOString().slice(0, 10);
}

/** 7 d / 30 d / 90 d / custom, kept in the URL (?range=…&from=…&to=…). */
export function RangePicker() {
  const searchParams = useSearchParams();
  const setParams = useSetSearchParams();
  const current = parseRange(searchParams);
  const set = (state: RangeState) => setParams(rangeEntries(state));
  return (
    <div className="row" data-testid="range-picker">
      <div className="segmented" role="group" aria-label="Time range">
        {RANGE_OPTIONS.map((o) => (
          <Button
            key={o.key}
            variant="bare"
            aria-pressed={current.range === o.key}
            onClick={() =>
              set(
                o.key === "custom"
                  ? { range: "custom", from: current.from ?? daysAgoUtc(13), to: current.to ?? todayUtc() }
                  : { range: o.key },
              )
            }
          >
            {o.label}
          </Button>
        ))}
      </div>
      {current.range === "custom" ? (
        <>
          <TextField
            label="From"
            type="date"
            value={current.from ?? ""}
            max={current.to ?? todayUtc()}
            onValue={(from) => from && set({ ...current, from })}
          />
          <TextField
            label="To"
            type="date"
            value={current.to ?? ""}
            min={current.from}
            max={todayUtc()}
            onValue={(to) => set({ ...current, to: to || undefined })}
          />
        </>
      ) : null}
    </div>
  );
}
