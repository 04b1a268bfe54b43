import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateLocalSecrets } from '@engram/config';
import { BUILT_CLI } from '../support/built-server';

describe('the built CLI: engram token', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-cli-token-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers without a database or the server’s modules, saying which secret it signed with', () => {
    loadOrCreateLocalSecrets(dataDir); // what the first npm start left
    // What keeps the command fast (0.3 s against 25 s once) is that it never loads Nest or TypeORM:
    // asserted on the modules the process loaded, not on a wall-clock time that a busy machine
    // stretches (a bound of 1 s failed twice under the rest of the suite).
    const probe = join(dataDir, 'loaded-modules.js');
    writeFileSync(
      probe,
      `process.on('exit', () => process.stderr.write('heavy modules: ' + JSON.stringify(
        Object.keys(require.cache).filter((path) => /node_modules[\\\\/](@nestjs[\\\\/](core|common)|typeorm)[\\\\/]/.test(path))
          .map((path) => path.replace(/^.*node_modules[\\\\/]/, ''))) + '\\n'));`,
    );
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      [
        '--require',
        probe,
        BUILT_CLI,
        'token',
        '--ws',
        'demo',
        '--user',
        'alice',
        '--roles',
        'user',
      ],
      { env: { PATH: process.env.PATH, ENGRAM_DATA_DIR: dataDir }, encoding: 'utf8' },
    );
    process.stdout.write(
      `engram token (built, a new node process): ${(performance.now() - started).toFixed(0)} ms\n`,
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(run.stderr).toContain(`signed with the embedded default's secret in ${dataDir}`);
    expect(run.stderr).toContain('heavy modules: []');
  });
});
