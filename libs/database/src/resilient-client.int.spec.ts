import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type Pool, type PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createDataSource } from './data-sources';

describe("a data source's connection killed while nothing listens to it", () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await createDataSource(
      database.ownerUrl,
      [],
      2,
      'engram-resilient-test',
    ).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('does not crash the process; the query on it fails, and the pool goes on with a new connection', async () => {
    const pool = (dataSource.driver as unknown as { master: Pool }).master;
    // Checked out and between queries: neither the pool nor TypeORM listens to it now.
    const held: PoolClient = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const killer = new Client({ connectionString: database.ownerUrl });
    await killer.connect();
    try {
      await killer.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await killer.end();
    }
    // The FATAL message arrives as an 'error' event; without a listener it would be thrown.
    await sleep(200);
    await expect(held.query('SELECT 1')).rejects.toThrow();
    held.release(true);
    expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });
});
