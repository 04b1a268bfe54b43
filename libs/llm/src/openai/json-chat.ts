import type { Locale } from '@engram/domain';
import type OpenAI from 'openai';
import type { LlmOutcome, LlmUsage } from '../ports';
import type { PromptMessages } from '../prompts/prompt-messages';
import { type AnswerCheck, parseJsonAnswer } from './answer-check';
import { failureReason } from './failure-reason';

export type JsonRequest<T> = Readonly<{
  schemaName: string;
  schema: Record<string, unknown>;
  prompt: PromptMessages;
  locale: Locale;
  maxCompletionTokens: number;
  check: (value: unknown) => AnswerCheck<T>;
}>;

/**
 * One structured-output exchange with the chat completions API. Transport failures (429, 5xx,
 * timeouts) are retried by the SDK itself (maxRetries); an answer that does not parse or does not
 * pass its check is asked again `answerRetries` times, with the problem stated. Never throws.
 */
export class JsonChat {
  constructor(
    private readonly client: OpenAI,
    readonly model: string,
    private readonly timeoutMs: number,
    private readonly answerRetries = 1,
  ) {}

  async request<T>(request: JsonRequest<T>): Promise<LlmOutcome<T>> {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'system', content: request.prompt.system },
      { role: 'user', content: request.prompt.user },
    ];
    let usage: LlmUsage = { promptTokens: 0, completionTokens: 0 };
    let model = this.model;
    let reason = 'invalid_json';
    for (let attempt = 0; attempt <= this.answerRetries; attempt += 1) {
      let completion: OpenAI.Chat.Completions.ChatCompletion;
      const started = Date.now();
      try {
        completion = await this.client.chat.completions.create({
          model: this.model,
          messages,
          response_format: {
            type: 'json_schema',
            json_schema: { name: request.schemaName, strict: true, schema: request.schema },
          },
          max_completion_tokens: request.maxCompletionTokens,
        });
      } catch (error) {
        const elapsed = Date.now() - started;
        return { ok: false, reason: failureReason(error, elapsed, this.timeoutMs), model, usage };
      }
      usage = {
        promptTokens: usage.promptTokens + (completion.usage?.prompt_tokens ?? 0),
        completionTokens: usage.completionTokens + (completion.usage?.completion_tokens ?? 0),
      };
      if (typeof completion.model === 'string' && completion.model !== '') model = completion.model;
      const message = completion.choices?.[0]?.message;
      if (message?.refusal) return { ok: false, reason: 'refusal', model, usage };
      const content = message?.content ?? '';
      const parsed = parseJsonAnswer(content);
      const checked = parsed.ok ? request.check(parsed.value) : parsed;
      if (checked.ok) return { ok: true, value: checked.value, model, usage };
      reason = checked.reason;
      messages.push(
        { role: 'assistant', content },
        { role: 'user', content: correction(reason, request.locale) },
      );
    }
    return { ok: false, reason, model, usage };
  }
}

function correction(reason: string, locale: Locale): string {
  return locale === 'fr'
    ? `Ta réponse n'est pas valide (${reason}). Réponds à nouveau avec uniquement l'objet JSON conforme au schéma.`
    : `Your answer is not valid (${reason}). Answer again with only the JSON object matching the schema.`;
}
