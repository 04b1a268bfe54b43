import type { MemoryKind } from '../api/types';
import { useI18n } from '../i18n/i18n';

/** The channel an event came through (web chat, Telegram, email, or whatever the agent named). */
export function ChannelBadge({ channel }: { channel: string }) {
  const { t } = useI18n();
  return (
    <span class={`badge channel channel-${cssName(channel)}`}>
      {t.channels[channel] ?? channel}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useI18n();
  return (
    <span class={`badge status status-${cssName(status)}`}>{t.statuses[status] ?? status}</span>
  );
}

export function KindBadge({ kind }: { kind: MemoryKind }) {
  const { t } = useI18n();
  return <span class={`badge kind kind-${kind}`}>{t.kind[kind]}</span>;
}

function cssName(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}
