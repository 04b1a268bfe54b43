import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Code without its layout, to compare the README's block with the compiled one. */
const tokens = (code: string) =>
  code
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(){}[\],;:=>.])\s*/g, '$1');

describe('the README client example', () => {
  it('is the code examples/readme-snippet.ts type-checks', () => {
    const readme = readFileSync(join(__dirname, '../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### TypeScript client'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const snippet = readFileSync(join(__dirname, 'readme-snippet.ts'), 'utf8');
    const body = /\{\n([\s\S]*)\n\}\n?$/.exec(
      snippet.slice(snippet.indexOf('export async function')),
    )?.[1];
    const imports = snippet.split('\n').filter((line) => line.startsWith('import '));

    expect(block).not.toBe('');
    expect(tokens(block)).toBe(tokens([...imports, body ?? ''].join('\n')));
  });
});
