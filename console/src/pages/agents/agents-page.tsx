import { useEffect, useState } from 'preact/hooks';
import type { WorkspaceAgent } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { AdminsOnly } from '../../components/admins-only';
import { LiveMessage } from '../../components/live-message';
import { useI18n } from '../../i18n/i18n';
import { AgentCard } from './agent-card';

type Message = { text: string; tone: 'info' | 'error' };

/** An agent added on this page, before it has a key or a message. */
const NEW_AGENT: WorkspaceAgent = {
  agentId: '',
  memoryEnabled: true,
  firstSeenAt: null,
  lastSeenAt: null,
  messageCount: 0,
  updatedAt: null,
  updatedBy: null,
};

/** Seed 002's "Enable Memory" in the memory settings panel: the workspace's agents, one switch each. */
export function AgentsPage() {
  const { t } = useI18n();
  const { api, isAdmin } = useSignedIn();
  const [agents, setAgents] = useState<WorkspaceAgent[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const [newAgent, setNewAgent] = useState('');

  useEffect(() => {
    if (!isAdmin) return;
    api.agents().then(
      (page) => setAgents(page.items),
      (failure: Error) => setMessage({ text: failure.message, tone: 'error' }),
    );
  }, [api, isAdmin]);

  if (!isAdmin) return <AdminsOnly id="agents-title" title={t.agents.title} />;

  const say = (text: string, tone: 'info' | 'error') => setMessage({ text, tone });

  // An agent gets its key before its first message: added here, it is listed by the API once it has one.
  const addAgent = () => {
    const agentId = newAgent.trim();
    if (!/^[A-Za-z0-9._:-]{1,128}$/.test(agentId)) return say(t.agents.newAgentInvalid, 'error');
    setAgents((current) =>
      current?.some((item) => item.agentId === agentId)
        ? current
        : [...(current ?? []), { ...NEW_AGENT, agentId }].sort((a, b) =>
            a.agentId.localeCompare(b.agentId),
          ),
    );
    setNewAgent('');
  };

  // The list follows the switch a moment later (a read model): the answer is shown at once.
  const switchMemory = async (agent: WorkspaceAgent, enabled: boolean) => {
    setBusy(agent.agentId);
    try {
      const result = await api.setAgentMemory(agent.agentId, enabled);
      setAgents(
        (current) =>
          current?.map((item) =>
            item.agentId === agent.agentId ? { ...item, memoryEnabled: result.enabled } : item,
          ) ?? null,
      );
      setMessage({ text: t.agents.switched(agent.agentId, result.enabled), tone: 'info' });
    } catch (failure) {
      setMessage({ text: (failure as Error).message, tone: 'error' });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="agents-title">
      <h1 id="agents-title">{t.agents.title}</h1>
      <p class="intro">{t.agents.intro}</p>
      <LiveMessage message={message?.text ?? ''} tone={message?.tone} />
      <form
        class="agent-new"
        aria-labelledby="agent-new-title"
        onSubmit={(event) => {
          event.preventDefault();
          addAgent();
        }}
      >
        <h2 id="agent-new-title">{t.agents.newAgentTitle}</h2>
        <label for="agent-new-id">{t.agents.newAgentLabel}</label>
        <input
          id="agent-new-id"
          maxLength={128}
          aria-describedby="agent-new-hint"
          value={newAgent}
          onInput={(event) => setNewAgent(event.currentTarget.value)}
        />
        <button type="submit">{t.agents.newAgentAdd}</button>
        <p id="agent-new-hint" class="field-hint">
          {t.agents.newAgentHint}
        </p>
      </form>
      {agents === null ? (
        <p>{t.loading}</p>
      ) : agents.length === 0 ? (
        <p>{t.agents.empty}</p>
      ) : (
        <ul class="agents">
          {agents.map((agent) => (
            <AgentCard
              key={agent.agentId}
              agent={agent}
              busy={busy === agent.agentId}
              onSwitch={(enabled) => void switchMemory(agent, enabled)}
              onMessage={say}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
