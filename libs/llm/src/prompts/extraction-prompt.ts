import { DateTime } from 'luxon';
import type { ExtractionInput } from '../ports';
import { dataSection, fillTemplate } from './data-section';
import { EXTRACTION_PROMPT_EN } from './extraction.en';
import { EXTRACTION_PROMPT_FR } from './extraction.fr';
import type { PromptMessages } from './prompt-messages';

/** Recent context beyond this is noise for one message and costs tokens. */
const MAX_RECENT_MESSAGES = 10;

export function extractionPrompt(input: ExtractionInput): PromptMessages {
  const template = input.locale === 'fr' ? EXTRACTION_PROMPT_FR : EXTRACTION_PROMPT_EN;
  const system = fillTemplate(template, {
    referenceTime: referenceTime(input.message.occurredAt, input.timeZone, input.locale),
    timeZone: input.timeZone,
  });
  const intro =
    input.locale === 'fr'
      ? 'Message à analyser et son contexte :'
      : 'Message to analyse and its context:';
  const user = `${intro}\n${dataSection({
    message_to_analyse: { text: input.message.text, occurred_at: input.message.occurredAt },
    recent_messages: input.recentMessages
      .slice(-MAX_RECENT_MESSAGES)
      .map((line) => ({ role: line.role, text: line.text, occurred_at: line.occurredAt })),
    existing_memories: input.existingMemories.map((memory, index) => ({
      id: memoryRef(index),
      kind: memory.kind,
      content: memory.content,
    })),
  })}`;
  return { system, user };
}

/**
 * The id an existing memory is shown with: short, so the model copies it right, and no stored id
 * (an HMAC of the content) in the prompt. The answer's `memory` is read back through it.
 */
export function memoryRef(index: number): string {
  return `m${index + 1}`;
}

/** "lundi 8 juin 2026 à 18:40 (UTC+2)": the weekday lets the model resolve "vendredi". */
function referenceTime(occurredAt: string, timeZone: string, locale: 'fr' | 'en'): string {
  const zoned = DateTime.fromISO(occurredAt, { setZone: true }).setZone(timeZone);
  const at = zoned.isValid ? zoned : DateTime.fromISO(occurredAt, { zone: 'utc' });
  if (!at.isValid) return occurredAt;
  const format = locale === 'fr' ? "cccc d LLLL yyyy 'à' HH:mm" : "cccc, LLLL d, yyyy 'at' HH:mm";
  return `${at.setLocale(locale).toFormat(format)} (${at.toISO() ?? occurredAt})`;
}
