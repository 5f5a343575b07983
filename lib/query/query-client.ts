import { QueryClient, defaultShouldDehydrateQuery, isServer } from "@tanstack/react-query";

/** Background refresh period for every dashboard query. */
export const REFETCH_INTERVAL_MS = 60_000;

/** The one QueryClient factory: the server makes one per request, the browser keeps one. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Data prefetched on the server is fresh on arrival: no refetch right after hydration.
        staleTime: 30_000,
        refetchInterval: REFETCH_INTERVAL_MS,
        refetchOnWindowFocus: true,
        retry: 1,
      },
      dehydrate: {
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
      },
    },
  });
}

let browserClient: QueryClient | undefined;

/** In the browser, one client for the page's life; on the server, a fresh one each call. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
