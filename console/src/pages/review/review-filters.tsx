import { useState } from 'preact/hooks';
import { MEMORY_KINDS, type MemoryKind, type ReviewFilters } from '../../api/types';
import { useI18n } from '../../i18n/i18n';

/** Type, user and minimum confidence: the queue endpoint filters on the server. */
export function ReviewFiltersForm({ onApply }: { onApply: (filters: ReviewFilters) => void }) {
  const { t } = useI18n();
  const [kind, setKind] = useState('');
  const [userId, setUserId] = useState('');
  const [minConfidence, setMinConfidence] = useState('');
  const apply = (next: { kind: string; userId: string; minConfidence: string }) =>
    onApply({
      ...(next.kind ? { kind: next.kind as MemoryKind } : {}),
      ...(next.userId.trim() ? { userId: next.userId.trim() } : {}),
      ...(next.minConfidence !== '' ? { minConfidence: Number(next.minConfidence) } : {}),
    });
  return (
    <form
      class="filters"
      aria-label={t.review.filters}
      onSubmit={(event) => {
        event.preventDefault();
        apply({ kind, userId, minConfidence });
      }}
    >
      <p>
        <label for="filter-kind">{t.review.kindFilter}</label>
        <select
          id="filter-kind"
          value={kind}
          onChange={(event) => setKind(event.currentTarget.value)}
        >
          <option value="">{t.review.anyKind}</option>
          {MEMORY_KINDS.map((option) => (
            <option key={option} value={option}>
              {t.kind[option]}
            </option>
          ))}
        </select>
      </p>
      <p>
        <label for="filter-user">{t.review.userFilter}</label>
        <input
          id="filter-user"
          type="text"
          pattern="[A-Za-z0-9._:\-]{1,128}"
          autocomplete="off"
          value={userId}
          onInput={(event) => setUserId(event.currentTarget.value)}
        />
      </p>
      <p>
        <label for="filter-confidence">{t.review.minConfidence}</label>
        <input
          id="filter-confidence"
          type="number"
          min={0}
          max={1}
          step={0.05}
          value={minConfidence}
          onInput={(event) => setMinConfidence(event.currentTarget.value)}
        />
      </p>
      <p class="filter-buttons">
        <button type="submit">{t.review.apply}</button>
        <button
          type="button"
          onClick={() => {
            setKind('');
            setUserId('');
            setMinConfidence('');
            apply({ kind: '', userId: '', minConfidence: '' });
          }}
        >
          {t.review.clear}
        </button>
      </p>
    </form>
  );
}
