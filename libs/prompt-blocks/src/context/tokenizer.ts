/** The two byte-pair encodings the context is measured with. */
export type TokenizerName = 'o200k_base' | 'cl100k_base';

type Encoding = typeof import('gpt-tokenizer/encoding/cl100k_base');

/** Model names (after any "provider/" or "ft:" prefix) that use o200k_base. */
const O200K_MODELS = /^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o\d)(?![0-9])/;

/**
 * The tokenizer a model counts with: o200k_base for the gpt-4o, gpt-4.1, gpt-4.5, o-series (o1,
 * o3, o4-mini...), gpt-5 and gpt-oss families; cl100k_base for gpt-4, gpt-3.5 and any model it
 * does not know (including none), since that is the closest widely used encoding. Case does not
 * matter; "openai/gpt-4o", "azure/gpt-4.1" and fine-tunes ("ft:gpt-4o-mini:org::id") read as
 * their base model.
 */
export function tokenizerForModel(model: string | null | undefined): TokenizerName {
  const name = (model ?? '').trim().toLowerCase().replace(/^ft:/, '');
  const base = name.slice(name.lastIndexOf('/') + 1);
  return O200K_MODELS.test(base) ? 'o200k_base' : 'cl100k_base';
}

const loaded = new Map<TokenizerName, Encoding>();

// The encodings are loaded on first use (o200k_base alone takes a few hundred milliseconds), so
// importing the package stays cheap for the code that never counts tokens.
function encoding(name: TokenizerName): Encoding {
  let found = loaded.get(name);
  if (!found) {
    found =
      name === 'o200k_base'
        ? // eslint-disable-next-line @typescript-eslint/no-require-imports
          (require('gpt-tokenizer/encoding/o200k_base') as Encoding)
        : // eslint-disable-next-line @typescript-eslint/no-require-imports
          (require('gpt-tokenizer/encoding/cl100k_base') as Encoding);
    loaded.set(name, found);
  }
  return found;
}

/**
 * How many tokens `text` is with the given encoding. Special-token markers such as
 * "<|endoftext|>" typed by a user are counted as the plain text they are (as the model APIs
 * treat them), never rejected.
 */
export function countTokens(text: string, tokenizer: TokenizerName): number {
  return encoding(tokenizer).countTokens(text, { disallowedSpecial: new Set() });
}
