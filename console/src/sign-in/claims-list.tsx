import type { Claims } from '../auth/claims';
import { browserTimeZone, formatDateTime } from '../components/format';
import { useI18n } from '../i18n/i18n';

/** The token's claims as the console understood them (for display; the API decides). */
export function ClaimsList({ claims }: { claims: Claims }) {
  const { t, locale } = useI18n();
  return (
    <dl class="claims-list">
      <dt>{t.signIn.user}</dt>
      <dd>{claims.userId}</dd>
      <dt>{t.signIn.workspace}</dt>
      <dd>{claims.workspaceId}</dd>
      <dt>{t.signIn.roles}</dt>
      <dd>{claims.roles.join(', ')}</dd>
      {claims.expiresAt ? (
        <>
          <dt>{t.signIn.expires}</dt>
          <dd>{formatDateTime(claims.expiresAt.toISOString(), locale, browserTimeZone())}</dd>
        </>
      ) : null}
    </dl>
  );
}
