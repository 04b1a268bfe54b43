import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../scripts/build-if-stale';
import { scriptEnvironment } from '../support/test-database';

type Finished = Readonly<{ code: number | null; stdout: string; stderr: string }>;

function runSoak(args: readonly string[]): Promise<Finished> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(ROOT, 'dist', 'bench', 'soak', 'run-soak.js'), ...args],
      {
        cwd: ROOT,
        env: scriptEnvironment(),
        timeout: 85_000,
      },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/**
 * The soak script for 15 seconds (one worker SIGKILLed and restarted), so that it cannot rot: it must
 * finish, pass every invariant and exit 0. globalSetup built dist/.
 */
describe('npm run soak (smoke size)', () => {
  it('runs mixed traffic through a worker kill and passes every invariant', async () => {
    const { code, stdout, stderr } = await runSoak(['--seconds', '15', '--clients', '4']);
    const verdicts = [...stdout.matchAll(/^ {2}(PASS|FAIL) \((\d)\)/gm)].map((m) => m[1]);
    if (code !== 0)
      throw new Error(`the soak exited with ${code}:\n${stdout}\n${stderr.slice(-4000)}`);
    expect(verdicts).toEqual(Array(7).fill('PASS'));
    expect(stdout).toMatch(/Worker failovers: \d+\.\d+ s/);
    expect(code).toBe(0);
  }, 90_000);
});
