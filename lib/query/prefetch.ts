import { dehydrate, type DehydratedState, type QueryKey } from "@tanstack/react-query";
import { notFound } from "next/navigation";
import { makeQueryClient } from "./query-client";

/** What a JSON round trip makes of a value: Dates become strings, undefined fields vanish. */
export function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

type Prefetch = { queryKey: QueryKey; load: () => Promise<unknown> };

/**
 * Server side: runs each loader (a domain query function called with the database) under the same key the
 * client's queryOptions use, and returns the dehydrated cache for <HydrationBoundary>. A loader that fails
 * is left out, so the client fetches it again and shows the API's error panel.
 */
export async function prefetchAll(items: Prefetch[]): Promise<DehydratedState> {
  const client = makeQueryClient();
  await Promise.all(
    items.map((item) =>
      client.prefetchQuery({ queryKey: item.queryKey, queryFn: async () => asJson(await item.load()) }),
    ),
  );
  const state = dehydrate(client, { shouldDehydrateQuery: (q) => q.state.status === "success" });
  return state;
}

/**
 * Prefetch for a page about one thing (a workspace, an agent): when the loader finds nothing (null), the page
 * answers with the not-found page instead of an empty view.
 */
export async function prefetchOneOrNotFound<T>(
  queryKey: QueryKey,
  load: () => Promise<T | null>,
): Promise<DehydratedState> {
  let missing = false;
  const state = await prefetchAll([
    {
      queryKey,
      load: async () => {
        const value = await load();
        if (value === null) {
          missing = true;
          throw new Error("not found");
        }
        return value;
      },
    },
  ]);
  if (missing) notFound();
  return state;
}
