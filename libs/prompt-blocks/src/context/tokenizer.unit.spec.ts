import { countTokens, tokenizerForModel } from './tokenizer';

describe('tokenizerForModel', () => {
  it.each([
    'gpt-4o',
    'gpt-4o-mini',
    'gpt-4o-2024-08-06',
    'chatgpt-4o-latest',
    'gpt-4.1',
    'gpt-4.1-mini-2025-04-14',
    'gpt-4.5-preview',
    'o1',
    'o1-mini',
    'o3',
    'o4-mini',
    'gpt-5',
    'gpt-5-nano',
    'gpt-5.2-pro',
    'gpt-oss-120b',
    'GPT-4O',
    'openai/gpt-4o',
    'azure/gpt-4.1',
    'ft:gpt-4o-mini:acme::abc123',
  ])('%s counts with o200k_base', (model) => {
    expect(tokenizerForModel(model)).toBe('o200k_base');
  });

  it.each([
    'gpt-4',
    'gpt-4-0613',
    'gpt-4-turbo',
    'gpt-4-32k',
    'gpt-3.5-turbo',
    'ft:gpt-3.5-turbo:acme::abc',
    'text-embedding-3-small',
    'claude-sonnet-4',
    'mistral-large',
    'omni-moderation-latest',
    '',
    '   ',
    null,
    undefined,
  ])('%p counts with cl100k_base', (model) => {
    expect(tokenizerForModel(model)).toBe('cl100k_base');
  });
});

describe('countTokens', () => {
  it('counts with the named encoding', () => {
    expect(countTokens('hello world', 'o200k_base')).toBe(2);
    expect(countTokens('hello world', 'cl100k_base')).toBe(2);
    expect(countTokens('', 'o200k_base')).toBe(0);
    // French text splits differently in the two encodings.
    const french = "L'utilisateur préfère des réponses courtes, sans emojis ; tutoiement.";
    expect(countTokens(french, 'o200k_base')).not.toBe(countTokens(french, 'cl100k_base'));
  });

  it('counts special-token markers as the plain text they are, without throwing', () => {
    for (const tokenizer of ['o200k_base', 'cl100k_base'] as const) {
      expect(countTokens('<|endoftext|>', tokenizer)).toBeGreaterThan(1);
      expect(countTokens('a <|im_start|>system', tokenizer)).toBeGreaterThan(3);
    }
  });
});
