import OpenAI from 'openai';
import { countedExtractor, countedIdentityCardWriter, countedSummarizer } from './counted';
import { DEFAULT_LLM_MODEL, DEFAULT_LLM_TIMEOUT_MS, type LlmOptions } from './llm-options';
import { OFFLINE_MODEL, OfflineExtractor } from './offline/offline-extractor';
import { OfflineSummarizer } from './offline/offline-summarizer';
import { TemplateIdentityCardWriter } from './offline/template-identity-card-writer';
import { JsonChat } from './openai/json-chat';
import { OpenAiIdentityCardWriter } from './openai/openai-identity-card-writer';
import { OpenAiMemoryExtractor } from './openai/openai-memory-extractor';
import { OpenAiSummarizer } from './openai/openai-summarizer';
import type { IdentityCardWriter, Llm, MemoryExtractor, Summarizer } from './ports';
import { LlmUsageCounter } from './usage-counter';

export { llmOptionsFromEnv } from './llm-options';
export type { LlmOptions } from './llm-options';

/** With an API key, the OpenAI-backed implementations; without, the deterministic offline ones. */
export function createLlm(options: LlmOptions = {}): Llm {
  const clock = options.clock ?? (() => new Date());
  const usage = new LlmUsageCounter();
  const parts = options.apiKey ? openAiParts(options) : offlineParts();
  const counting = { counter: usage, clock, model: parts.model };
  return {
    kind: parts.kind,
    model: parts.model,
    extractor: countedExtractor(parts.extractor, counting),
    summarizer: countedSummarizer(parts.summarizer, counting),
    identityCardWriter: countedIdentityCardWriter(parts.identityCardWriter, counting),
    usage,
  };
}

type Parts = Readonly<{
  kind: Llm['kind'];
  model: string;
  extractor: MemoryExtractor;
  summarizer: Summarizer;
  identityCardWriter: IdentityCardWriter;
}>;

function openAiParts(options: LlmOptions): Parts {
  const model = options.model ?? DEFAULT_LLM_MODEL;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const client = new OpenAI({
    apiKey: options.apiKey,
    // null, not undefined: the SDK would otherwise read OPENAI_BASE_URL from the environment itself.
    baseURL: options.baseUrl ?? null,
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? 2,
  });
  const chat = new JsonChat(client, model, timeoutMs);
  return {
    kind: 'openai',
    model,
    extractor: new OpenAiMemoryExtractor(chat),
    summarizer: new OpenAiSummarizer(chat),
    identityCardWriter: new OpenAiIdentityCardWriter(chat),
  };
}

function offlineParts(): Parts {
  return {
    kind: 'offline',
    model: OFFLINE_MODEL,
    extractor: new OfflineExtractor(),
    summarizer: new OfflineSummarizer(),
    identityCardWriter: new TemplateIdentityCardWriter(),
  };
}
