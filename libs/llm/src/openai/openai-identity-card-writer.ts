import type { IdentityCardInput, IdentityCardWriter, LlmOutcome } from '../ports';
import { identityCardPrompt } from '../prompts/identity-card-prompt';
import { checkTextAnswer, textAnswerSchema } from './answer-check';
import type { JsonChat } from './json-chat';

const MAX_CARD_LENGTH = 6000;

export class OpenAiIdentityCardWriter implements IdentityCardWriter {
  constructor(private readonly chat: JsonChat) {}

  async write(input: IdentityCardInput): Promise<LlmOutcome<string>> {
    return this.chat.request({
      schemaName: 'identity_card',
      schema: textAnswerSchema('markdown'),
      prompt: identityCardPrompt(input),
      locale: input.locale,
      maxCompletionTokens: 3000,
      check: (value) => checkTextAnswer(value, 'markdown', MAX_CARD_LENGTH),
    });
  }
}
