import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from './config';

const ROOT = join(__dirname, '..', '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The variables named in the first column of the table under "## Configuration". */
function configurationTable(): string[] {
  const section = README.split(/^## /m).find((part) => part.startsWith('Configuration\n')) ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  return rows
    .slice(2) // the header and its separator
    .flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)])
    .map((match) => match[1]!);
}

/** The variables the project's own sources read from `process.env`, by name (dotted or bracketed). */
function variablesReadFromProcessEnv(): Set<string> {
  const found = new Set<string>();
  const visit = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry !== 'node_modules') visit(join(path, entry));
      }
    } else if (/\.(ts|tsx|js|mjs)$/.test(path)) {
      const text = readFileSync(path, 'utf8');
      for (const match of text.matchAll(
        /process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g,
      )) {
        found.add((match[1] ?? match[2])!);
      }
    }
  };
  for (const folder of ['apps', 'libs', 'projections', 'bench', 'test', 'scripts', 'console']) {
    visit(join(ROOT, folder));
  }
  return found;
}

describe("the README's configuration table", () => {
  it('is the list of variables the configuration loader reads, no more, no less', () => {
    const read = new Set<string>();
    const nothing: Record<string, string | undefined> = {};
    const recording = new Proxy(nothing, {
      get: (_, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    });
    loadConfig(recording);
    expect([...read].sort()).toEqual([...CONFIG_VARIABLES].sort());
    expect(configurationTable().sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('leaves no other variable the code reads unexplained (the tests and the bench have their own)', () => {
    const system = new Set(['PATH']);
    const unexplained = [...variablesReadFromProcessEnv()].filter(
      (name) => !system.has(name) && !new RegExp(`\`${name}[\`=]`).test(README),
    );
    expect(unexplained).toEqual([]);
  });
});
