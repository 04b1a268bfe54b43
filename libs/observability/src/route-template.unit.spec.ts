import { UNMATCHED_ROUTE, routeTemplate } from './route-template';

describe('routeTemplate', () => {
  it('is the matched path with its parameters, never the URL', () => {
    const request = { baseUrl: '', route: { path: '/v1/workspaces/:workspaceId/users/:userId' } };
    expect(routeTemplate(request)).toBe('/v1/workspaces/:workspaceId/users/:userId');
  });

  it('keeps the mount point of a sub-router', () => {
    expect(routeTemplate({ baseUrl: '/v1', route: { path: '/me' } })).toBe('/v1/me');
  });

  it('names every unmatched request alike', () => {
    expect(routeTemplate({})).toBe(UNMATCHED_ROUTE);
    expect(routeTemplate({ route: { path: /regex/ } })).toBe(UNMATCHED_ROUTE);
  });
});
