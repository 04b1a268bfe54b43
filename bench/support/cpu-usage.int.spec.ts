import { Client } from 'pg';
import { serverUrl } from '../../test/support/test-database';
import { availableParallelism } from 'node:os';
import {
  ceilingRate,
  countCpu,
  cpuPerItem,
  cpuSecondsBetween,
  lifetimeCpuSeconds,
  ownCpuSeconds,
  postgresServerPids,
  processCpuSeconds,
} from './cpu-usage';

/**
 * What the export scenario's ceilings are computed from: the CPU of the bench process and of every
 * process of the PostgreSQL server on this machine (the tests' server runs here).
 */
describe('the CPU the bench counts', () => {
  it("finds a connection's backend among the server's processes and counts the work it does", async () => {
    const client = new Client({ connectionString: serverUrl() });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const backend = rows[0]!.pid;
      expect(postgresServerPids()).toContain(backend);
      const before = processCpuSeconds([backend]);
      await client.query('SELECT count(*) FROM generate_series(1, 5000000)');
      const used = cpuSecondsBetween(before, processCpuSeconds([backend]));
      expect(used).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it('counts a backend opened after the count began from its start (a worker started meanwhile)', async () => {
    const count = countCpu();
    const client = new Client({ connectionString: serverUrl() });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await client.query('SELECT count(*) FROM generate_series(1, 5000000)');
      const backend = lifetimeCpuSeconds([rows[0]!.pid]);
      expect(backend).toBeGreaterThan(0);
      const counted = count();
      expect(counted.parts.postgres).toBeGreaterThanOrEqual(backend);
      expect(counted.total).toBeCloseTo(
        Object.values(counted.parts).reduce((sum, part) => sum + part, 0),
      );
      expect(cpuPerItem({ total: 0.5, parts: { postgres: 0.25 } }, 1000)).toEqual({
        total: 500,
        postgres: 250,
      });
    } finally {
      await client.end();
    }
  });

  it("counts this process's own CPU", () => {
    const before = ownCpuSeconds();
    let spin = 0;
    for (let i = 0; i < 20_000_000; i += 1) spin = (spin + i) % 7;
    expect(spin).toBeGreaterThanOrEqual(0);
    expect(ownCpuSeconds()).toBeGreaterThan(before);
  });

  it('gives the rate with every core busy at the CPU per item, and none without a count', () => {
    // 1,000 items in 0.5 CPU second: 500 µs each, so 2,000 a second per core.
    expect(ceilingRate(1000, 0.5)).toBeCloseTo(2000 * availableParallelism());
    expect(ceilingRate(1000, 0)).toBeNaN();
  });

  it('counts nothing for processes it cannot read', () => {
    expect(cpuSecondsBetween(new Map(), processCpuSeconds([2 ** 30]))).toBeNaN();
  });
});
