import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './build-if-stale';

/** The build step of `npm start` (server and console), as the npm script runs it. */
function startBuildStep(): { stderr: string; ms: number } {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'build-if-stale.js'), 'server', 'console'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(run.status).toBe(0);
  return { stderr: run.stderr, ms: performance.now() - started };
}

describe("npm start's build step", () => {
  it('does nothing when nothing changed since the last build, in well under a second', () => {
    // The tests' setup built everything; a step that builds again must name a source saved since
    // the previous step began (someone editing the tree meanwhile), never rebuild for nothing.
    let previousStep = 0;
    for (let step = 0; step < 5; step += 1) {
      const startedAt = Date.now();
      const { stderr, ms } = startBuildStep();
      if (stderr === '') {
        process.stdout.write(`npm start's build step with nothing stale: ${ms.toFixed(0)} ms\n`);
        expect(ms).toBeLessThan(1000);
        return;
      }
      for (const [, reason] of step === 0
        ? []
        : stderr.matchAll(/^Building the \w+ \((.*)\)…$/gm)) {
        expect(reason).toMatch(/ changed$/);
        const changed = reason!.replace(/ changed$/, '');
        expect(statSync(join(ROOT, changed)).mtimeMs).toBeGreaterThanOrEqual(previousStep);
      }
      previousStep = startedAt;
    }
    throw new Error('the tree kept changing: five build steps in a row had something to build');
  }, 300_000);
});
