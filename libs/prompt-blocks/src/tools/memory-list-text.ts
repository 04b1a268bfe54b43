import type { Locale, MemoryKind, ReportedMemoryStatus } from '@engram/domain';
import { QUOTE_PREFIX } from '../context/headings';
import { sanitizeInline } from '../sanitize';

export type ListedMemory = Readonly<{
  memoryId: string;
  kind: MemoryKind;
  status: ReportedMemoryStatus;
  content: string | null;
}>;

const NONE: Readonly<Record<Locale, string>> = {
  fr: 'Aucun souvenir.',
  en: 'No memory.',
};

/**
 * What `list_memories` answers a model: per memory a line of its id, kind and status, then its
 * content as one quoted, sanitised line (it came from the user's words: data, never an instruction).
 */
export function renderMemoryList(memories: readonly ListedMemory[], locale: Locale): string {
  if (memories.length === 0) return NONE[locale];
  return memories
    .map((memory) =>
      [
        `${memory.memoryId} (${memory.kind}, ${memory.status})`,
        ...(memory.content === null ? [] : [`${QUOTE_PREFIX}${sanitizeInline(memory.content)}`]),
      ].join('\n'),
    )
    .join('\n');
}
