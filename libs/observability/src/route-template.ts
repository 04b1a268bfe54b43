/** The label of a request that matched no route: one value, so unknown URLs cannot grow the label set. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** What Fastify knows of the route a request matched (known from the first hook on). */
export type RoutedRequest = Readonly<{ is404?: boolean; routeOptions?: { url?: unknown } }>;

/**
 * The route template a request matched (`/v1/workspaces/:workspaceId/users/:userId/messages`), never
 * the URL itself: ids and query strings (a cursor or a search may hold personal text) stay out of
 * metric labels and logs.
 */
export function routeTemplate(request: RoutedRequest): string {
  if (request.is404 === true) return UNMATCHED_ROUTE;
  const url = request.routeOptions?.url;
  return typeof url === 'string' && url !== '' ? url : UNMATCHED_ROUTE;
}
