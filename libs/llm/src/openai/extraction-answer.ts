import { MEMORY_KINDS, type MemoryKind } from '@engram/domain';
import { DateTime } from 'luxon';
import type { CandidateDecision, ExtractedCandidate } from '../ports';
import { type AnswerCheck, invalidSchema, isRecord } from './answer-check';

export const MAX_CANDIDATES = 3;
export const MAX_CONTENT_LENGTH = 500;

/** Strict structured-output schema: every property required, optional values as null. */
export const EXTRACTION_SCHEMA: Record<string, unknown> = {
  type: 'object',
  properties: {
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: [...MEMORY_KINDS] },
          content: { type: 'string' },
          confidence: { type: 'number' },
          dueAt: { type: ['string', 'null'] },
          // What the candidate is to the existing memories (issue 20): add a new one, update (it
          // contradicts and supersedes) or none (it restates) the one whose id is `memory`.
          action: { type: 'string', enum: ['add', 'update', 'none'] },
          memory: { type: ['string', 'null'] },
        },
        required: ['kind', 'content', 'confidence', 'dueAt', 'action', 'memory'],
        additionalProperties: false,
      },
    },
  },
  required: ['candidates'],
  additionalProperties: false,
};

/**
 * Checks a parsed extraction answer. dueAt is normalized to UTC ISO (a time without offset is read in
 * the user's zone) and kept only on commitments, the one kind it means something for. An `update` or
 * `none` must name one of `memoryRefs`, the ids the prompt showed (the decision keeps that ref); an
 * answer without `action` (a server that ignores the strict schema) adds.
 */
export function checkExtractionAnswer(
  value: unknown,
  timeZone: string,
  memoryRefs: ReadonlySet<string> = new Set(),
): AnswerCheck<ExtractedCandidate[]> {
  if (!isRecord(value)) return invalidSchema('the answer is not an object');
  const candidates = value.candidates;
  if (!Array.isArray(candidates)) return invalidSchema('candidates is not an array');
  if (candidates.length > MAX_CANDIDATES) {
    return invalidSchema(`candidates has ${candidates.length} items, at most ${MAX_CANDIDATES}`);
  }
  const checked: ExtractedCandidate[] = [];
  for (const [index, raw] of candidates.entries()) {
    const candidate = checkCandidate(raw, `candidates[${index}]`, timeZone, memoryRefs);
    if (!candidate.ok) return candidate;
    checked.push(candidate.value);
  }
  return { ok: true, value: checked };
}

function checkDecision(
  raw: Record<string, unknown>,
  path: string,
  memoryRefs: ReadonlySet<string>,
): AnswerCheck<CandidateDecision | undefined> {
  const { action, memory } = raw;
  if (action === undefined || action === null || action === 'add')
    return { ok: true, value: undefined };
  if (action !== 'update' && action !== 'none') {
    return invalidSchema(`${path}.action is not one of add, update, none`);
  }
  if (typeof memory !== 'string' || !memoryRefs.has(memory)) {
    return invalidSchema(
      `${path}.memory must be the id of an existing memory when action is ${action}`,
    );
  }
  return { ok: true, value: { action, memoryId: memory } };
}

function checkCandidate(
  raw: unknown,
  path: string,
  timeZone: string,
  memoryRefs: ReadonlySet<string>,
): AnswerCheck<ExtractedCandidate> {
  if (!isRecord(raw)) return invalidSchema(`${path} is not an object`);
  const { kind, content, confidence, dueAt } = raw;
  if (typeof kind !== 'string' || !isMemoryKind(kind)) {
    return invalidSchema(`${path}.kind is not one of ${MEMORY_KINDS.join(', ')}`);
  }
  if (typeof content !== 'string') return invalidSchema(`${path}.content is not a string`);
  const text = content.trim();
  if (text.length < 1 || text.length > MAX_CONTENT_LENGTH) {
    return invalidSchema(`${path}.content must have 1 to ${MAX_CONTENT_LENGTH} characters`);
  }
  if (typeof confidence !== 'number' || !Number.isFinite(confidence)) {
    return invalidSchema(`${path}.confidence is not a number`);
  }
  if (confidence < 0 || confidence > 1) {
    return invalidSchema(`${path}.confidence is outside [0, 1]`);
  }
  if (dueAt !== undefined && dueAt !== null && typeof dueAt !== 'string') {
    return invalidSchema(`${path}.dueAt is neither a string nor null`);
  }
  let due: string | undefined;
  if (typeof dueAt === 'string' && dueAt.trim() !== '') {
    const parsed = parseDueAt(dueAt.trim(), timeZone);
    if (parsed === undefined) return invalidSchema(`${path}.dueAt is not an ISO date-time`);
    due = parsed;
  }
  const decision = checkDecision(raw, path, memoryRefs);
  if (!decision.ok) return decision;
  return {
    ok: true,
    value: {
      kind,
      content: text,
      confidence,
      ...(kind === 'commitment' && due !== undefined ? { dueAt: due } : {}),
      ...(decision.value === undefined ? {} : { decision: decision.value }),
    },
  };
}

function parseDueAt(text: string, timeZone: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/.test(text)) {
    return undefined;
  }
  let parsed = DateTime.fromISO(text, { zone: timeZone });
  if (!parsed.isValid) parsed = DateTime.fromISO(text, { zone: 'utc' });
  if (!parsed.isValid) return undefined;
  // A bare date is a day, not midnight: same default hour as the offline rules.
  if (!text.includes('T')) parsed = parsed.set({ hour: 9 });
  return parsed.toUTC().toISO() ?? undefined;
}

function isMemoryKind(kind: string): kind is MemoryKind {
  return (MEMORY_KINDS as readonly string[]).includes(kind);
}
