import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { createDataSource } from '@engram/database';
import type { Clock } from '@engram/domain';
import type { EventStore } from '@engram/event-store';
import type { Llm } from '@engram/llm';
import { EngramMetrics } from '@engram/observability';
import { schedulerBacklog } from '@engram/process-managers';
import { READ_MODEL_ENTITIES, lowestCheckpoints, parkedByConsumer } from '@engram/projections';
import type { DataSource } from 'typeorm';
import type { Runtime } from './prepare-runtime';
import { APP_DATA_SOURCE, CLOCK, EVENT_STORE, LLM, RUNTIME } from './tokens';

/**
 * Connects the application's metrics to what they read: LLM calls as they happen; at scrape time the
 * store head, the checkpoints and the schedulers' work lists. The work lists span every user, so they
 * are read as the projector role, through a pool of its own opened at the first scrape.
 */
@Injectable()
export class MetricsSources implements OnModuleInit, BeforeApplicationShutdown {
  private projector: Promise<DataSource> | undefined;
  private unfollowLlm: (() => void) | undefined;

  constructor(
    private readonly metrics: EngramMetrics,
    @Inject(RUNTIME) private readonly runtime: Runtime,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LLM) private readonly llm: Llm,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.unfollowLlm = this.metrics.llm.follow(this.llm.usage);
    this.metrics.readFrom({
      store: this.store,
      checkpoints: () => lowestCheckpoints(this.dataSource.manager),
      parked: () => parkedByConsumer(this.dataSource.manager),
      schedulerBacklog: async () =>
        schedulerBacklog(
          { dataSource: await this.projectorDataSource(), clock: this.clock },
          this.runtime.config.identityCardDebounceSeconds,
        ),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.unfollowLlm?.();
    const projector = await this.projector?.catch(() => undefined);
    if (projector?.isInitialized) await projector.destroy();
  }

  private projectorDataSource(): Promise<DataSource> {
    this.projector ??= createDataSource(
      this.runtime.projectorUrl,
      READ_MODEL_ENTITIES,
      2,
      'engram-metrics',
    ).initialize();
    // A failed connection is retried at the next scrape.
    void this.projector.catch(() => (this.projector = undefined));
    return this.projector;
  }
}
