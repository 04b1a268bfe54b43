import { useEffect, useState } from 'preact/hooks';
import type { IdentityCard, Memory, MemorySettings } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LiveMessage } from '../../components/live-message';
import { Markdown } from '../../components/markdown';
import { useI18n } from '../../i18n/i18n';
import { DeferredAnalysisNotice } from './deferred-analysis-notice';
import { MemoriesByKind } from './memories-by-kind';
import { MemorySettingsForm } from './memory-settings-form';

type Message = { text: string; tone: 'info' | 'error' };

/** What the assistant knows about me: settings, identity card, memories by type; delete, wipe. */
export function MemoriesPage() {
  const { t } = useI18n();
  const { api } = useSignedIn();
  const [memories, setMemories] = useState<Memory[] | null>(null);
  const [canReview, setCanReview] = useState(false);
  const [card, setCard] = useState<IdentityCard | null>(null);
  const [settings, setSettings] = useState<MemorySettings | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [confirmingWipe, setConfirmingWipe] = useState(false);
  const [busy, setBusy] = useState(false);
  const say = (text: string, tone: Message['tone'] = 'info') => setMessage({ text, tone });

  useEffect(() => {
    Promise.all([api.memories(), api.identityCard(), api.memorySettings()]).then(
      ([list, identity, current]) => {
        setMemories(list.items);
        setCanReview(list.canReview);
        setCard(identity);
        setSettings(current);
      },
      (failure: Error) => say(failure.message, 'error'),
    );
  }, [api]);

  // The read models follow the write a moment later: what was deleted goes from the page at once.
  const remove = async (memory: Memory) => {
    setBusy(true);
    try {
      await api.deleteMemory(memory.memoryId);
      setMemories(
        (current) => current?.filter((item) => item.memoryId !== memory.memoryId) ?? null,
      );
      say(t.memories.deleted);
    } catch (failure) {
      say((failure as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  // Review mode user: approved stays in the list, rejected leaves it (it lists pending and approved).
  const decide = async (memory: Memory, decision: 'approve' | 'reject') => {
    setBusy(true);
    try {
      await api.decideMine(memory.memoryId, decision);
      setMemories((current) =>
        decision === 'approve'
          ? (current?.map((item) =>
              item.memoryId === memory.memoryId ? { ...item, status: 'approved' } : item,
            ) ?? null)
          : (current?.filter((item) => item.memoryId !== memory.memoryId) ?? null),
      );
      say(decision === 'approve' ? t.memories.approved : t.memories.rejected);
    } catch (failure) {
      say((failure as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const wipe = async () => {
    setConfirmingWipe(false);
    setBusy(true);
    try {
      await api.wipeMemories();
      setMemories([]);
      setCard((current) => (current ? { ...current, markdown: '', memoryCount: 0 } : current));
      say(t.memories.wiped);
    } catch (failure) {
      say((failure as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="memories-title">
      <h1 id="memories-title">{t.memories.title}</h1>
      <LiveMessage message={message?.text ?? ''} tone={message?.tone} />
      <DeferredAnalysisNotice />
      {settings ? (
        <MemorySettingsForm settings={settings} onChange={setSettings} onMessage={say} />
      ) : null}
      <section aria-labelledby="card-title" class="card identity-card">
        <h2 id="card-title">{t.memories.cardTitle}</h2>
        {card && card.markdown.trim() !== '' ? (
          <Markdown source={card.markdown} />
        ) : (
          <p>{card ? t.memories.cardEmpty : t.loading}</p>
        )}
      </section>
      <section aria-labelledby="list-title">
        <h2 id="list-title">{t.memories.listTitle}</h2>
        {canReview && memories?.some((memory) => memory.status === 'pending') ? (
          <p class="notice">{t.memories.reviewHint}</p>
        ) : null}
        {memories === null ? (
          <p>{t.loading}</p>
        ) : memories.length === 0 ? (
          <p>{t.memories.empty}</p>
        ) : (
          <MemoriesByKind
            memories={memories}
            busy={busy}
            canReview={canReview}
            onDelete={(memory) => void remove(memory)}
            onDecide={(memory, decision) => void decide(memory, decision)}
          />
        )}
        <p>
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => setConfirmingWipe(true)}
          >
            {t.memories.wipe}
          </button>
        </p>
      </section>
      <ConfirmDialog
        open={confirmingWipe}
        title={t.memories.wipeTitle}
        confirmLabel={t.memories.wipeConfirm}
        cancelLabel={t.memories.cancel}
        danger
        onConfirm={() => void wipe()}
        onCancel={() => setConfirmingWipe(false)}
      >
        <p>{t.memories.wipeText}</p>
      </ConfirmDialog>
    </section>
  );
}
