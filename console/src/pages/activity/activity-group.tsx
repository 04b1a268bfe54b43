import type { ActivityGroup } from '../../api/types';
import { ChannelBadge, StatusBadge } from '../../components/badge';
import { formatDateTime, formatTime } from '../../components/format';
import { useSignedIn } from '../../auth/session-context';
import { useI18n } from '../../i18n/i18n';
import { groupStatus } from './activity-groups';

type Props = Readonly<{
  group: ActivityGroup;
  id: string;
  expanded: boolean;
  onToggle: () => void;
}>;

/** One interaction: its title, channels and status; its events when expanded. */
export function ActivityGroupItem({ group, id, expanded, onToggle }: Props) {
  const { t, locale } = useI18n();
  const { timeZone } = useSignedIn();
  const status = groupStatus(group);
  const eventsId = `${id}-events`;
  return (
    <li class="group">
      <h2 class="group-heading">
        <button type="button" aria-expanded={expanded} aria-controls={eventsId} onClick={onToggle}>
          <span class="group-title">{group.title}</span>
          <span class="group-meta">
            <time dateTime={group.firstAt}>{formatDateTime(group.firstAt, locale, timeZone)}</time>
            {' · '}
            {t.activity.events(group.events.length)}
          </span>
        </button>
      </h2>
      <p class="badges">
        {status ? <StatusBadge status={status} /> : null}
        {group.channels.map((channel) => (
          <ChannelBadge key={channel} channel={channel} />
        ))}
        <span class="trace">
          {group.traceId ? `${t.activity.trace} ${group.traceId}` : t.activity.single}
        </span>
      </p>
      <ol id={eventsId} class="events" hidden={!expanded}>
        {group.events.map((event, index) => (
          <li key={index}>
            <time dateTime={event.at}>{formatTime(event.at, locale, timeZone)}</time>
            <span class="event-type">{t.activity.eventTypes[event.type] ?? event.type}</span>
            {event.channel ? <ChannelBadge channel={event.channel} /> : null}
            <span class="event-summary">{event.summary}</span>
          </li>
        ))}
      </ol>
    </li>
  );
}
