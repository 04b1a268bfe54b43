import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../scripts/build-if-stale';
import { undoneIfInterrupted } from './on-interrupt';

const BUILT = join(ROOT, 'dist', 'bench', 'support', 'on-interrupt.js');

/**
 * A run that is killed undoes what it changed: the built helper in a process of its own, two nested
 * cleanups, a SIGTERM while the work waits.
 */
describe('undoneIfInterrupted', () => {
  it('runs the cleanups, innermost first, and exits 143 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-interrupt-'));
    const log = join(dir, 'log');
    const script = `
      const { appendFileSync } = require('node:fs');
      const { undoneIfInterrupted } = require(${JSON.stringify(BUILT)});
      const note = (line) => async () => appendFileSync(${JSON.stringify(log)}, line + '\\n');
      undoneIfInterrupted(note('outer'), () =>
        undoneIfInterrupted(note('inner'), async () => {
          process.stdout.write('working\\n');
          await new Promise(() => setInterval(() => undefined, 1000)); // a scenario running
        }),
      );`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(existsSync(log) && readFileSync(log, 'utf8')).toBe('inner\nouter\n');
  });

  it('runs its cleanup once when the work ends, and no longer listens for signals', async () => {
    const undone: string[] = [];
    const before = process.listenerCount('SIGTERM');
    await expect(
      undoneIfInterrupted(
        async () => void undone.push('cleanup'),
        async () => {
          expect(process.listenerCount('SIGTERM')).toBe(before + 1);
          throw new Error('scenario failed');
        },
      ),
    ).rejects.toThrow('scenario failed');
    expect(undone).toEqual(['cleanup']);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
