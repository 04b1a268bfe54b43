import type { AuditAccessKind, MemoryKind } from '@engram/domain';

/**
 * What the activity feed keeps of one event, in structured fields, so that its line can be written
 * in the reader's language (`activitySummary`). The only texts from outside are those the feed has
 * always shown, cut short by the projection: the beginning of the user's message or of a memory
 * (`excerpt`), an action's tool, target and summary, a reason or an error.
 */
export type ActivityEntry =
  | Readonly<{ type: 'MessageRecorded'; role: 'user' | 'assistant'; excerpt?: string }>
  | Readonly<{ type: 'MemoryExtractionFailed' | 'RollingSummaryFailed'; reason: string }>
  | Readonly<{ type: 'RollingSummaryExtended'; messageCount: number }>
  | Readonly<{ type: 'MemoryCandidateDetected'; memoryKind: MemoryKind; excerpt: string }>
  | Readonly<{ type: 'MemorySettingsChanged'; enabled: boolean; pausedUntil: string | null }>
  | Readonly<{ type: 'ActionProposed' } & ActivityAction>
  | Readonly<{ type: 'ActionAborted'; reason: string | null }>
  | Readonly<{ type: 'ActionFailed'; error: string }>
  /** The daily LLM budget held an extraction or a summary back until `until`. */
  | Readonly<{ type: 'LlmCallDeferred'; purpose: 'extraction' | 'summary'; until: string }>
  | Readonly<{
      type: 'AuditAccessRecorded';
      access: AuditAccessKind;
      auditorId: string;
      asOf: string | null;
    }>
  | Readonly<{ type: FactOnlyType }>;

/** Event types whose line says what happened and nothing more. */
export const FACT_ONLY_TYPES = [
  'MemoryReinforced',
  'MemoryApproved',
  'MemoryRejected',
  'MemoryExpired',
  'MemoryEvicted',
  'MemorySuperseded',
  'MemoryDeleted',
  'MemoriesWiped',
  'IdentityCardRegenerated',
  'ActionConfirmed',
  'ActionExecuted',
  'ActionExpired',
] as const;
export type FactOnlyType = (typeof FACT_ONLY_TYPES)[number];

/** How the feed names an action: its tool, target and summary, as the agent proposed them. */
export type ActivityAction = Readonly<{ tool: string; target: string | null; summary: string }>;

/** The fields stored beside the event type (`details` of the read model): the entry less its type. */
export type ActivityDetails = Readonly<Record<string, unknown>>;

/**
 * The entry a stored row stands for: its type and its details. A row of a type this code does not
 * know (written by a newer version) keeps its type and is shown as "Event X".
 */
export function activityEntryOf(type: string, details: ActivityDetails): ActivityEntry {
  return { ...details, type } as ActivityEntry;
}

/** The details to store for an entry: everything but its type. */
export function detailsOf(entry: ActivityEntry): ActivityDetails {
  const { type: _type, ...details } = entry;
  return details;
}
