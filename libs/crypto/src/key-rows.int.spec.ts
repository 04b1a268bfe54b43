import { Pool, type QueryConfig } from 'pg';
import { DataKeyMissingError, KeyStore } from '@engram/crypto';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { TEST_MASTER_KEY } from '../../../test/support/test-runtime';
import { KeyRowReader } from './key-rows';

/** A pool that records the text of every statement it is sent. */
function recording(pool: Pool): { pool: Pool; texts: string[] } {
  const texts: string[] = [];
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const spy = ((config: string | QueryConfig, ...rest: unknown[]) => {
    texts.push(typeof config === 'string' ? config : config.text);
    return query(config, ...rest);
  }) as unknown as Pool['query'];
  return { pool: Object.assign(Object.create(pool) as Pool, { query: spy }), texts };
}

const isKeyRead = (text: string) => /FROM unnest/.test(text) && /data_keys/.test(text);

/** Data keys not cached are read for all the owners asked for in one turn, in one statement. */
describe('KeyRowReader (data keys read together)', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.appUrl, max: 4 });
    // Keys of 50 owners, made by one process (another process's cache is cold for them).
    const writer = new KeyStore(pool, TEST_MASTER_KEY);
    for (let i = 0; i < 50; i += 1) await writer.keyForWriting('w1', `user-${i}`);
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  it('reads the keys of 50 owners asked for at once in one statement, each the same key', async () => {
    const { pool: counted, texts } = recording(pool);
    const writer = new KeyStore(pool, TEST_MASTER_KEY);
    const reader = new KeyStore(counted, TEST_MASTER_KEY);
    const owners = Array.from({ length: 50 }, (_, i) => `user-${i}`);
    const keys = await Promise.all(owners.map((user) => reader.keyForReading('w1', user)));
    expect(texts.filter(isKeyRead)).toHaveLength(1);
    expect(texts).toHaveLength(1);
    for (const [i, user] of owners.entries()) {
      expect(keys[i]).toEqual(await writer.keyForWriting('w1', user));
    }
    // Cached now: asked again, nothing is read.
    await reader.keyForReading('w1', 'user-7');
    expect(texts).toHaveLength(1);
  });

  it('answers each owner on their own: a missing one fails, a destroyed one is erased, the others open', async () => {
    const writer = new KeyStore(pool, TEST_MASTER_KEY);
    await writer.keyForWriting('w1', 'erased');
    await writer.destroyKey('w1', 'erased');
    const { pool: counted, texts } = recording(pool);
    const reader = new KeyStore(counted, TEST_MASTER_KEY);
    const [live, missing, erased] = await Promise.allSettled([
      reader.keyForReading('w1', 'user-1'),
      reader.keyForReading('w1', 'nobody'),
      reader.keyForReading('w1', 'erased'),
    ]);
    expect(texts.filter(isKeyRead)).toHaveLength(1);
    expect(live).toEqual({
      status: 'fulfilled',
      value: await writer.keyForWriting('w1', 'user-1'),
    });
    expect(missing.status === 'rejected' && missing.reason).toBeInstanceOf(DataKeyMissingError);
    expect(erased).toEqual({ status: 'fulfilled', value: undefined });
  });

  it('keeps owners of another workspace with the same user id apart', async () => {
    const writer = new KeyStore(pool, TEST_MASTER_KEY);
    const other = await writer.keyForWriting('w2', 'user-1');
    const reader = new KeyStore(pool, TEST_MASTER_KEY);
    const [first, second] = await Promise.all([
      reader.keyForReading('w1', 'user-1'),
      reader.keyForReading('w2', 'user-1'),
    ]);
    expect(second).toEqual(other);
    expect(first).not.toEqual(other);
  });

  it('creates the keys of new owners written at once, each read first in one shared statement', async () => {
    const { pool: counted, texts } = recording(pool);
    const keys = new KeyStore(counted, TEST_MASTER_KEY);
    const created = await Promise.all(
      ['new-a', 'new-b', 'new-c'].map((user) => keys.keyForWriting('w1', user)),
    );
    expect(texts.filter(isKeyRead)).toHaveLength(1);
    expect(texts.filter((text) => /INSERT INTO data_keys/.test(text))).toHaveLength(3);
    const reader = new KeyStore(pool, TEST_MASTER_KEY);
    expect(await reader.keyForReading('w1', 'new-b')).toEqual(created[1]);
  });

  it('rejects everyone who shared a failed read, and the next read goes to the database again', async () => {
    let failures = 1;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    const flaky = Object.assign(Object.create(pool) as Pool, {
      query: ((...args: unknown[]) =>
        failures-- > 0
          ? Promise.reject(new Error('connection terminated'))
          : query(...args)) as unknown as Pool['query'],
    });
    const reader = new KeyRowReader(flaky);
    const reads = await Promise.allSettled([
      reader.read('w1', 'user-1'),
      reader.read('w1', 'user-2'),
    ]);
    expect(reads.map((read) => read.status)).toEqual(['rejected', 'rejected']);
    const [row, again] = await Promise.all([
      reader.read('w1', 'user-1'),
      reader.read('w1', 'user-1'),
    ]);
    expect(row?.wrapped_key).toBeInstanceOf(Buffer);
    expect(row?.key_version).toEqual(expect.any(Number));
    expect(again).toEqual(row);
  });
});
