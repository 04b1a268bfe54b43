import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/console';
export const ROUTES = ['sign-in', 'activity', 'memories', 'review', 'agents', 'policy'] as const;
export type Route = (typeof ROUTES)[number];

/** Seed 000's address of the activity page, served by the API with the same index.html. */
export const ACTIVITY_PAGE_PATH = '/personal/activity';

/** The page a /console/… path names (the API serves index.html for every one of them). */
export function routeOf(pathname: string): Route | null {
  if (pathname.replace(/\/+$/, '') === ACTIVITY_PAGE_PATH) return 'activity';
  const name = pathname.startsWith(BASE)
    ? pathname.slice(BASE.length).replace(/^\/+|\/+$/g, '')
    : '';
  return (ROUTES as readonly string[]).includes(name) ? (name as Route) : null;
}

export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const url = `${BASE}/${route}`;
  if (location.pathname === url) return;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route | null {
  const [route, setRoute] = useState(() => routeOf(location.pathname));
  useEffect(() => {
    const update = () => setRoute(routeOf(location.pathname));
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return route;
}

/** A real link (new tab, copy address) that navigates in place on a plain click. */
export function Link(props: { to: Route; current?: boolean; children: ComponentChildren }) {
  return (
    <a
      href={`${BASE}/${props.to}`}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
