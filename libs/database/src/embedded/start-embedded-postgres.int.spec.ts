import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgresError, packagedServer, startEmbeddedPostgres } from '.';

const asRoot = process.getuid?.() === 0;
const itAsRoot = asRoot ? it : it.skip;
if (!asRoot) console.warn('embedded PostgreSQL from a 0700 folder: skipped, it needs root');

const folders: string[] = [];
function folder(prefix: string, mode: number): string {
  const path = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(path, mode);
  folders.push(path);
  return path;
}
afterAll(() => {
  for (const path of folders) rmSync(path, { recursive: true, force: true });
});

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

const ONE_SENTENCE =
  /^The embedded PostgreSQL could not start: [^\n]+; [^\n]+, or set DATABASE_URL to use a PostgreSQL server of your own\.$/;

describe('the embedded PostgreSQL', () => {
  itAsRoot(
    'runs from a folder only root may enter (a clone in /root): the server is copied where the ' +
      'postgres user can run it, the data lives in a folder of its own linked from the data folder',
    async () => {
      // The clone: a 0700 folder holding the package's binaries (a link: what matters is the path).
      const home = folder('engram-0700-home-', 0o700);
      const real = packagedServer();
      symlinkSync(real.nativeDir, join(home, 'native'));
      const packaged = {
        nativeDir: join(home, 'native'),
        version: `test-${randomBytes(4).toString('hex')}`,
      };
      const shareDir = folder('engram-0700-share-', 0o755);
      const dataDir = join(home, '.data', 'postgres');
      const password = randomBytes(12).toString('hex');
      const notices: string[] = [];
      const start = () =>
        startEmbeddedPostgres({
          dataDir,
          password,
          packaged,
          shareDir,
          onNotice: (notice) => notices.push(notice),
        });

      const first = await start();
      try {
        const [who] = await query<{ user: string; dir: string }>(
          first.url,
          `SELECT current_user AS user, current_setting('data_directory') AS dir`,
        );
        expect(who).toEqual({ user: 'postgres', dir: readlinkSync(dataDir) });
        await query(first.url, `CREATE TABLE kept AS SELECT 'still here' AS note`);
      } finally {
        await first.stop();
      }
      expect(lstatSync(dataDir).isSymbolicLink()).toBe(true);
      expect(readlinkSync(dataDir).startsWith(join(shareDir, 'data'))).toBe(true);
      expect(
        existsSync(
          join(
            shareDir,
            `postgres-${packaged.version}-${process.platform}-${process.arch}`,
            'bin',
            'postgres',
          ),
        ),
      ).toBe(true);
      expect(notices[0]).toMatch(/cannot enter .*: its data is in .*, linked from /);

      const second = await start();
      try {
        expect(await query(second.url, 'SELECT note FROM kept')).toEqual([{ note: 'still here' }]);
      } finally {
        await second.stop();
      }
    },
    120_000,
  );

  it('ends in one sentence with the remedy when its port is taken', async () => {
    const parent = folder('engram-port-taken-', 0o755);
    const taken: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const error = await startEmbeddedPostgres({
        dataDir: join(parent, 'data'),
        password: 'pw',
        port,
      }).catch((failure: unknown) => failure);
      expect(error).toBeInstanceOf(EmbeddedPostgresError);
      expect((error as Error).message).toMatch(ONE_SENTENCE);
      expect((error as Error).message).toContain(
        `port ${port} is in use; free port ${port}, or set DATABASE_URL`,
      );
    } finally {
      taken.close();
    }
  }, 60_000);

  it('ends in one sentence with the remedy when its data folder cannot be made', async () => {
    const parent = folder('engram-data-file-', 0o755);
    writeFileSync(join(parent, 'postgres'), 'a file where the data folder should be');
    const error = (await startEmbeddedPostgres({
      dataDir: join(parent, 'postgres'),
      password: 'pw',
    }).catch((failure: unknown) => failure)) as EmbeddedPostgresError;
    expect(error.message).toMatch(ONE_SENTENCE);
    expect(error.message).toContain(`its data folder ${join(parent, 'postgres')} cannot be used`);
    expect(error.sentenceFor('TEST_DATABASE_URL')).toMatch(/, or set TEST_DATABASE_URL to use/);
  });
});
