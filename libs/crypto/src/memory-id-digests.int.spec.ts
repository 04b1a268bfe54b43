import crypto from 'node:crypto';
import { Pool } from 'pg';
import { DataKeyDestroyedError, KeyStore, memoryIdDigests } from '@engram/crypto';
import { memoryIdFor } from '@engram/domain';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { TEST_MASTER_KEY } from '../../../test/support/test-runtime';

const LYON = 'Habite à Lyon';

/** Memory ids under the owner's key (HKDF of their data key, then HMAC): stable, private, shredded. */
describe('memoryIdDigests', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.appUrl, max: 4 });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  /** A process's view: its own key store (and cache) on the shared data keys. */
  const idIn = async (keys: KeyStore, userId: string, content = LYON) =>
    memoryIdFor(await memoryIdDigests(keys).digestFor('w1', userId), 'w1', userId, 0, content);

  it('gives every process the same id for the same content of the same owner', async () => {
    const api = new KeyStore(pool, TEST_MASTER_KEY);
    const worker = new KeyStore(pool, TEST_MASTER_KEY);
    expect(await idIn(api, 'alice')).toBe(await idIn(worker, 'alice', 'habite a lyon !'));
    expect(await idIn(api, 'alice', 'Habite à Paris')).not.toBe(await idIn(api, 'alice'));
  });

  it('gives two owners different ids for the same content (each under their own key)', async () => {
    const keys = new KeyStore(pool, TEST_MASTER_KEY);
    expect(await idIn(keys, 'bob')).not.toBe(await idIn(keys, 'carol'));
  });

  it('derives an owner’s key once while the key store holds their data key, and each owner’s apart', async () => {
    const digests = memoryIdDigests(new KeyStore(pool, TEST_MASTER_KEY));
    const hkdf = jest.spyOn(crypto, 'hkdfSync');
    try {
      const first = await digests.digestFor('w1', 'erin');
      const again = await digests.digestFor('w1', 'erin');
      expect(again(LYON)).toBe(first(LYON));
      expect(hkdf).toHaveBeenCalledTimes(1);
      await digests.digestFor('w1', 'frank');
      expect(hkdf).toHaveBeenCalledTimes(2);
    } finally {
      hkdf.mockRestore();
    }
  });

  it('cannot compute an erased owner’s ids any more: the key they came from is destroyed', async () => {
    const keys = new KeyStore(pool, TEST_MASTER_KEY);
    await idIn(keys, 'dave');
    await keys.destroyKey('w1', 'dave');
    await expect(idIn(keys, 'dave')).rejects.toBeInstanceOf(DataKeyDestroyedError);
    await expect(idIn(new KeyStore(pool, TEST_MASTER_KEY), 'dave')).rejects.toBeInstanceOf(
      DataKeyDestroyedError,
    );
  });
});
