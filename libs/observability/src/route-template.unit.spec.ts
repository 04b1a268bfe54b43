import { UNMATCHED_ROUTE, routeTemplate } from './route-template';

describe('routeTemplate', () => {
  it('is the matched path with its parameters, never the URL', () => {
    const request = { routeOptions: { url: '/v1/workspaces/:workspaceId/users/:userId' } };
    expect(routeTemplate(request)).toBe('/v1/workspaces/:workspaceId/users/:userId');
  });

  it('names every unmatched request alike, the not-found handler’s included', () => {
    expect(routeTemplate({})).toBe(UNMATCHED_ROUTE);
    expect(routeTemplate({ routeOptions: { url: /regex/ } })).toBe(UNMATCHED_ROUTE);
    expect(routeTemplate({ is404: true, routeOptions: { url: '*' } })).toBe(UNMATCHED_ROUTE);
  });
});
