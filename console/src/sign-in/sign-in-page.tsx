import { useEffect, useState } from 'preact/hooks';
import { EngramApi, demoUsers, mintDemoToken } from '../api/client';
import type { DemoUsers } from '../api/types';
import { decodeClaims } from '../auth/claims';
import { LiveMessage } from '../components/live-message';
import { useI18n } from '../i18n/i18n';
import { ClaimsList } from './claims-list';

type Props = Readonly<{ notice?: string | null; onSignedIn: (token: string) => void }>;

/** Paste a token; the API checks it before the console keeps it. */
export function SignInPage({ notice, onSignedIn }: Props) {
  const { t } = useI18n();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [demo, setDemo] = useState<DemoUsers | null>(null);
  const claims = token.trim() === '' ? null : decodeClaims(token);

  useEffect(() => {
    demoUsers().then(setDemo, () => setDemo(null));
  }, []);

  const signIn = async (candidate: string) => {
    const decoded = decodeClaims(candidate);
    if (!decoded) {
      setError(t.signIn.notAToken);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await new EngramApi(candidate.trim(), decoded.workspaceId).memorySettings();
      onSignedIn(candidate.trim());
    } catch (failure) {
      setError(t.signIn.refused((failure as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{t.signIn.title}</h1>
      {notice ? <LiveMessage message={notice} /> : null}
      <p>{t.signIn.intro}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void signIn(token);
        }}
      >
        <label for="token">{t.signIn.tokenLabel}</label>
        <textarea
          id="token"
          name="token"
          rows={4}
          spellcheck={false}
          autocomplete="off"
          required
          value={token}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'token-error' : undefined}
          onInput={(event) => {
            setToken(event.currentTarget.value);
            setError(null);
          }}
        />
        {error ? (
          <p id="token-error" class="live error" role="alert">
            {error}
          </p>
        ) : null}
        {claims ? (
          <section aria-labelledby="claims-title" class="claims">
            <h2 id="claims-title">{t.signIn.claims}</h2>
            <ClaimsList claims={claims} />
          </section>
        ) : null}
        <button type="submit" class="primary" disabled={busy}>
          {t.signIn.submit}
        </button>
      </form>
      {demo ? (
        <section aria-labelledby="demo-title" class="demo">
          <h2 id="demo-title">{t.signIn.demoTitle}</h2>
          <p>{t.signIn.demoIntro(demo.workspaceId)}</p>
          <ul class="demo-users">
            {demo.users.map((user) => (
              <li key={user.userId}>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => {
                    mintDemoToken(user.userId).then(
                      (minted) => void signIn(minted),
                      (failure: Error) => setError(failure.message),
                    );
                  }}
                >
                  {t.signIn.demoAs(user.userId, user.roles.join(', '))}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </section>
  );
}
