import { Client, type Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { createDataSource } from './data-sources';
import { createPipelinePool, pipelinedTransaction } from './pipelined-transaction';

describe('statements in one pipelined transaction', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let pipeline: Pool;
  const insert = (id: number) => ({
    text: 'INSERT INTO pipelined (id) VALUES ($1) RETURNING id',
    values: [id],
  });
  const ids = async () =>
    (await dataSource.query<{ id: number }[]>('SELECT id FROM pipelined ORDER BY id')).map(
      (row) => row.id,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await createDataSource(
      database.ownerUrl,
      [],
      2,
      'engram-pipeline-test',
    ).initialize();
    await dataSource.query('CREATE TABLE pipelined (id int PRIMARY KEY)');
    pipeline = createPipelinePool(dataSource, 1);
  });
  afterAll(async () => {
    await pipeline.end();
    await dataSource.destroy();
    await database.drop();
  });

  it("answers each statement's rows in order, the statements prepared under one name per text, and commits them", async () => {
    const sent = jest.spyOn(Client.prototype, 'query');
    const rows = await pipelinedTransaction<{ id: number }>(pipeline, [
      insert(1),
      insert(2),
      { text: 'SELECT count(*)::int AS id FROM pipelined', values: [] },
    ]);
    const names = sent.mock.calls.map(([config]) =>
      typeof config === 'string' ? config : (config as { name?: string }).name,
    );
    sent.mockRestore();
    expect(rows).toEqual([[{ id: 1 }], [{ id: 2 }], [{ id: 2 }]]);
    expect(names[0]).toBe('BEGIN');
    expect(names[1]).toMatch(/^engram_[0-9a-f]{24}$/);
    expect(names[2]).toBe(names[1]);
    expect(names[3]).toMatch(/^engram_[0-9a-f]{24}$/);
    expect(names[3]).not.toBe(names[1]);
    expect(names[4]).toBe('COMMIT');
    expect(await ids()).toEqual([1, 2]);
  });

  it('writes nothing when one statement fails: the error is thrown, the statements before it are rolled back', async () => {
    await expect(pipelinedTransaction(pipeline, [insert(3), insert(1), insert(4)])).rejects.toThrow(
      /duplicate key/,
    );
    expect(await ids()).toEqual([1, 2]);
    // The connection (the pool's only one) is out of the failed transaction and goes on.
    await pipelinedTransaction(pipeline, [insert(3)]);
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('runs on a connection in pipeline mode: the queries of a transaction go without waiting for each answer', async () => {
    const client = await pipeline.connect();
    try {
      expect((client as unknown as { pipeline: boolean }).pipeline).toBe(true);
    } finally {
      client.release();
    }
  });
});
