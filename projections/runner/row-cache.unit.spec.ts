import type { BatchWrites } from './apply-batch';
import type { Projection } from './projection';
import { RowCache } from './row-cache';
import type { RowTable } from './row-table';

type Row = { workspaceId: string; userId: string; id: string; value: number };

const projection = {
  name: 'test',
  key: ['workspaceId', 'userId', 'id'],
} as unknown as Projection<Row>;

const row = (userId: string, id: string, value = 0): Row => ({
  workspaceId: 'w',
  userId,
  id,
  value,
});
const key = (userId: string, id: string) => ({ workspaceId: 'w', userId, id });
const writes = (changes: Partial<BatchWrites<Row>>): BatchWrites<Row> => ({
  ownerDeletes: [],
  deletes: [],
  upserts: [],
  ...changes,
});

/** A table of `rows` that records the keys it is asked for. */
function table(rows: Row[]) {
  const asked: string[] = [];
  const rowTable: RowTable<Row> = {
    findByKeys: (keys) => {
      asked.push(...keys.map((k) => `${k.userId}/${k.id}`));
      return Promise.resolve(
        rows.filter((r) => keys.some((k) => k.userId === r.userId && k.id === r.id)),
      );
    },
    deleteWhere: () => Promise.resolve(),
    upsert: () => Promise.resolve(),
  };
  return { rowTable, asked };
}

describe('row cache', () => {
  it('reads from the table only the rows it does not hold', async () => {
    const cache = new RowCache(projection);
    const { rowTable, asked } = table([row('a', '1'), row('a', '2')]);
    await cache.reading(rowTable).findByKeys([]);
    cache.commit(writes({ upserts: [row('a', '1', 7)] }));
    expect(
      await cache.reading(rowTable).findByKeys([key('a', '1'), key('a', '2'), key('a', '3')]),
    ).toEqual([row('a', '1', 7), row('a', '2')]);
    expect(asked).toEqual(['a/2', 'a/3']);
  });

  it('holds nothing for a projection that never looks rows up', () => {
    const cache = new RowCache(projection);
    cache.commit(writes({ upserts: [row('a', '1')] }));
    expect(cache.size).toBe(0);
  });

  it('learns only from what a batch committed', async () => {
    const cache = new RowCache(projection);
    const { rowTable, asked } = table([row('a', '1')]);
    await cache.reading(rowTable).findByKeys([key('a', '1')]);
    await cache.reading(rowTable).findByKeys([key('a', '1')]);
    expect(asked).toEqual(['a/1', 'a/1']);
    expect(cache.size).toBe(0);
  });

  it('forgets deleted rows, by key or by owner', async () => {
    const cache = new RowCache(projection);
    const { rowTable, asked } = table([]);
    await cache.reading(rowTable).findByKeys([]);
    cache.commit(writes({ upserts: [row('a', '1'), row('a', '2'), row('b', '1'), row('b', '2')] }));
    cache.commit(
      writes({ deletes: [key('a', '1')], ownerDeletes: [{ workspaceId: 'w', userId: 'b' }] }),
    );
    await cache.reading(rowTable).findByKeys([key('a', '1'), key('a', '2'), key('b', '1')]);
    expect(asked).toEqual(['a/1', 'b/1']);
  });

  it('keeps at most its limit of rows, forgetting the least recently used', async () => {
    const cache = new RowCache(projection, 2);
    const { rowTable, asked } = table([]);
    await cache.reading(rowTable).findByKeys([]);
    cache.commit(writes({ upserts: [row('a', '1'), row('a', '2')] }));
    await cache.reading(rowTable).findByKeys([key('a', '1')]);
    cache.commit(writes({ upserts: [row('a', '3')] }));
    expect(cache.size).toBe(2);
    await cache.reading(rowTable).findByKeys([key('a', '1'), key('a', '2'), key('a', '3')]);
    expect(asked).toEqual(['a/2']);
  });
});
