import { useEffect, useState } from 'preact/hooks';
import { useSignedIn } from '../../auth/session-context';
import { useI18n } from '../../i18n/i18n';

/**
 * Said while the workspace's daily LLM budget holds back the analysis of some of my messages
 * (GET /v1/me/llm-usage lists that work until it runs, the next day).
 */
export function DeferredAnalysisNotice() {
  const { t } = useI18n();
  const { api } = useSignedIn();
  const [held, setHeld] = useState(false);

  useEffect(() => {
    api.llmUsage().then(
      (usage) => setHeld(usage.deferred.length > 0),
      () => setHeld(false),
    );
  }, [api]);

  return held ? (
    <p class="notice" role="status">
      {t.memories.analysisDeferred}
    </p>
  ) : null;
}
