import { useEffect, useState } from 'preact/hooks';
import type { ReviewFilters, ReviewItem, ReviewStatus } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { AdminsOnly } from '../../components/admins-only';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LiveMessage } from '../../components/live-message';
import { useI18n } from '../../i18n/i18n';
import { ReviewFiltersForm } from './review-filters';
import { ReviewItemCard } from './review-item';

type Message = { text: string; tone: 'info' | 'error' };

/**
 * Seed 002's memory management panel: the workspace's pending candidates, and those rejected
 * automatically because nobody reviewed them in time (reported as rejected, reason expired).
 */
export function ReviewPage() {
  const { t } = useI18n();
  const { api, isAdmin, policy } = useSignedIn();
  const [status, setStatus] = useState<ReviewStatus>('pending');
  const [filters, setFilters] = useState<ReviewFilters>({});
  const [items, setItems] = useState<ReviewItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rejecting, setRejecting] = useState<readonly ReviewItem[]>([]);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);

  useEffect(() => {
    if (!isAdmin) return;
    setItems(null);
    setSelected(new Set());
    api.reviewQueue(status, filters).then(
      (page) => {
        setItems(page.items);
        setCursor(page.nextCursor ?? null);
      },
      (failure: Error) => setMessage({ text: failure.message, tone: 'error' }),
    );
  }, [api, isAdmin, status, filters]);

  if (!isAdmin) return <AdminsOnly id="review-title" title={t.review.title} />;

  const loadMore = async () => {
    const page = await api.reviewQueue(status, filters, cursor);
    setItems((current) => [...(current ?? []), ...page.items]);
    setCursor(page.nextCursor ?? null);
  };

  /** One request per memory; what succeeded leaves the queue, what failed says why. */
  const decide = async (targets: readonly ReviewItem[], decision: 'approve' | 'reject') => {
    setBusy(true);
    const outcomes = await Promise.allSettled(
      targets.map((item) =>
        decision === 'approve' ? api.approve(item.memoryId) : api.reject(item.memoryId, reason),
      ),
    );
    const decided = new Set(
      targets
        .filter((_, index) => outcomes[index]!.status === 'fulfilled')
        .map((item) => item.memoryId),
    );
    const failures = outcomes.flatMap((outcome, index) =>
      outcome.status === 'rejected'
        ? [t.review.failed(targets[index]!.content, (outcome.reason as Error).message)]
        : [],
    );
    setItems((current) => current?.filter((item) => !decided.has(item.memoryId)) ?? null);
    setSelected((current) => new Set([...current].filter((id) => !decided.has(id))));
    const done =
      decision === 'approve' ? t.review.approved(decided.size) : t.review.rejected(decided.size);
    setMessage({
      text: [done, ...failures].join(' '),
      tone: failures.length > 0 ? 'error' : 'info',
    });
    setRejecting([]);
    setReason('');
    setBusy(false);
  };

  const pendingItems = status === 'pending' ? (items ?? []) : [];
  const selectedItems = pendingItems.filter((item) => selected.has(item.memoryId));
  const allSelected = pendingItems.length > 0 && selectedItems.length === pendingItems.length;

  return (
    <section aria-labelledby="review-title">
      <h1 id="review-title">{t.review.title}</h1>
      {policy && policy.reviewMode !== 'admin' ? (
        <p class="notice">{t.review.notAdminMode(policy.reviewMode)}</p>
      ) : null}
      <LiveMessage message={message?.text ?? ''} tone={message?.tone} />
      <div class="tabs" role="group" aria-label={t.review.tabs}>
        {(['pending', 'rejected'] as const).map((tab) => (
          <button
            key={tab}
            type="button"
            aria-pressed={status === tab}
            onClick={() => setStatus(tab)}
          >
            {t.review.tab[tab]}
          </button>
        ))}
      </div>
      <ReviewFiltersForm onApply={setFilters} />
      {status === 'pending' && pendingItems.length > 0 ? (
        <div class="bulk" role="group" aria-label={t.review.selected(selectedItems.length)}>
          <label>
            <input
              type="checkbox"
              checked={allSelected}
              onChange={(event) =>
                setSelected(
                  event.currentTarget.checked
                    ? new Set(pendingItems.map((item) => item.memoryId))
                    : new Set(),
                )
              }
            />{' '}
            {t.review.selectAll}
          </label>
          <span aria-live="polite">{t.review.selected(selectedItems.length)}</span>
          <button
            type="button"
            class="primary"
            disabled={busy || selectedItems.length === 0}
            onClick={() => void decide(selectedItems, 'approve')}
          >
            {t.review.approveSelected}
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy || selectedItems.length === 0}
            onClick={() => setRejecting(selectedItems)}
          >
            {t.review.rejectSelected}
          </button>
        </div>
      ) : null}
      {items === null ? (
        <p>{t.loading}</p>
      ) : items.length === 0 ? (
        <p>{status === 'pending' ? t.review.empty : t.review.emptyExpired}</p>
      ) : (
        <ul class="review-list">
          {items.map((item) => (
            <ReviewItemCard
              key={item.memoryId}
              item={item}
              busy={busy}
              selected={selected.has(item.memoryId)}
              onSelect={(checked) =>
                setSelected((current) => {
                  const next = new Set(current);
                  if (checked) next.add(item.memoryId);
                  else next.delete(item.memoryId);
                  return next;
                })
              }
              onApprove={() => void decide([item], 'approve')}
              onReject={() => setRejecting([item])}
            />
          ))}
        </ul>
      )}
      {cursor ? (
        <button type="button" onClick={() => void loadMore()}>
          {t.loadMore}
        </button>
      ) : null}
      <ConfirmDialog
        open={rejecting.length > 0}
        title={t.review.rejectTitle(rejecting.length)}
        confirmLabel={t.review.reject}
        cancelLabel={t.review.cancel}
        danger
        onConfirm={() => void decide(rejecting, 'reject')}
        onCancel={() => setRejecting([])}
      >
        <label for="reject-reason">{t.review.reason}</label>
        <textarea
          id="reject-reason"
          rows={3}
          maxLength={500}
          value={reason}
          onInput={(event) => setReason(event.currentTarget.value)}
        />
      </ConfirmDialog>
    </section>
  );
}
