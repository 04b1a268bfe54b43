import { MEMORY_KINDS, type Locale, type MemoryKind, normalizeContent } from '@engram/domain';
import { DateTime } from 'luxon';
import { withoutInstructions } from '../injection/user-memories-only';
import type { IdentityCardInput, IdentityCardWriter, LlmOutcome } from '../ports';
import { OFFLINE_MODEL } from './offline-extractor';

const HEADINGS: Readonly<Record<Locale, Readonly<Record<MemoryKind, string>>>> = {
  fr: {
    identity: 'Identité',
    preference: 'Préférences',
    ongoing: 'En cours',
    commitment: 'Engagements',
    fact: 'Faits',
    context: 'Contexte',
  },
  en: {
    identity: 'Identity',
    preference: 'Preferences',
    ongoing: 'Ongoing',
    commitment: 'Commitments',
    fact: 'Facts',
    context: 'Context',
  },
};

const EMPTY: Readonly<Record<Locale, string>> = {
  fr: 'Aucune information mémorisée pour l’instant.',
  en: 'Nothing remembered yet.',
};

type Memory = IdentityCardInput['memories'][number];

/** The identity card without an LLM: the memories as markdown sections, one per kind. */
export class TemplateIdentityCardWriter implements IdentityCardWriter {
  async write(input: IdentityCardInput): Promise<LlmOutcome<string>> {
    return {
      ok: true,
      value: identityCard(input),
      model: OFFLINE_MODEL,
      usage: { promptTokens: 0, completionTokens: 0 },
    };
  }
}

export function identityCard(input: IdentityCardInput): string {
  const seen = new Set<string>();
  const unique = withoutInstructions(input.memories).filter((memory) => {
    const key = normalizeContent(memory.content);
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const sections = MEMORY_KINDS.flatMap((kind) => {
    const memories = unique.filter((memory) => memory.kind === kind);
    if (memories.length === 0) return [];
    const ordered = kind === 'commitment' ? [...memories].sort(byDueDate) : memories;
    const bullets = ordered.map((memory) => `- ${bullet(memory, input.locale)}`);
    return [`## ${HEADINGS[input.locale][kind]}\n\n${bullets.join('\n')}`];
  });
  return sections.length === 0 ? EMPTY[input.locale] : sections.join('\n\n');
}

function bullet(memory: Memory, locale: Locale): string {
  const content = memory.content.trim().replace(/\s+/g, ' ');
  if (memory.kind !== 'commitment' || memory.dueAt === undefined) return content;
  const due = DateTime.fromISO(memory.dueAt, { zone: 'utc' });
  if (!due.isValid) return content;
  return locale === 'fr'
    ? `${content} (échéance : ${due.toFormat('yyyy-MM-dd')})`
    : `${content} (due ${due.toFormat('yyyy-MM-dd')})`;
}

/** Dated commitments first, soonest first; undated ones after, in their given order. */
function byDueDate(a: Memory, b: Memory): number {
  if (a.dueAt === undefined) return b.dueAt === undefined ? 0 : 1;
  if (b.dueAt === undefined) return -1;
  return Date.parse(a.dueAt) - Date.parse(b.dueAt);
}
