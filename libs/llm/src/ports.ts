import type { Locale, MemoryKind } from '@engram/domain';
import type { LlmUsageCounter } from './usage-counter';

export type LlmPurpose = 'extraction' | 'summary' | 'identity_card';
export type LlmUsage = Readonly<{ promptTokens: number; completionTokens: number }>;
/** How long the call took (retries included), measured by the counting wrapper `createLlm` puts around each part. */
type Timed = Readonly<{ latencyMs?: number }>;
export type LlmOutcome<T> =
  | (Timed &
      Readonly<{
        ok: true;
        value: T;
        model: string;
        usage: LlmUsage;
        /**
         * Extraction only: candidates left out because they were instructions to the assistant
         * (`userMemoriesOnly`), counted per purpose by the usage counter. Absent means none.
         */
        droppedCandidates?: number;
      }>)
  | (Timed & Readonly<{ ok: false; reason: string; model: string; usage: LlmUsage }>);
export type ConversationLine = Readonly<{
  role: 'user' | 'assistant';
  text: string;
  occurredAt: string;
}>;
/**
 * One of the user's current (pending or approved) memories, shown to the extractor as data. With its
 * id, a candidate may name it: restated (reinforce it) or contradicted (supersede it); without one
 * (a test, the eval), a candidate can only be added.
 */
export type ExistingMemory = Readonly<{ memoryId?: string; kind: MemoryKind; content: string }>;
export type ExtractionInput = Readonly<{
  /** the human message just recorded */
  message: ConversationLine;
  /** language to write contents in */
  locale: Locale;
  /** IANA zone of the user, to resolve "vendredi" into a date */
  timeZone: string;
  /** the session's recent context (oldest first) */
  recentMessages: readonly ConversationLine[];
  existingMemories: readonly ExistingMemory[];
}>;
/**
 * What a candidate is to an existing memory (mem0's answer; absent: `add`, a new memory):
 * `update`, it contradicts that memory and supersedes it once approved ("moved to Paris" after
 * "lives in Lyon"); `none`, it says that memory again in other words, which is reinforced instead.
 */
export type CandidateDecision = Readonly<{ action: 'update' | 'none'; memoryId: string }>;
export type ExtractedCandidate = Readonly<{
  kind: MemoryKind;
  content: string;
  confidence: number;
  dueAt?: string;
  decision?: CandidateDecision;
}>;
export type SummaryInput = Readonly<{
  previousSummary: string;
  messages: readonly ConversationLine[];
  locale: Locale;
}>;
export type IdentityCardInput = Readonly<{
  memories: readonly Readonly<{ kind: MemoryKind; content: string; dueAt?: string }>[];
  locale: Locale;
}>;
export interface MemoryExtractor {
  extract(input: ExtractionInput): Promise<LlmOutcome<ExtractedCandidate[]>>;
}
export interface Summarizer {
  summarize(input: SummaryInput): Promise<LlmOutcome<string>>;
}
export interface IdentityCardWriter {
  write(input: IdentityCardInput): Promise<LlmOutcome<string>>;
}
export type Llm = Readonly<{
  kind: 'openai' | 'offline';
  model: string;
  extractor: MemoryExtractor;
  summarizer: Summarizer;
  identityCardWriter: IdentityCardWriter;
  usage: LlmUsageCounter;
}>;
