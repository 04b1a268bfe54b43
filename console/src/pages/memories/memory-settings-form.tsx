import { useState } from 'preact/hooks';
import type { MemorySettings } from '../../api/types';
import { useSignedIn } from '../../auth/session-context';
import { formatDateTime } from '../../components/format';
import { useI18n } from '../../i18n/i18n';

type Props = Readonly<{
  settings: MemorySettings;
  onChange: (settings: MemorySettings) => void;
  onMessage: (message: string, tone?: 'info' | 'error') => void;
}>;

/** Memory on/off, and a pause until a chosen time (in the browser's zone, like the picker). */
export function MemorySettingsForm({ settings, onChange, onMessage }: Props) {
  const { t, locale } = useI18n();
  const { api, timeZone } = useSignedIn();
  const [until, setUntil] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async (next: { enabled: boolean; pausedUntil: string | null }) => {
    setBusy(true);
    try {
      onChange(await api.changeMemorySettings(next));
      onMessage(t.memories.saved);
    } catch (failure) {
      onMessage((failure as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="settings-title" class="card">
      <h2 id="settings-title">
        {t.memories.settingsTitle}:{' '}
        <span class={`state state-${settings.status}`}>{t.memories.status[settings.status]}</span>
      </h2>
      <p class="switch">
        <input
          id="memory-enabled"
          type="checkbox"
          role="switch"
          checked={settings.enabled}
          disabled={busy}
          onChange={(event) =>
            void save({ enabled: event.currentTarget.checked, pausedUntil: settings.pausedUntil })
          }
        />
        <label for="memory-enabled">{t.memories.enabledLabel}</label>
      </p>
      {settings.status === 'paused' && settings.pausedUntil ? (
        <p>
          {t.memories.pausedUntil(formatDateTime(settings.pausedUntil, locale, timeZone))}{' '}
          <button
            type="button"
            disabled={busy}
            onClick={() => void save({ enabled: settings.enabled, pausedUntil: null })}
          >
            {t.memories.resume}
          </button>
        </p>
      ) : null}
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (until !== '')
            void save({ enabled: settings.enabled, pausedUntil: new Date(until).toISOString() });
        }}
      >
        <label for="pause-until">{t.memories.pauseLabel}</label>
        <input
          id="pause-until"
          type="datetime-local"
          required
          value={until}
          onInput={(event) => setUntil(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy || !settings.enabled}>
          {t.memories.pause}
        </button>
      </form>
    </section>
  );
}
