import type { LlmOutcome, Summarizer, SummaryInput } from '../ports';
import { summaryPrompt } from '../prompts/summary-prompt';
import { checkTextAnswer, textAnswerSchema } from './answer-check';
import type { JsonChat } from './json-chat';

/** Longer than the 1,200 asked for: a slightly long summary is still better than none. */
const MAX_SUMMARY_LENGTH = 4000;

export class OpenAiSummarizer implements Summarizer {
  constructor(private readonly chat: JsonChat) {}

  async summarize(input: SummaryInput): Promise<LlmOutcome<string>> {
    return this.chat.request({
      schemaName: 'conversation_summary',
      schema: textAnswerSchema('summary'),
      prompt: summaryPrompt(input),
      locale: input.locale,
      maxCompletionTokens: 2000,
      check: (value) => checkTextAnswer(value, 'summary', MAX_SUMMARY_LENGTH),
    });
  }
}
