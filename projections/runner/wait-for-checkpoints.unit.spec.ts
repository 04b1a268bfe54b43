import type { DataSource } from 'typeorm';
import { CommittedCheckpoints } from './committed-checkpoints';
import { waitForAllCommitted, waitForCheckpoints } from './wait-for-checkpoints';

/** A checkpoints table in memory, counting the queries (only `query` is used by the wait). */
function checkpointsTable(positions: Record<string, bigint>) {
  const asked: string[][] = [];
  const dataSource = {
    query: (_sql: string, [names]: [string[]]) => {
      asked.push(names);
      return Promise.resolve(
        names
          .filter((name) => positions[name] !== undefined)
          .map((name) => ({ name, position: positions[name]!.toString() })),
      );
    },
  } as unknown as DataSource;
  return { dataSource, asked, positions };
}

const later = (ms: number, work: () => void) => setTimeout(work, ms);

describe('waiting for checkpoints', () => {
  it('is woken by the commits of the runners of this process, without querying', async () => {
    const table = checkpointsTable({});
    const committed = new CommittedCheckpoints();
    committed.started('memories', 3n);
    committed.started('sessions', 9n);
    later(20, () => committed.committed('memories', 7n, true));
    later(40, () => committed.committed('memories', 10n, false));
    const started = Date.now();
    const behind = await waitForCheckpoints(table.dataSource, ['memories', 'sessions'], 9n, 5000, {
      committed,
    });
    expect(behind).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(table.asked).toEqual([]);
  });

  it('reads the table for the projections another worker runs, and only for those', async () => {
    const table = checkpointsTable({ sessions: 2n });
    const committed = new CommittedCheckpoints();
    committed.started('memories', 5n);
    later(30, () => (table.positions.sessions = 5n));
    const behind = await waitForCheckpoints(table.dataSource, ['memories', 'sessions'], 5n, 5000, {
      committed,
    });
    expect(behind).toEqual([]);
    expect(table.asked.length).toBeGreaterThan(1);
    expect(table.asked.every((names) => names.join() === 'sessions')).toBe(true);
  });

  it('asks the table again only for a position past the checkpoint it last read there', async () => {
    const table = checkpointsTable({ sessions: 40n, memories: 7n });
    const committed = new CommittedCheckpoints();
    const wait = (position: bigint) =>
      waitForCheckpoints(table.dataSource, ['sessions', 'memories'], position, 5000, { committed });
    expect(await wait(5n)).toEqual([]);
    expect(table.asked).toEqual([['sessions', 'memories']]);
    // Both were seen past 6: no query. Past 7, memories is asked again, sessions still is not.
    expect(await wait(6n)).toEqual([]);
    expect(table.asked).toHaveLength(1);
    later(30, () => (table.positions.memories = 12n));
    expect(await wait(10n)).toEqual([]);
    expect(table.asked.slice(1).every((names) => names.join() === 'memories')).toBe(true);
    expect(committed.tablePositionOf('memories')).toBe(12n);
    // Without the worker's checkpoints (the API), every wait reads the table.
    await waitForCheckpoints(table.dataSource, ['sessions'], 5n, 5000);
    expect(table.asked.at(-1)).toEqual(['sessions']);
  });

  it('takes a checkpoint read in the table as reached for a moment only, and the last read as it', async () => {
    const table = checkpointsTable({ sessions: 40n });
    const committed = new CommittedCheckpoints(30);
    const wait = (position: bigint) =>
      waitForCheckpoints(table.dataSource, ['sessions'], position, 5000, { committed });
    await wait(5n);
    await wait(6n);
    expect(table.asked).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A rebuild reset it meanwhile: the next read says so, and is what the next wait goes by.
    table.positions.sessions = 3n;
    later(30, () => (table.positions.sessions = 10n));
    expect(await wait(6n)).toEqual([]);
    expect(table.asked.length).toBeGreaterThan(2);
    expect(committed.tablePositionOf('sessions')).toBe(10n);
  });

  it('falls back to the table once the runner of a projection stops here', async () => {
    const table = checkpointsTable({ memories: 8n });
    const committed = new CommittedCheckpoints();
    committed.started('memories', 1n);
    later(20, () => committed.stopped('memories'));
    const behind = await waitForCheckpoints(table.dataSource, ['memories'], 8n, 5000, {
      committed,
    });
    expect(behind).toEqual([]);
    expect(table.asked).toEqual([['memories']]);
  });

  it('gives up after the timeout, naming the projections behind', async () => {
    const committed = new CommittedCheckpoints();
    committed.started('memories', 1n);
    const started = Date.now();
    const behind = await waitForCheckpoints(checkpointsTable({}).dataSource, ['memories'], 2n, 50, {
      committed,
    });
    expect(behind).toEqual(['memories']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('ends at once when the caller stops', async () => {
    const committed = new CommittedCheckpoints();
    committed.started('memories', 1n);
    const stop = new AbortController();
    later(20, () => stop.abort());
    const started = Date.now();
    const behind = await waitForCheckpoints(
      checkpointsTable({ sessions: 0n }).dataSource,
      ['memories', 'sessions'],
      2n,
      10_000,
      { committed, signal: stop.signal },
    );
    expect(behind).toEqual(['memories', 'sessions']);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('waiting for every projection of this process', () => {
  it('ends once each has committed the position, not counting one that stopped', async () => {
    const committed = new CommittedCheckpoints();
    committed.started('memories', 3n);
    committed.started('sessions', 9n);
    committed.started('summaries', 1n);
    later(20, () => committed.committed('memories', 9n, false));
    later(40, () => committed.stopped('summaries'));
    const started = Date.now();
    await waitForAllCommitted(committed, 9n, 10_000);
    expect(committed.behind(9n)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('ends after the timeout when one stays behind, or at once when the caller stops', async () => {
    const committed = new CommittedCheckpoints();
    committed.started('memories', 1n);
    let started = Date.now();
    await waitForAllCommitted(committed, 2n, 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(committed.behind(2n)).toEqual(['memories']);

    const stop = new AbortController();
    later(20, () => stop.abort());
    started = Date.now();
    await waitForAllCommitted(committed, 2n, 10_000, stop.signal);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not wait when no projection runs here', async () => {
    const started = Date.now();
    await waitForAllCommitted(new CommittedCheckpoints(), 5n, 10_000);
    expect(Date.now() - started).toBeLessThan(100);
  });
});
