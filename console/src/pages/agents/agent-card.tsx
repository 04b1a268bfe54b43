import type { WorkspaceAgent } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { formatDateTime } from '../../components/format';
import { useI18n } from '../../i18n/i18n';
import { AgentKeys } from './agent-keys';

type Props = Readonly<{
  agent: WorkspaceAgent;
  busy: boolean;
  onSwitch: (enabled: boolean) => void;
  onMessage: (text: string, tone: 'info' | 'error') => void;
}>;

/** One agent: its "Enable Memory" switch, when it was seen and who last switched it, its keys. */
export function AgentCard({ agent, busy, onSwitch, onMessage }: Props) {
  const { t, locale } = useI18n();
  const { timeZone } = useSignedIn();
  const when = (iso: string) => formatDateTime(iso, locale, timeZone);
  const id = `agent-memory-${agent.agentId}`;
  return (
    <li class="card agent">
      <h2 class="agent-id">{agent.agentId}</h2>
      <p class="switch">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={agent.memoryEnabled}
          disabled={busy}
          onChange={(event) => onSwitch(event.currentTarget.checked)}
        />
        <label for={id}>{t.agents.enableMemory}</label>
        <span class={`state state-${agent.memoryEnabled ? 'enabled' : 'disabled'}`}>
          {agent.memoryEnabled ? t.agents.on : t.agents.off}
        </span>
      </p>
      <p class="memory-meta">
        {agent.firstSeenAt && agent.lastSeenAt
          ? t.agents.seen(agent.messageCount, when(agent.firstSeenAt), when(agent.lastSeenAt))
          : t.agents.neverSeen}
        {agent.updatedAt && agent.updatedBy
          ? ` · ${t.agents.switchedBy(agent.updatedBy, when(agent.updatedAt))}`
          : ''}
      </p>
      <AgentKeys agentId={agent.agentId} onMessage={onMessage} />
    </li>
  );
}
