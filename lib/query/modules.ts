import { queryOptions } from "@tanstack/react-query";
import type { ModuleDetail } from "@/lib/db/queries/modules";
import { fetchJson, withQuery } from "./fetch-json";
import { modulePath } from "@/lib/validations/modules";
import { rangeParams, type RangeState } from "@/lib/validations/range";

export const moduleKeys = {
  all: ["modules"] as const,
  detail: (key: string, range: RangeState) => [...moduleKeys.all, "detail", key, rangeParams(range)] as const,
};

/** `key` is the module root's key, "<namespace>/<module>". */
export const moduleDetailOptions = (key: string, range: RangeState) =>
  queryOptions({
    queryKey: moduleKeys.detail(key, range),
    queryFn: ({ signal }) =>
      fetchJson<ModuleDetail>(withQuery(`/api/v1${modulePath(key)}`, rangeParams(range)), { signal }),
  });
