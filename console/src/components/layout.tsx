import type { ComponentChildren } from 'preact';
import type { Claims } from '../auth/claims';
import { useI18n } from '../i18n/i18n';
import { Link, type Route } from '../router';
import { LanguageSwitcher } from './language-switcher';

type Props = Readonly<{
  route: Route | null;
  claims: Claims | null;
  timeZone: string | null;
  onSignOut: () => void;
  children: ComponentChildren;
}>;

/** Skip link, banner with navigation and who is signed in, then the page in <main>. */
export function Layout({ route, claims, timeZone, onSignOut, children }: Props) {
  const { t } = useI18n();
  const pages: [Route, string][] = claims
    ? [
        ['activity', t.nav.activity],
        ['memories', t.nav.memories],
        ...(claims.roles.includes('admin')
          ? ([
              ['review', t.nav.review],
              ['agents', t.nav.agents],
              ['policy', t.nav.policy],
            ] as [Route, string][])
          : []),
      ]
    : [];
  return (
    <>
      <a class="skip-link" href="#main">
        {t.skipToContent}
      </a>
      <header class="banner">
        <p class="brand">{t.appName}</p>
        {pages.length > 0 ? (
          <nav aria-label={t.nav.label}>
            <ul>
              {pages.map(([page, label]) => (
                <li key={page}>
                  <Link to={page} current={route === page}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div class="account">
          {claims ? (
            <p class="who">
              {t.signedInAs(claims.userId, claims.workspaceId)}
              {timeZone ? <span class="zone"> · {t.timesIn(timeZone)}</span> : null}
            </p>
          ) : null}
          <LanguageSwitcher />
          {claims ? (
            <button type="button" onClick={onSignOut}>
              {t.signOut}
            </button>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
