import { isInstructionToAssistant } from '../injection/instruction-to-assistant';
import type { ConversationLine, LlmOutcome, Summarizer, SummaryInput } from '../ports';
import { OFFLINE_MODEL } from './offline-extractor';
import { normalizeText, truncate } from './text';

export const MAX_SUMMARY_LENGTH = 1500;
const MAX_USER_LINE = 200;
const MAX_ASSISTANT_LINE = 140;
/** Said instead of a message that is an instruction to the assistant, so the summary never repeats it. */
const INSTRUCTION_LEFT_OUT = {
  fr: "(une consigne adressée à l'assistant, non reprise)",
  en: '(an instruction to the assistant, left out)',
} as const;

/**
 * Extractive rolling summary: one compact line per new message (its first sentences) appended to
 * the previous summary, oldest lines dropped to stay under MAX_SUMMARY_LENGTH characters.
 */
export class OfflineSummarizer implements Summarizer {
  async summarize(input: SummaryInput): Promise<LlmOutcome<string>> {
    return {
      ok: true,
      value: summarize(input),
      model: OFFLINE_MODEL,
      usage: { promptTokens: 0, completionTokens: 0 },
    };
  }
}

export function summarize(input: SummaryInput): string {
  const previous = input.previousSummary
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const added = input.messages.flatMap((message) => {
    const line = summaryLine(message, input.locale);
    return line === undefined ? [] : [line];
  });
  const lines = [...previous, ...added];
  while (lines.length > 1 && lines.join('\n').length > MAX_SUMMARY_LENGTH) lines.shift();
  return truncate(lines.join('\n'), MAX_SUMMARY_LENGTH);
}

function summaryLine(message: ConversationLine, locale: 'fr' | 'en'): string | undefined {
  const text = normalizeText(message.text).replace(/\s+/g, ' ');
  if (text === '') return undefined;
  const speaker =
    message.role === 'user'
      ? locale === 'fr'
        ? 'Utilisateur'
        : 'User'
      : locale === 'fr'
        ? 'Assistant'
        : 'Assistant';
  const separator = locale === 'fr' ? ' : ' : ': ';
  const limit = message.role === 'user' ? MAX_USER_LINE : MAX_ASSISTANT_LINE;
  const said = isInstructionToAssistant(text)
    ? INSTRUCTION_LEFT_OUT[locale]
    : leadingSentences(text, limit);
  return `- ${speaker}${separator}${said}`;
}

/** As many whole first sentences as fit, or the first one cut at a word. */
function leadingSentences(text: string, limit: number): string {
  const parts = text.split(/(?<=[.!?…])\s+/u);
  let kept = '';
  for (const part of parts) {
    const next = kept === '' ? part : `${kept} ${part}`;
    if (next.length > limit) break;
    kept = next;
  }
  return kept === '' ? truncate(text, limit) : kept;
}
