export type LlmOptions = Readonly<{
  /** Without a key, the offline implementations are used. */
  apiKey?: string;
  baseUrl?: string;
  model?: string;
  timeoutMs?: number;
  maxRetries?: number;
  clock?: () => Date;
}>;

export const DEFAULT_LLM_MODEL = 'gpt-4o-mini';
export const DEFAULT_LLM_TIMEOUT_MS = 20_000;

type Env = Readonly<Record<string, string | undefined>>;

/** The variables llmOptionsFromEnv reads (part of the configuration the README's table lists). */
export const LLM_VARIABLES = [
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'ENGRAM_LLM_MODEL',
  'ENGRAM_LLM_TIMEOUT_MS',
] as const;
type LlmVariable = (typeof LLM_VARIABLES)[number];

/** Reads OPENAI_API_KEY, OPENAI_BASE_URL, ENGRAM_LLM_MODEL and ENGRAM_LLM_TIMEOUT_MS. */
export function llmOptionsFromEnv(env: Env = process.env): LlmOptions {
  const apiKey = nonBlank(env, 'OPENAI_API_KEY');
  const baseUrl = nonBlank(env, 'OPENAI_BASE_URL');
  if (baseUrl !== undefined) checkHttpUrl(baseUrl, 'OPENAI_BASE_URL');
  return {
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
    model: nonBlank(env, 'ENGRAM_LLM_MODEL') ?? DEFAULT_LLM_MODEL,
    timeoutMs: timeoutMs(env),
  };
}

function nonBlank(env: Env, name: LlmVariable): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new Error(`Invalid configuration: ${name} is set but empty`);
  return value.trim();
}

function checkHttpUrl(value: string, name: LlmVariable): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`Invalid configuration: ${name} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`Invalid configuration: ${name} must be an http(s) URL, got "${value}"`);
  }
}

function timeoutMs(env: Env): number {
  const raw = nonBlank(env, 'ENGRAM_LLM_TIMEOUT_MS');
  if (raw === undefined) return DEFAULT_LLM_TIMEOUT_MS;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1) {
    throw new Error(
      `Invalid configuration: ENGRAM_LLM_TIMEOUT_MS must be a positive integer of milliseconds, got "${raw}"`,
    );
  }
  return value;
}
