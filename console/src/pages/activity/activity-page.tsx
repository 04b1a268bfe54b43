import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ActivityGroup } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { LiveMessage } from '../../components/live-message';
import { useI18n, type Locale } from '../../i18n/i18n';
import { ActivityGroupItem } from './activity-group';
import { appendPage, groupKey, mergeFreshPage } from './activity-groups';
import { useNearEnd } from './use-near-end';

/** How often the feed looks for new interactions while the tab is visible. */
const REFRESH_MS = 4000;

/**
 * Seed 000's /personal/activity: the caller's feed, newest first, grouped by trace. The API writes
 * its titles and summaries in the UI's language, so another language starts the feed over.
 */
export function ActivityPage() {
  const { locale } = useI18n();
  return <ActivityFeed key={locale} locale={locale} />;
}

function ActivityFeed({ locale }: { locale: Locale }) {
  const { t } = useI18n();
  const { api } = useSignedIn();
  const [groups, setGroups] = useState<ActivityGroup[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const groupsRef = useRef(groups);
  groupsRef.current = groups;

  const loadMore = useCallback(async () => {
    if (loading || (loaded && !cursor)) return;
    setLoading(true);
    try {
      const page = await api.activity(locale, cursor);
      setGroups((current) => appendPage(current, page.items));
      setCursor(page.nextCursor ?? null);
      setLoaded(true);
      setError(null);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setLoading(false);
    }
  }, [api, cursor, loaded, loading, locale]);

  useEffect(() => {
    // The first page; later ones come from scrolling.
    void loadMore();
  }, []);

  useEffect(() => {
    const refresh = async () => {
      if (document.hidden) return;
      try {
        const page = await api.activity(locale);
        const merged = mergeFreshPage(groupsRef.current, page.items);
        setGroups(merged.groups);
        if (merged.restarted || groupsRef.current.length === 0) setCursor(page.nextCursor ?? null);
        if (merged.added > 0) setAnnouncement(t.activity.newGroups(merged.added));
      } catch {
        // the next tick retries; errors of the visible load are shown by loadMore
      }
    };
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [api, t, locale]);

  const sentinel = useNearEnd(() => void loadMore(), loaded && cursor !== null && !loading);

  const toggle = (key: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <section aria-labelledby="activity-title">
      <h1 id="activity-title">{t.activity.title}</h1>
      <p class="intro">{t.activity.intro}</p>
      <LiveMessage message={announcement} />
      {error ? <LiveMessage tone="error" message={error} /> : null}
      {loaded && groups.length === 0 ? <p>{t.activity.empty}</p> : null}
      <ol class="feed" aria-busy={loading}>
        {groups.map((group, index) => {
          const key = groupKey(group);
          return (
            <ActivityGroupItem
              key={key}
              id={`group-${index}`}
              group={group}
              expanded={expanded.has(key)}
              onToggle={() => toggle(key)}
            />
          );
        })}
      </ol>
      <div ref={sentinel} class="feed-end">
        {loading ? (
          <p>{t.loading}</p>
        ) : cursor ? (
          <button type="button" onClick={() => void loadMore()}>
            {t.loadMore}
          </button>
        ) : loaded && groups.length > 0 ? (
          <p>{t.activity.end}</p>
        ) : null}
      </div>
    </section>
  );
}
