import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { round } from './stats';

/** Busy and total CPU time of the whole machine so far, in clock ticks (/proc/stat; zeros elsewhere). */
export function machineCpu(): Readonly<{ busy: number; total: number }> {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
    const ticks = fields.map(Number);
    const total = ticks.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the time no CPU worked.
    return { busy: total - ticks[3]! - (ticks[4] ?? 0), total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** Share of the machine's CPU time that was busy between two readings (1 = every core, all along). */
export function busyShare(
  before: ReturnType<typeof machineCpu>,
  after: ReturnType<typeof machineCpu>,
): number {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : Number.NaN;
}

let ticksPerSecond: number | undefined;

/**
 * CPU seconds (user + system) each of the processes `pids` used so far, by pid: the PostgreSQL
 * backends of a pool, when the server runs on this machine. A process that cannot be read (gone,
 * or on another machine) is left out.
 */
export function processCpuSeconds(pids: readonly number[]): Map<number, number> {
  ticksPerSecond ??= clockTicks();
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After the command name in parentheses: state is field 3, utime 14 and stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seconds.set(pid, (Number(fields[11]) + Number(fields[12])) / ticksPerSecond);
    } catch {
      // gone, or not on this machine
    }
  }
  return seconds;
}

/** CPU seconds used between two readings by the processes read both times; NaN when none was. */
export function cpuSecondsBetween(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
): number {
  let total = 0;
  let read = 0;
  for (const [pid, seconds] of after) {
    const earlier = before.get(pid);
    if (earlier === undefined) continue;
    total += seconds - earlier;
    read += 1;
  }
  return read > 0 ? total : Number.NaN;
}

/**
 * The processes of a PostgreSQL server running on this machine (every backend and the server's own
 * processes: their command name is `postgres`); empty elsewhere.
 */
export function postgresServerPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds a piece of work took on this machine, in all and by process. */
export type CpuCount = Readonly<{ total: number; parts: Readonly<Record<string, number>> }>;

/**
 * Counts, from now, the CPU the work about to run takes on this machine: this process's
 * (`bench`: a reader, a load generator), every process of the PostgreSQL server's (`postgres`), and
 * each process named in `processes` (an API, a worker, a baseline app). The function returned gives
 * the count so far; a process that cannot be read counts 0, and so does a backend that exited
 * meanwhile (a pool's connection closed: its CPU is no longer readable).
 */
export function countCpu(
  processes: Readonly<Record<string, number | undefined>> = {},
): () => CpuCount {
  const named = Object.entries(processes).filter(
    (entry): entry is [string, number] => entry[1] !== undefined,
  );
  const postgres = postgresServerPids();
  const own = ownCpuSeconds();
  const before = processCpuSeconds([...postgres, ...named.map(([, pid]) => pid)]);
  return () => {
    // A backend a pool opened meanwhile (a worker started during the work) counts from its start.
    const started = postgresServerPids().filter((pid) => !postgres.includes(pid));
    const after = processCpuSeconds([...postgres, ...started, ...named.map(([, pid]) => pid)]);
    const used = (pids: readonly number[]) =>
      pids.reduce((sum, pid) => {
        const earlier = before.get(pid);
        const later = after.get(pid);
        return earlier === undefined || later === undefined ? sum : sum + later - earlier;
      }, 0);
    const parts: Record<string, number> = {
      bench: ownCpuSeconds() - own,
      postgres: used(postgres) + lifetimeCpuSeconds(started, after),
    };
    for (const [name, pid] of named) parts[name] = used([pid]);
    return { total: Object.values(parts).reduce((sum, value) => sum + value, 0), parts };
  };
}

/**
 * CPU seconds the processes `pids` used since they started (`seen`: a reading already made of them);
 * for processes started during the work counted, such as a worker or a backend it opened.
 */
export function lifetimeCpuSeconds(
  pids: readonly number[],
  seen: ReadonlyMap<number, number> = processCpuSeconds(pids),
): number {
  return pids.reduce((sum, pid) => sum + (seen.get(pid) ?? 0), 0);
}

/**
 * What a piece of work could reach on this machine with every core busy at its CPU per item: items
 * per second. Spreading the same work over threads or processes costs at least as much CPU per
 * item, so no design doing that work goes past it here. NaN when no CPU was counted.
 */
export function ceilingRate(items: number, cpuSeconds: number): number {
  return cpuSeconds > 0 ? (availableParallelism() * items) / cpuSeconds : Number.NaN;
}

/** A count's CPU per item, in all and by process, in microseconds (the results' details). */
export function cpuPerItem(cpu: CpuCount, items: number): Record<string, number> {
  const per = (seconds: number) => round((1e6 * seconds) / items);
  return {
    total: per(cpu.total),
    ...Object.fromEntries(Object.entries(cpu.parts).map(([name, seconds]) => [name, per(seconds)])),
  };
}

/** CPU seconds (user + system) this process used so far. */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}
