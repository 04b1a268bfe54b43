import { distinctCandidates } from '../distinct-candidates';
import { userMemoriesOnly } from '../injection/user-memories-only';
import type { ExtractedCandidate, ExtractionInput, LlmOutcome, MemoryExtractor } from '../ports';
import { extractionPrompt, memoryRef } from '../prompts/extraction-prompt';
import { checkExtractionAnswer, EXTRACTION_SCHEMA } from './extraction-answer';
import type { JsonChat } from './json-chat';

export class OpenAiMemoryExtractor implements MemoryExtractor {
  constructor(private readonly chat: JsonChat) {}

  async extract(input: ExtractionInput): Promise<LlmOutcome<ExtractedCandidate[]>> {
    // The refs the prompt shows, read back into the memories' ids (issue 20's update / none).
    const ids = new Map(
      input.existingMemories.map((memory, index) => [memoryRef(index), memory.memoryId]),
    );
    const outcome = await this.chat.request({
      schemaName: 'memory_candidates',
      schema: EXTRACTION_SCHEMA,
      prompt: extractionPrompt(input),
      locale: input.locale,
      maxCompletionTokens: 2000,
      check: (value) => checkExtractionAnswer(value, input.timeZone, new Set(ids.keys())),
    });
    if (!outcome.ok) return outcome;
    const decided = outcome.value.map((candidate) => withMemoryId(candidate, ids));
    // Whatever the prompt says, the model may have been talked into returning an instruction.
    const { kept, dropped } = userMemoriesOnly(input.message.text, decided);
    return {
      ...outcome,
      value: distinctCandidates(kept),
      ...(dropped > 0 ? { droppedCandidates: dropped } : {}),
    };
  }
}

/** The decision's ref as the memory's id; dropped (an addition) for a memory shown without one. */
function withMemoryId(
  candidate: ExtractedCandidate,
  ids: ReadonlyMap<string, string | undefined>,
): ExtractedCandidate {
  if (candidate.decision === undefined) return candidate;
  const { decision, ...rest } = candidate;
  const memoryId = ids.get(decision.memoryId);
  return memoryId === undefined ? rest : { ...rest, decision: { ...decision, memoryId } };
}
