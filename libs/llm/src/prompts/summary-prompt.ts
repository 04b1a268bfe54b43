import type { SummaryInput } from '../ports';
import { dataSection } from './data-section';
import type { PromptMessages } from './prompt-messages';
import { SUMMARY_PROMPT_EN } from './summary.en';
import { SUMMARY_PROMPT_FR } from './summary.fr';

export function summaryPrompt(input: SummaryInput): PromptMessages {
  const intro =
    input.locale === 'fr'
      ? 'Résumé précédent et nouveaux messages :'
      : 'Previous summary and new messages:';
  return {
    system: input.locale === 'fr' ? SUMMARY_PROMPT_FR : SUMMARY_PROMPT_EN,
    user: `${intro}\n${dataSection({
      previous_summary: input.previousSummary,
      new_messages: input.messages.map((line) => ({
        role: line.role,
        text: line.text,
        occurred_at: line.occurredAt,
      })),
    })}`,
  };
}
