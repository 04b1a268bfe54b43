import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './build-if-stale';

export type PostgresProcess = Readonly<{ url: string; stop: () => Promise<void> }>;

const BUILT_EMBEDDED_POSTGRES = join(
  ROOT,
  'dist',
  'libs',
  'database',
  'src',
  'embedded-postgres.js',
);

/**
 * An embedded PostgreSQL of a test's own, started from a child process: jest's module sandbox cannot
 * load embedded-postgres (an ES module) itself. Stopping it is a clean shutdown of the server.
 */
export async function startPostgresProcess(
  options: Readonly<{ dataDir: string; password: string; port?: number }>,
): Promise<PostgresProcess> {
  const script = `
    const { startEmbeddedPostgres } = require(${JSON.stringify(BUILT_EMBEDDED_POSTGRES)});
    startEmbeddedPostgres(${JSON.stringify(options)}).then((server) => {
      process.stdout.write('READY ' + server.url + '\\n');
      process.once('SIGTERM', () => server.stop().then(() => process.exit(0)));
    }, (error) => { console.error(error); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`PostgreSQL exited (${code}): ${output}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
