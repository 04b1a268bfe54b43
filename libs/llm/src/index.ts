export * from './ports';
export * from './usage-counter';
export { createLlm, llmOptionsFromEnv } from './create-llm';
export {
  DEFAULT_LLM_MODEL,
  DEFAULT_LLM_TIMEOUT_MS,
  LLM_VARIABLES,
  type LlmOptions,
} from './llm-options';
export { OFFLINE_MODEL, OfflineExtractor } from './offline/offline-extractor';
export { OfflineSummarizer } from './offline/offline-summarizer';
export { TemplateIdentityCardWriter } from './offline/template-identity-card-writer';
