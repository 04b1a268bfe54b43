/** The label of a request that matched no route: one value, so unknown URLs cannot grow the label set. */
export const UNMATCHED_ROUTE = '(unmatched)';

type RoutedRequest = Readonly<{ baseUrl?: string; route?: { path?: unknown } }>;

/**
 * The route template a request matched (`/v1/workspaces/:workspaceId/users/:userId/messages`), never
 * the URL itself: ids and query strings (a cursor or a search may hold personal text) stay out of
 * metric labels and logs.
 */
export function routeTemplate(request: RoutedRequest): string {
  const path = request.route?.path;
  if (typeof path !== 'string') return UNMATCHED_ROUTE;
  return `${request.baseUrl ?? ''}${path}` || '/';
}
