import type { Memory } from '../../api/types';
import { StatusBadge } from '../../components/badge';
import { formatDateTime } from '../../components/format';
import { useSignedIn } from '../../auth/session-context';
import { useI18n } from '../../i18n/i18n';

type Props = Readonly<{
  memory: Memory;
  busy: boolean;
  /** Pending, in review mode user: the user approves or rejects it. */
  canDecide: boolean;
  onDelete: () => void;
  onDecide: (decision: 'approve' | 'reject') => void;
}>;

export function MemoryItem({ memory, busy, canDecide, onDelete, onDecide }: Props) {
  const { t, locale } = useI18n();
  const { timeZone } = useSignedIn();
  const content = memory.content ?? '';
  return (
    <li class="memory">
      <p class="memory-content">
        {content} {memory.status !== 'approved' ? <StatusBadge status={memory.status} /> : null}
      </p>
      <p class="memory-meta">
        {t.memories.detected(formatDateTime(memory.createdAt, locale, timeZone))}
        {memory.dueAt ? ` · ${t.memories.due(formatDateTime(memory.dueAt, locale, timeZone))}` : ''}
        {` · ${t.memories.confidence(Math.round(memory.confidence * 100))}`}
      </p>
      <figure class="source">
        <figcaption>{t.memories.from}</figcaption>
        <blockquote>{memory.sourceExcerpt ?? <em>{t.memories.noSource}</em>}</blockquote>
      </figure>
      <p class="decision">
        {canDecide ? (
          <>
            <button
              type="button"
              class="primary"
              disabled={busy}
              aria-label={t.memories.approveLabel(content)}
              onClick={() => onDecide('approve')}
            >
              {t.memories.approve}
            </button>
            <button
              type="button"
              disabled={busy}
              aria-label={t.memories.rejectLabel(content)}
              onClick={() => onDecide('reject')}
            >
              {t.memories.reject}
            </button>
          </>
        ) : null}
        <button
          type="button"
          class="danger"
          disabled={busy}
          aria-label={t.memories.deleteLabel(content)}
          onClick={onDelete}
        >
          {t.memories.delete}
        </button>
      </p>
    </li>
  );
}
