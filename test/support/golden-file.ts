import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Compares text with the golden file `dir/name`; `UPDATE_GOLDEN=1 npx jest …` rewrites the file
 * instead (then review the diff).
 */
export function expectGolden(dir: string, name: string, text: string): void {
  const path = join(dir, name);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, `${text}\n`);
  expect(`${text}\n`).toBe(readFileSync(path, 'utf8'));
}
