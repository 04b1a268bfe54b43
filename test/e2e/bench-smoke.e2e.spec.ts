import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../../scripts/build-if-stale';
import { scriptEnvironment } from '../support/test-database';

const run = promisify(execFile);

/**
 * The benchmark suite at a tiny size, so that its code cannot rot: every scenario must produce
 * numbers. No timing is asserted (benchmarks are not tests); globalSetup built dist/.
 */
describe('npm run bench (smoke size)', () => {
  it('runs every scenario and writes numbers for each', async () => {
    const results = mkdtempSync(join(tmpdir(), 'engram-bench-'));
    try {
      const { stdout } = await run(
        process.execPath,
        [join(ROOT, 'dist', 'bench', 'run.js'), '--smoke', '--results', results],
        { cwd: ROOT, env: scriptEnvironment(), timeout: 170_000 },
      );
      expect(stdout).toContain('| scenario');
      const [file] = readdirSync(results);
      const written = JSON.parse(readFileSync(join(results, file!), 'utf8')) as {
        results: Record<
          string,
          { measurements: { metric: string; engram: number }[]; details?: Record<string, unknown> }
        >;
      };
      const withoutNumbers = [
        'append',
        'rebuild',
        'context',
        'lag',
        'export',
        'llm',
        'memory',
        'scale',
      ].filter(
        (scenario) =>
          !(written.results[scenario]?.measurements ?? []).some((m) => Number.isFinite(m.engram)),
      );
      expect(withoutNumbers).toEqual([]);
      // The rebuild's best alternative ran, and wrote the rows the rebuild wrote (else it throws).
      const alternative = written.results.rebuild!.measurements.find((m) =>
        m.metric.startsWith('best alternative'),
      );
      expect(alternative?.engram).toBeGreaterThan(0);
      // The extraction with a slow model ran with one reaction in flight and with several.
      const throughput = written.results.llm!.measurements.find((m) =>
        m.metric.startsWith('extractions/s'),
      ) as { engram: number; baseline: number } | undefined;
      expect(throughput?.engram).toBeGreaterThan(0);
      expect(throughput?.baseline).toBeGreaterThan(0);
      // Each lag round says where the CPU went: the worker and PostgreSQL worked for every message.
      const rounds = written.results.lag!.details!.rounds as {
        byRole: boolean;
        cpuMicrosecondsPerMessage: Record<string, number>;
        cpuMicrosecondsPerMessageAllWork: Record<string, number>;
        workersLogged: Record<string, number>;
      }[];
      expect(rounds.length).toBeGreaterThan(0);
      for (const {
        cpuMicrosecondsPerMessage: cpu,
        cpuMicrosecondsPerMessageAllWork: all,
        workersLogged,
      } of rounds) {
        // What the workers warned of during the round is in its details; nothing failed.
        expect(Object.keys(workersLogged).filter((key) => key.startsWith('error'))).toEqual([]);
        expect(cpu.worker1).toBeGreaterThan(0);
        expect(cpu.postgres).toBeGreaterThan(0);
        expect(cpu.total).toBeGreaterThanOrEqual(cpu.worker1! + cpu.postgres!);
        // Counted on until the process managers were done: never less than during the appends.
        expect(all.total).toBeGreaterThanOrEqual(cpu.total!);
      }
      // Two rounds with a worker per role (ENGRAM_WORKER_ROLE): the process managers' worked too.
      const byRole = rounds.filter((each) => each.byRole);
      expect(byRole).toHaveLength(2);
      for (const { cpuMicrosecondsPerMessage: cpu } of byRole) {
        expect(cpu.worker2).toBeGreaterThan(0);
      }
      // A message is visible to its owner once its owner's partitions applied it, which is never
      // later than every partition having passed it.
      const lag = (metric: string) =>
        written.results.lag!.measurements.filter((m) => m.metric.startsWith(metric));
      const toOwner = lag('p99 append→visible to its owner');
      const everywhere = lag('p99 append→past in every partition');
      expect(toOwner.length).toBe(rounds.length);
      expect(everywhere.length).toBe(rounds.length);
      toOwner.forEach((m, i) => expect(m.engram).toBeLessThanOrEqual(everywhere[i]!.engram));
      // Each round also says whether the process managers kept up: at smoke size every partition
      // of every one passes the last message (else the round reports their backlog instead).
      const caughtUp = lag('process managers past the last message');
      expect(caughtUp.length).toBe(rounds.length);
      // And what the rate asks of the machine once that work is done, in cores.
      const cores = lag('cores the work of');
      expect(cores.length).toBe(rounds.length);
      for (const m of cores) expect(m.engram).toBeGreaterThan(0);
      for (const { processManagers } of rounds as unknown as {
        processManagers: {
          behindAtEnd: number;
          behindAtEndBy: Record<string, number>;
          caughtUpMs?: number;
        };
      }[]) {
        expect(processManagers.behindAtEnd).toBeGreaterThanOrEqual(0);
        // Every process manager of the worker, each behind by no more than the slowest.
        expect(Object.keys(processManagers.behindAtEndBy)).toEqual(
          expect.arrayContaining(['memory_extraction', 'rolling_summary', 'webhooks']),
        );
        expect(Math.max(...Object.values(processManagers.behindAtEndBy))).toBe(
          processManagers.behindAtEnd,
        );
        expect(processManagers.caughtUpMs).toBeGreaterThan(0);
      }
    } finally {
      rmSync(results, { recursive: true, force: true });
    }
  }, 180_000);
});
