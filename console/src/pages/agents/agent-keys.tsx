import { useEffect, useState } from 'preact/hooks';
import type { AgentKey } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatDateTime } from '../../components/format';
import { useI18n } from '../../i18n/i18n';

type Props = Readonly<{
  agentId: string;
  /** Said in the page's live region (decisions, errors). */
  onMessage: (text: string, tone: 'info' | 'error') => void;
}>;

/**
 * An agent's service keys: each with its name, creation, last use and revocation; "create key" shows
 * the secret once (the API keeps only its digest) with a copy button; "revoke" asks first.
 */
export function AgentKeys({ agentId, onMessage }: Props) {
  const { t, locale } = useI18n();
  const { api, timeZone } = useSignedIn();
  const when = (iso: string) => formatDateTime(iso, locale, timeZone);
  const [keys, setKeys] = useState<AgentKey[] | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<AgentKey | null>(null);

  const load = () =>
    api.agentKeys(agentId).then(
      (page) => setKeys(page.items),
      (failure: Error) => onMessage(failure.message, 'error'),
    );
  useEffect(() => void load(), [api, agentId]);

  const create = async () => {
    setBusy(true);
    try {
      const created = await api.createAgentKey(agentId, name);
      setSecret(created.key);
      setName('');
      await load();
    } catch (failure) {
      onMessage((failure as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (key: AgentKey) => {
    setRevoking(null);
    setBusy(true);
    try {
      await api.revokeAgentKey(agentId, key.id);
      onMessage(t.agents.keys.revoked, 'info');
      await load();
    } catch (failure) {
      onMessage((failure as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  const copy = async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
      onMessage(t.agents.keys.copied, 'info');
    } catch (failure) {
      onMessage((failure as Error).message, 'error');
    }
  };

  const nameId = `agent-key-name-${agentId}`;
  const label = (key: AgentKey) => key.name ?? t.agents.keys.unnamed;
  return (
    <div class="agent-keys">
      <h3>{t.agents.keys.title}</h3>
      <p class="field-hint">{t.agents.keys.intro}</p>
      {keys === null ? (
        <p>{t.loading}</p>
      ) : keys.length === 0 ? (
        <p>{t.agents.keys.none}</p>
      ) : (
        <ul class="agent-key-list">
          {keys.map((key) => (
            <li key={key.id} class={`agent-key${key.revokedAt ? ' revoked' : ''}`}>
              <span class="agent-key-name">{label(key)}</span>{' '}
              <span class="memory-meta">
                {t.agents.keys.created(key.createdBy, when(key.createdAt))} ·{' '}
                {key.lastUsedAt
                  ? t.agents.keys.lastUsed(when(key.lastUsedAt))
                  : t.agents.keys.neverUsed}
                {key.revokedAt
                  ? ` · ${t.agents.keys.revokedOn(key.revokedBy ?? '', when(key.revokedAt))}`
                  : ''}
              </span>
              {key.revokedAt ? null : (
                <button
                  type="button"
                  class="danger"
                  disabled={busy}
                  aria-label={t.agents.keys.revokeLabel(label(key))}
                  onClick={() => setRevoking(key)}
                >
                  {t.agents.keys.revoke}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {secret ? (
        <div class="agent-key-secret" role="group" aria-label={t.agents.keys.createdTitle}>
          <p>
            <strong>{t.agents.keys.createdTitle}</strong>
          </p>
          <code>{secret}</code>
          <p class="dialog-buttons">
            <button type="button" class="primary" onClick={() => void copy(secret)}>
              {t.agents.keys.copy}
            </button>
            <button type="button" onClick={() => setSecret(null)}>
              {t.agents.keys.hide}
            </button>
          </p>
        </div>
      ) : null}
      <form
        class="agent-key-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <label for={nameId}>{t.agents.keys.nameLabel}</label>
        <input
          id={nameId}
          maxLength={100}
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {t.agents.keys.create}
        </button>
      </form>
      {/* Mounted only while asked: one dialog on the page at a time (its title has a fixed id). */}
      {revoking ? (
        <ConfirmDialog
          open
          title={t.agents.keys.revokeTitle}
          confirmLabel={t.agents.keys.revokeConfirm}
          cancelLabel={t.agents.keys.cancel}
          danger
          onConfirm={() => void revoke(revoking)}
          onCancel={() => setRevoking(null)}
        >
          <p>{t.agents.keys.revokeText}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
