import { chmodSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_API, BUILT_CLI } from '../support/built-server';
import { spawnBuilt } from '../support/engram-process';

const asRoot = process.getuid?.() === 0;
if (!asRoot) console.warn('npm start from a 0700 folder: skipped, it needs root');

/** The last line: what went wrong and what to do (the CLI says what it was doing before it). */
const ENDS_IN_ONE_SENTENCE =
  /(^|\n)(engram: )?The embedded PostgreSQL could not start: [^\n]+; [^\n]+, or set DATABASE_URL to use a PostgreSQL server of your own\.\n$/;

describe('npm start with no configuration (the embedded default)', () => {
  const folders: string[] = [];
  const folder = (mode: number) => {
    const path = mkdtempSync(join(tmpdir(), 'engram-start-'));
    chmodSync(path, mode);
    folders.push(path);
    return path;
  };
  afterAll(() => {
    for (const path of folders) rmSync(path, { recursive: true, force: true });
  });

  (asRoot ? it : it.skip)(
    'starts as root from a folder only root may enter (/root in a container) and answers',
    async () => {
      const home = folder(0o700);
      const api = spawnBuilt(
        BUILT_API,
        { ENGRAM_DATA_DIR: join(home, '.data'), PORT: '0' },
        { cwd: home },
      );
      try {
        const [, url] = await api.waitFor(/Engram listening on (http:\/\/[\d.]+:\d+)/, 60_000);
        const health = await fetch(`${url}/health`);
        expect(health.status).toBe(200);
        // The postgres user cannot enter the folder: its data lives elsewhere, linked from it.
        const relocated = readlinkSync(join(home, '.data', 'postgres'));
        folders.push(relocated);
        expect(relocated).toMatch(/^\/var\/lib\/engram\/data\//);
      } finally {
        api.child.kill('SIGTERM');
        expect(await api.exited).toBe(0);
      }
    },
    90_000,
  );

  it('ends in one sentence with its remedy, no stack trace, when the database cannot start', async () => {
    const dataDir = folder(0o755);
    // A file where the server's data folder should be.
    writeFileSync(join(dataDir, 'postgres'), '');
    for (const [script, args] of [
      [BUILT_API, []],
      [BUILT_CLI, ['rebuild', '--all']],
    ] as const) {
      const run = spawnBuilt(
        script,
        { ENGRAM_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' },
        { args },
      );
      expect(await run.exited).toBe(1);
      await run.closed;
      const stderr = run.errors();
      expect(stderr).toMatch(ENDS_IN_ONE_SENTENCE);
      expect(stderr).not.toMatch(/^\s+at /m);
      expect(stderr).toContain(`its data folder ${join(dataDir, 'postgres')} cannot be used`);
    }
  }, 60_000);
});
