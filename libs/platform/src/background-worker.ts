import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDataSource } from '@engram/database';
import type { Clock } from '@engram/domain';
import { EventCodec, type EventStore } from '@engram/event-store';
import type { Llm } from '@engram/llm';
import {
  ReactorRunner,
  expirePendingActions,
  expirePendingMemories,
  extractionReactor,
  readModelPolicies,
  memoryCapReactor,
  regenerateIdentityCards,
  summaryReactor,
  type ProcessManagerDependencies,
} from '@engram/process-managers';
import { PROJECTIONS, READ_MODEL_ENTITIES, ProjectionRunner } from '@engram/projections';
import type { DataSource } from 'typeorm';
import { createEventStore } from './create-event-store';
import type { Runtime } from './prepare-runtime';
import { CLOCK, LLM, RUNTIME } from './tokens';

/**
 * Everything that runs in the background, connected as the projector role: every projection, the
 * process managers (extraction, rolling summary, memory cap) and the identity-card job.
 */
@Injectable()
export class BackgroundWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private readonly stop = new AbortController();
  private running: Promise<unknown> | undefined;
  private store: EventStore | undefined;
  private dataSource: DataSource | undefined;

  constructor(
    @Inject(RUNTIME) private readonly runtime: Runtime,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LLM) private readonly llm: Llm,
    private readonly codec: EventCodec,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Process managers append events: the store connects with the API role, which may append.
    this.store = createEventStore(this.runtime, this.runtime.appUrl, 'engram-worker');
    this.dataSource = await createDataSource(
      this.runtime.projectorUrl,
      READ_MODEL_ENTITIES,
      8,
      'engram-worker',
    ).initialize();
    const onError = (name: string, error: unknown) =>
      this.logger.warn(
        `${name}: ${error instanceof Error ? error.message : String(error)}; retrying`,
      );
    const base = { store: this.store, codec: this.codec, dataSource: this.dataSource, onError };
    const deps: ProcessManagerDependencies = {
      store: this.store,
      codec: this.codec,
      dataSource: this.dataSource,
      llm: this.llm,
      clock: this.clock,
      policies: readModelPolicies(this.dataSource),
    };
    const projections = PROJECTIONS.map((projection) => new ProjectionRunner(base, projection));
    const reactors = [extractionReactor(deps), summaryReactor(deps), memoryCapReactor(deps)].map(
      (reactor) => new ReactorRunner(base, reactor),
    );
    const signal = this.stop.signal;
    const identityCardDebounce = this.runtime.config.identityCardDebounceSeconds;
    const schedulerInterval = this.runtime.config.schedulerIntervalSeconds;
    this.running = Promise.all([
      ...projections.map((runner) => runner.run(signal)),
      ...reactors.map((runner) => runner.run(signal)),
      this.repeat('identity cards', Math.max(0.2, Math.min(1, identityCardDebounce)), signal, () =>
        regenerateIdentityCards(deps, identityCardDebounce),
      ),
      this.repeat('memory expiry', schedulerInterval, signal, () => expirePendingMemories(deps)),
      this.repeat('action expiry', schedulerInterval, signal, () => expirePendingActions(deps)),
    ]);
    this.logger.log(
      `Running ${projections.length} projections and ${reactors.length} process managers (LLM: ${this.llm.kind} ${this.llm.model})`,
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stop.abort();
    await this.running;
    await this.store?.close();
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
  }

  /** Runs a job now (catching up after downtime), then every `seconds`, until shutdown. */
  private async repeat(
    name: string,
    seconds: number,
    signal: AbortSignal,
    job: () => Promise<unknown>,
  ): Promise<void> {
    while (!signal.aborted) {
      try {
        await job();
      } catch (error) {
        this.logger.warn(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      await sleep(seconds * 1000, undefined, { signal }).catch(() => undefined);
    }
  }
}
