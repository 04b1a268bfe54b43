import { Client } from 'pg';
import { serverUrl } from '../../test/support/test-database';
import { withAutovacuum } from './autovacuum';

async function autovacuum(): Promise<string> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ autovacuum: string }>('SHOW autovacuum');
    return rows[0]!.autovacuum;
  } finally {
    await client.end();
  }
}

/** The reload reaches new sessions at once, the postmaster's children a moment later. */
async function until(expected: string): Promise<string> {
  let seen = await autovacuum();
  for (let i = 0; i < 100 && seen !== expected; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen = await autovacuum();
  }
  return seen;
}

/** The bench runs with autovacuum on, as production does, and leaves the server as it found it. */
describe('autovacuum during the bench', () => {
  it('is on while the bench runs, and as before once it is set back', async () => {
    const before = await autovacuum();
    const logged: string[] = [];
    const restore = await withAutovacuum(serverUrl(), (line) => logged.push(line));
    try {
      expect(await until('on')).toBe('on');
      expect(logged).toEqual(
        before === 'on' ? [] : ['autovacuum turned on for the run (the server had it off)'],
      );
    } finally {
      await restore();
    }
    expect(await until(before)).toBe(before);
  });

  it('leaves the server as it is when it may not change it', async () => {
    const logged: string[] = [];
    const restore = await withAutovacuum('postgres://nobody@127.0.0.1:1/none', (line) =>
      logged.push(line),
    );
    await restore();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^autovacuum left as it is: /);
  });
});
