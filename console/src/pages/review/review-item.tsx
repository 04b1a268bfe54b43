import type { ReviewItem } from '../../api/types';
import { KindBadge } from '../../components/badge';
import { formatAge, formatDateTime } from '../../components/format';
import { useSignedIn } from '../../auth/session-context';
import { useI18n } from '../../i18n/i18n';

type Props = Readonly<{
  item: ReviewItem;
  selected: boolean;
  busy: boolean;
  onSelect: (selected: boolean) => void;
  onApprove: () => void;
  onReject: () => void;
}>;

/** One candidate: what was remembered, of whom, from which message, how sure, how old. */
export function ReviewItemCard({ item, selected, busy, onSelect, onApprove, onReject }: Props) {
  const { t, locale } = useI18n();
  const { timeZone } = useSignedIn();
  const pending = item.status === 'pending';
  const checkbox = `select-${item.memoryId}`;
  return (
    <li class="review-item">
      {pending ? (
        <input
          id={checkbox}
          type="checkbox"
          checked={selected}
          aria-label={t.review.select(item.content)}
          onChange={(event) => onSelect(event.currentTarget.checked)}
        />
      ) : null}
      <div class="review-body">
        <p class="memory-content">{item.content}</p>
        <dl class="review-meta">
          <dt>{t.review.type}</dt>
          <dd>
            <KindBadge kind={item.kind} />
          </dd>
          <dt>{t.review.confidence}</dt>
          <dd>
            <meter min={0} max={1} value={item.confidence} aria-hidden="true" />{' '}
            {Math.round(item.confidence * 100)} %
          </dd>
          <dt>{t.review.user}</dt>
          <dd>{item.userId}</dd>
          <dt>{pending ? t.review.age : t.review.expiredAt}</dt>
          <dd>
            {pending ? (
              <time
                dateTime={item.createdAt}
                title={formatDateTime(item.createdAt, locale, timeZone)}
              >
                {formatAge(item.ageSeconds, locale)}
              </time>
            ) : (
              <time dateTime={item.decidedAt}>
                {item.decidedAt ? formatDateTime(item.decidedAt, locale, timeZone) : ''}
              </time>
            )}
          </dd>
        </dl>
        <figure class="source">
          <figcaption>{t.review.source}</figcaption>
          <blockquote>{item.sourceExcerpt}</blockquote>
        </figure>
        {pending ? (
          <p class="decision">
            <button
              type="button"
              class="primary"
              disabled={busy}
              onClick={onApprove}
              aria-label={`${t.review.approve}: ${item.content}`}
            >
              {t.review.approve}
            </button>
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={onReject}
              aria-label={`${t.review.reject}: ${item.content}`}
            >
              {t.review.reject}
            </button>
          </p>
        ) : null}
      </div>
    </li>
  );
}
