import { Gauge, type Registry } from 'prom-client';

/** Due work per scheduler job (`memory_expiry`, `action_expiry`, `identity_cards`, `deferred_llm_work`). */
export type SchedulerBacklog = Readonly<Record<string, number>>;

/** How much due work the schedulers have not done yet, read at scrape time from their work lists. */
export class SchedulerBacklogMetrics {
  private readonly backlog: Gauge<'job'>;

  constructor(registry: Registry) {
    this.backlog = new Gauge({
      name: 'engram_scheduler_backlog',
      help:
        'Due work not done yet, by job: memory_expiry (pending candidates past their TTL), ' +
        'action_expiry (pending actions past expiresAt), identity_cards (cards due for regeneration), ' +
        'deferred_llm_work (extractions and summaries held back by the daily LLM budget, now due)',
      labelNames: ['job'],
      registers: [registry],
    });
  }

  async refresh(read: () => Promise<SchedulerBacklog>): Promise<void> {
    const backlog = await read();
    this.clear();
    for (const [job, count] of Object.entries(backlog)) this.backlog.set({ job }, count);
  }

  clear(): void {
    this.backlog.reset();
  }
}
