import { createLlm, llmOptionsFromEnv } from './create-llm';

describe('llmOptionsFromEnv', () => {
  it('has defaults and no key', () => {
    expect(llmOptionsFromEnv({})).toEqual({ model: 'gpt-4o-mini', timeoutMs: 20000 });
  });

  it('reads every variable', () => {
    expect(
      llmOptionsFromEnv({
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'http://localhost:11434/v1',
        ENGRAM_LLM_MODEL: 'llama3.1',
        ENGRAM_LLM_TIMEOUT_MS: '5000',
      }),
    ).toEqual({
      apiKey: 'sk-test',
      baseUrl: 'http://localhost:11434/v1',
      model: 'llama3.1',
      timeoutMs: 5000,
    });
  });

  it.each([
    [{ ENGRAM_LLM_TIMEOUT_MS: 'soon' }, 'ENGRAM_LLM_TIMEOUT_MS'],
    [{ ENGRAM_LLM_TIMEOUT_MS: '0' }, 'ENGRAM_LLM_TIMEOUT_MS'],
    [{ ENGRAM_LLM_TIMEOUT_MS: '1.5' }, 'ENGRAM_LLM_TIMEOUT_MS'],
    [{ OPENAI_BASE_URL: 'not a url' }, 'OPENAI_BASE_URL'],
    [{ OPENAI_BASE_URL: 'ftp://example.com' }, 'OPENAI_BASE_URL'],
    [{ OPENAI_API_KEY: ' ' }, 'OPENAI_API_KEY'],
    [{ ENGRAM_LLM_MODEL: '' }, 'ENGRAM_LLM_MODEL'],
  ])('refuses %j, naming the variable', (env, variable) => {
    expect(() => llmOptionsFromEnv(env)).toThrow(variable);
  });
});

describe('createLlm', () => {
  it('is offline without an API key, and counts the offline calls', async () => {
    const llm = createLlm({});
    expect(llm.kind).toBe('offline');
    expect(llm.model).toBe('offline-rules');
    await llm.summarizer.summarize({ previousSummary: '', messages: [], locale: 'fr' });
    expect(llm.usage.snapshot().summary).toEqual({
      calls: 1,
      failures: 0,
      failuresByReason: {},
      droppedCandidates: 0,
      promptTokens: 0,
      completionTokens: 0,
    });
  });

  it('is OpenAI-backed with a key', () => {
    const llm = createLlm({ apiKey: 'sk-test', model: 'gpt-4.1-mini' });
    expect(llm.kind).toBe('openai');
    expect(llm.model).toBe('gpt-4.1-mini');
  });
});
