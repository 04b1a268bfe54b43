import { useEffect, useMemo, useState } from 'preact/hooks';
import { EngramApi } from './api/client';
import type { MemoryPolicy } from './api/types';
import { clearSession, loadSession, saveSession, type Session } from './auth/session';
import { SignedInContext, type SignedIn } from './auth/session-context';
import { browserTimeZone } from './components/format';
import { Layout } from './components/layout';
import { useI18n } from './i18n/i18n';
import { ActivityPage } from './pages/activity/activity-page';
import { AgentsPage } from './pages/agents/agents-page';
import { MemoriesPage } from './pages/memories/memories-page';
import { PolicyPage } from './pages/policy/policy-page';
import { ReviewPage } from './pages/review/review-page';
import { navigate, useRoute } from './router';
import { SignInPage } from './sign-in/sign-in-page';

export function App() {
  const { t } = useI18n();
  const route = useRoute();
  const [session, setSession] = useState<Session | null>(loadSession);
  const [expired, setExpired] = useState(false);
  const [policy, setPolicy] = useState<MemoryPolicy | null>(null);

  const signOut = (becauseExpired = false) => {
    clearSession();
    setSession(null);
    setPolicy(null);
    setExpired(becauseExpired);
  };

  const api = useMemo(
    () => session && new EngramApi(session.token, session.claims.workspaceId, () => signOut(true)),
    [session],
  );
  const signedIn = useMemo<SignedIn | null>(() => {
    if (!session || !api) return null;
    return {
      session,
      api,
      policy,
      setPolicy,
      timeZone: policy?.timeZone ?? browserTimeZone(),
      isAdmin: session.claims.roles.includes('admin'),
    };
  }, [session, api, policy]);

  useEffect(() => {
    if (!signedIn) {
      if (route !== 'sign-in') navigate('sign-in', { replace: true });
      return;
    }
    if (route === null || route === 'sign-in') navigate('activity', { replace: true });
  }, [route, signedIn]);

  // Admins may read the workspace policy: its zone is the one the assistant uses for this workspace.
  useEffect(() => {
    if (api && session?.claims.roles.includes('admin'))
      api.memoryPolicy().then(setPolicy, () => undefined);
  }, [api]);

  // Move focus to the new page's content so keyboard and screen reader users start there.
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [route]);

  const page = !signedIn ? (
    <SignInPage
      notice={expired ? t.sessionExpired : null}
      onSignedIn={(token) => {
        setExpired(false);
        setSession(saveSession(token));
      }}
    />
  ) : route === 'memories' ? (
    <MemoriesPage />
  ) : route === 'review' ? (
    <ReviewPage />
  ) : route === 'agents' ? (
    <AgentsPage />
  ) : route === 'policy' ? (
    <PolicyPage />
  ) : (
    <ActivityPage />
  );

  return (
    <SignedInContext.Provider value={signedIn}>
      <Layout
        route={route}
        claims={session?.claims ?? null}
        timeZone={signedIn?.timeZone ?? null}
        onSignOut={() => signOut()}
      >
        {page}
      </Layout>
    </SignedInContext.Provider>
  );
}
