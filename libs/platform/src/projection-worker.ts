import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { createDataSource } from '@engram/database';
import { EventCodec, type EventStore } from '@engram/event-store';
import { PROJECTIONS, READ_MODEL_ENTITIES, ProjectionRunner } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { createEventStore } from './create-event-store';
import type { Runtime } from './prepare-runtime';
import { RUNTIME } from './tokens';

/** Runs every projection in this process until shutdown, connected as the projector role. */
@Injectable()
export class ProjectionWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ProjectionWorker');
  private readonly stop = new AbortController();
  private running: Promise<unknown> | undefined;
  private store: EventStore | undefined;
  private dataSource: DataSource | undefined;

  constructor(
    @Inject(RUNTIME) private readonly runtime: Runtime,
    private readonly codec: EventCodec,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.store = createEventStore(this.runtime, this.runtime.projectorUrl, 'engram-worker');
    this.dataSource = await createDataSource(
      this.runtime.projectorUrl,
      READ_MODEL_ENTITIES,
      5,
      'engram-worker',
    ).initialize();
    const deps = {
      store: this.store,
      codec: this.codec,
      dataSource: this.dataSource,
      onError: (name: string, error: unknown) =>
        this.logger.error(`Projection ${name} failed, retrying: ${String(error)}`),
    };
    const runners = PROJECTIONS.map((projection) => new ProjectionRunner(deps, projection));
    this.running = Promise.all(runners.map((runner) => runner.run(this.stop.signal)));
    this.logger.log(`Running ${runners.length} projection(s)`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stop.abort();
    await this.running;
    await this.store?.close();
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
  }
}
