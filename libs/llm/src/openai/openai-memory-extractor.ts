import { distinctCandidates } from '../distinct-candidates';
import { userMemoriesOnly } from '../injection/user-memories-only';
import type { ExtractedCandidate, ExtractionInput, LlmOutcome, MemoryExtractor } from '../ports';
import { extractionPrompt } from '../prompts/extraction-prompt';
import { checkExtractionAnswer, EXTRACTION_SCHEMA } from './extraction-answer';
import type { JsonChat } from './json-chat';

export class OpenAiMemoryExtractor implements MemoryExtractor {
  constructor(private readonly chat: JsonChat) {}

  async extract(input: ExtractionInput): Promise<LlmOutcome<ExtractedCandidate[]>> {
    const outcome = await this.chat.request({
      schemaName: 'memory_candidates',
      schema: EXTRACTION_SCHEMA,
      prompt: extractionPrompt(input),
      locale: input.locale,
      maxCompletionTokens: 2000,
      check: (value) => checkExtractionAnswer(value, input.timeZone),
    });
    if (!outcome.ok) return outcome;
    // Whatever the prompt says, the model may have been talked into returning an instruction.
    const { kept, dropped } = userMemoriesOnly(input.message.text, outcome.value);
    return {
      ...outcome,
      value: distinctCandidates(kept),
      ...(dropped > 0 ? { droppedCandidates: dropped } : {}),
    };
  }
}
