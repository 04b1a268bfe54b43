import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locale, MemoryKind } from '@engram/domain';

export const SPLITS = ['dev', 'held-out'] as const;
export type Split = (typeof SPLITS)[number];
export const EVAL_LOCALES: readonly Locale[] = ['en', 'fr'];

export type ExpectedMemory = Readonly<{
  kind: MemoryKind;
  /** other kinds a careful reader could fairly give the same memory */
  alsoKinds?: readonly MemoryKind[];
  /** the gist in a few words, in the turn's language */
  content: string;
}>;

/** One labelled user turn of test/fixtures/extraction-eval (README.md there says how it is written). */
export type EvalTurn = Readonly<{
  id: string;
  user: string;
  session: string;
  at: string;
  text: string;
  expected: readonly ExpectedMemory[];
  locale: Locale;
  split: Split;
}>;

const FIXTURE_DIR = join('test', 'fixtures', 'extraction-eval');

/** Every turn of the development set, in file order (sessions in order, turns in order). */
export function loadDevSet(dir: string = fixtureDir()): EvalTurn[] {
  return EVAL_LOCALES.flatMap((locale) =>
    SPLITS.flatMap((split) =>
      readFileSync(join(dir, `${locale}.${split}.jsonl`), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => ({
          ...(JSON.parse(line) as Omit<EvalTurn, 'locale' | 'split'>),
          locale,
          split,
        })),
    ),
  );
}

/**
 * The fixture folder, found upwards from this file (the same code runs from eval/ under jest and from
 * dist/eval/ for npm run eval:extraction), else from the working directory.
 */
function fixtureDir(): string {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      const candidate = join(dir, FIXTURE_DIR);
      if (existsSync(candidate)) return candidate;
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(`${FIXTURE_DIR} not found above ${__dirname} nor ${process.cwd()}`);
}
