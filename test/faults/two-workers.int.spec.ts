import { Client } from 'pg';
import { spawnEngram, type EngramProcess } from '../support/engram-process';
import { eventually } from '../support/test-app';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const TTL_SECONDS = 1;
const ENV = { ENGRAM_LEASE_TTL_SECONDS: String(TTL_SECONDS) };

type Lease = { name: string; holder: string | null; live: boolean };

/** Two worker processes on one database: they split the partitions, and one takes over when the other dies. */
describe('two worker processes', () => {
  let database: TestDatabase;
  let owner: Client;
  const workers: EngramProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    await owner.end();
    await database.drop();
  });

  const leases = async () =>
    (
      await owner.query<Lease>(
        `SELECT name, holder, holder IS NOT NULL AND expires_at > now() AS live
         FROM worker_leases ORDER BY name`,
      )
    ).rows;
  const holders = (rows: Lease[]) =>
    new Set(rows.filter((row) => row.live).map((row) => row.holder!));
  const workerIdOf = (worker: EngramProcess) => `:${worker.child.pid}:`;

  it('share the partitions, never both on one, and fail over within 4/3 of the lease', async () => {
    workers.push(spawnEngram('worker', database, ENV), spawnEngram('worker', database, ENV));
    await Promise.all(workers.map((worker) => worker.waitFor(/lease acquired/)));
    const [first, second] = workers as [EngramProcess, EngramProcess];
    const countsOf = (rows: Lease[]) =>
      [first, second].map(
        (worker) => rows.filter((row) => row.holder?.includes(workerIdOf(worker))).length,
      );
    // The first to start takes everything, then gives back what exceeds its share.
    const shared = await eventually(leases, (rows) => {
      const [a, b] = countsOf(rows);
      return rows.length > 0 && rows.every((row) => row.live) && Math.abs(a! - b!) <= 1;
    });
    expect(holders(shared).size).toBe(2);
    const counts = countsOf(shared);
    // Every partition has one holder (the primary key), and the shares are fair: 9 and 8 of 17.
    expect(counts[0]! + counts[1]!).toBe(shared.length);
    expect(Math.abs(counts[0]! - counts[1]!)).toBeLessThanOrEqual(1);

    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    const takenOver = await eventually(
      leases,
      (rows) => rows.every((row) => row.live && row.holder!.includes(workerIdOf(second))),
      15_000,
    );
    const failoverMs = Date.now() - killedAt;
    expect(takenOver.every((row) => row.holder!.includes(workerIdOf(second)))).toBe(true);
    expect(failoverMs).toBeLessThan(((TTL_SECONDS * 4) / 3) * 1000 + 3000);
    process.stdout.write(
      `two workers: ${counts.join(' + ')} partitions; failover after SIGKILL in ${failoverMs} ms ` +
        `(leases of ${TTL_SECONDS} s)\n`,
    );
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);
});
