import { dehydrate, type DehydratedState, type QueryKey } from "@tanstack/react-query";
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
