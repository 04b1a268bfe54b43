import { Gauge, type Registry } from 'prom-client';
import type { EventStore } from '@engram/event-store';

export type Checkpoint = Readonly<{ name: string; position: bigint }>;

export type PositionSources = Readonly<{
  store: Pick<EventStore, 'headPosition' | 'readAll'>;
  /** Every projection's and reactor's checkpoint (`reactor:<name>` for the reactors). */
  checkpoints: () => Promise<readonly Checkpoint[]>;
  /** Parked events by consumer (projection, or `reactor:<name>`), every consumer named, 0 included. */
  parked: () => Promise<ReadonlyMap<string, number>>;
}>;

/** Where the store's head is and how far behind it each projection and reactor is, read at scrape time. */
export class ProjectionMetrics {
  private readonly head: Gauge<never>;
  private readonly position: Gauge<'projection'>;
  private readonly lagEvents: Gauge<'projection'>;
  private readonly lagSeconds: Gauge<'projection'>;
  private readonly parked: Gauge<'consumer'>;

  constructor(registry: Registry) {
    this.head = new Gauge({
      name: 'engram_store_head_position',
      help: 'Global position of the last event in the store',
      registers: [registry],
    });
    this.position = new Gauge({
      name: 'engram_projection_position',
      help: 'Checkpoint of each projection and reactor (reactor:<name>): the last event it applied',
      labelNames: ['projection'],
      registers: [registry],
    });
    this.lagEvents = new Gauge({
      name: 'engram_projection_lag_events',
      help: 'Store head minus the checkpoint (events on PostgreSQL; log positions on EventStoreDB)',
      labelNames: ['projection'],
      registers: [registry],
    });
    this.lagSeconds = new Gauge({
      name: 'engram_projection_lag_seconds',
      help: 'Age of the oldest event a projection or reactor has not applied yet (0 when caught up)',
      labelNames: ['projection'],
      registers: [registry],
    });
    this.parked = new Gauge({
      name: 'engram_parked_events',
      help: 'Events a projection or reactor parked after its retries: their owners wait, the others go on',
      labelNames: ['consumer'],
      registers: [registry],
    });
  }

  async refresh(sources: PositionSources, now = Date.now()): Promise<void> {
    const [head, checkpoints, parked] = await Promise.all([
      sources.store.headPosition(),
      sources.checkpoints(),
      sources.parked(),
    ]);
    const ages = await Promise.all(
      checkpoints.map((checkpoint) => oldestUnappliedAgeSeconds(sources, checkpoint, head, now)),
    );
    this.clear();
    this.head.set(Number(head));
    checkpoints.forEach(({ name, position }, index) => {
      this.position.set({ projection: name }, Number(position));
      this.lagEvents.set({ projection: name }, Number(head > position ? head - position : 0n));
      this.lagSeconds.set({ projection: name }, ages[index] ?? 0);
    });
    for (const [consumer, count] of parked) this.parked.set({ consumer }, count);
  }

  /** Drops the values: a scrape that cannot read the sources shows no gauge rather than a stale one. */
  clear(): void {
    for (const gauge of [this.head, this.position, this.lagEvents, this.lagSeconds, this.parked]) {
      gauge.reset();
    }
  }
}

async function oldestUnappliedAgeSeconds(
  sources: PositionSources,
  checkpoint: Checkpoint,
  head: bigint,
  now: number,
): Promise<number> {
  if (checkpoint.position >= head) return 0;
  const [next] = await sources.store.readAll({ after: checkpoint.position, maxCount: 1 });
  return next ? Math.max(0, (now - next.recordedAt.getTime()) / 1000) : 0;
}
