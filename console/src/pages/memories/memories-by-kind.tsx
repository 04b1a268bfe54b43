import { MEMORY_KINDS, type Memory } from '../../api/types';
import { useI18n } from '../../i18n/i18n';
import { MemoryItem } from './memory-item';

type Props = Readonly<{
  memories: Memory[];
  busy: boolean;
  /** Review mode user: pending memories get approve and reject. */
  canReview: boolean;
  onDelete: (memory: Memory) => void;
  onDecide: (memory: Memory, decision: 'approve' | 'reject') => void;
}>;

/** The user's memories under one heading per type, in the order the prompt uses. */
export function MemoriesByKind({ memories, busy, canReview, onDelete, onDecide }: Props) {
  const { t } = useI18n();
  return (
    <>
      {MEMORY_KINDS.map((kind) => {
        const ofKind = memories.filter((memory) => memory.kind === kind);
        if (ofKind.length === 0) return null;
        return (
          <section key={kind} aria-labelledby={`kind-${kind}`} class="kind-section">
            <h3 id={`kind-${kind}`}>{t.kinds[kind]}</h3>
            <ul class="memories">
              {ofKind.map((memory) => (
                <MemoryItem
                  key={memory.memoryId}
                  memory={memory}
                  busy={busy}
                  canDecide={canReview && memory.status === 'pending'}
                  onDelete={() => onDelete(memory)}
                  onDecide={(decision) => onDecide(memory, decision)}
                />
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}
