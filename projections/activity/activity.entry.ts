import type { DomainEvent } from '@engram/domain';
import type { DecodedEvent } from '@engram/event-store';
import type { ActivityAction, ActivityEntry } from '@engram/prompt-blocks';

/** How much of a user's message (or a memory's content) the feed keeps. */
export const EXCERPT_LENGTH = 60;
/** How much of a reason, an error, an action's tool, target or summary the feed keeps. */
export const REASON_LENGTH = 80;

/** `text` on one line, cut to `max` characters (code points) with an ellipsis when longer. */
export function excerpt(text: string, max: number): string {
  const line = text.replace(/\s+/gu, ' ').trim();
  const characters = Array.from(line);
  if (characters.length <= max) return line;
  return `${characters
    .slice(0, Math.max(0, max - 1))
    .join('')
    .trimEnd()}…`;
}

/** The channel an event happened on: its own (data.channel), else the request's (metadata.channel). */
export function eventChannel(event: DecodedEvent<DomainEvent>): string | null {
  const { data } = event.event;
  const channel = 'channel' in data ? data.channel : undefined;
  return typeof channel === 'string' ? channel : (event.metadata.channel ?? null);
}

/**
 * What the feed keeps of an event, as structured fields that `activitySummary` (libs/prompt-blocks)
 * writes in the reader's language: no line of text is stored, and of the user's own words only the
 * beginning of a message or of a memory (EXCERPT_LENGTH). Pure: the same event gives the same entry.
 */
export function activityEntry(event: DecodedEvent<DomainEvent>): ActivityEntry {
  const { event: payload } = event;
  const { type } = payload;
  switch (payload.type) {
    case 'MessageRecorded': {
      const { data } = payload;
      return data.role === 'user'
        ? { type: payload.type, role: 'user', excerpt: excerpt(data.text, EXCERPT_LENGTH) }
        : { type: payload.type, role: 'assistant' };
    }
    case 'MemoryExtractionFailed':
    case 'RollingSummaryFailed': {
      const { data } = payload;
      return { type: payload.type, reason: excerpt(data.reason, REASON_LENGTH) };
    }
    case 'RollingSummaryExtended':
      return { type: payload.type, messageCount: payload.data.messageCount };
    case 'MemoryCandidateDetected': {
      const { data } = payload;
      return {
        type: payload.type,
        memoryKind: data.kind,
        excerpt: excerpt(data.content, EXCERPT_LENGTH),
      };
    }
    case 'MemorySettingsChanged': {
      const { data } = payload;
      return { type: payload.type, enabled: data.enabled, pausedUntil: data.pausedUntil };
    }
    case 'ActionProposed':
      return { type: payload.type, ...activityAction(payload.data) };
    case 'ActionAborted': {
      const { reason } = payload.data;
      return { type: payload.type, reason: reason ? excerpt(reason, REASON_LENGTH) : null };
    }
    case 'ActionFailed':
      return { type: payload.type, error: excerpt(payload.data.error, REASON_LENGTH) };
    case 'LlmCallDeferred': {
      const { data } = payload;
      return { type: payload.type, purpose: data.purpose, until: data.until };
    }
    case 'AuditAccessRecorded': {
      const { data } = payload;
      return {
        type: payload.type,
        access: data.access,
        auditorId: excerpt(data.auditorId, REASON_LENGTH),
        asOf: data.asOf ?? null,
      };
    }
    default:
      // The type says it all (FACT_ONLY_TYPES; one this code has no line for reads "Event X").
      return { type } as ActivityEntry;
  }
}

/** An action's tool, target and summary as the feed keeps them (cut to REASON_LENGTH). */
export function activityAction(
  action: Readonly<{ tool: string; target?: string | null | undefined; summary: string }>,
): ActivityAction {
  return {
    tool: excerpt(action.tool, REASON_LENGTH),
    target: action.target ? excerpt(action.target, REASON_LENGTH) : null,
    summary: excerpt(action.summary, REASON_LENGTH),
  };
}
