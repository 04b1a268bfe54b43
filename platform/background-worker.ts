import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkerRole } from '@engram/config';
import { KeyStore, memoryIdDigests, workspaceSecrets } from '@engram/crypto';
import { createDataSource } from '@engram/database';
import type { Clock } from '@engram/domain';
import { EventCodec, StreamStates, type EventStore } from '@engram/event-store';
import type { Llm } from '@engram/llm';
import { EngramMetrics } from '@engram/observability';
import {
  CatchUpLimit,
  PROJECTIONS_FIRST_MS,
  ReactorRunner,
  ProjectionsFirst,
  SkippedCheckpoints,
  cachedPolicies,
  defaultReactionsInFlight,
  type SlowReaction,
  expirePendingActions,
  expirePendingMemories,
  extractionReactor,
  readModelPolicies,
  memoryCapReactor,
  supersessionReactor,
  regenerateIdentityCards,
  runDeferredLlmWork,
  runWebhookDeliveries,
  summaryReactor,
  webhooksReactor,
  type ProcessManagerDependencies,
} from '@engram/process-managers';
import {
  CheckpointCommitter,
  CommittedCheckpoints,
  PROJECTIONS,
  READ_MODEL_ENTITIES,
  ProjectionRunner,
  SharedEventFeed,
  partitionName,
  type ParkedEvent,
  type PartitionSlice,
} from '@engram/projections';
import type { DataSource } from 'typeorm';
import { createEventStore } from './create-event-store';
import { partitionCountFor } from './partition-count';
import { LeaseCoordinator, leaseTable, type Partition } from './leases';
import type { Runtime } from './prepare-runtime';
import { CLOCK, LLM, RUNTIME } from './tokens';

/** ENGRAM_WORKER_ROLE's two kinds of partitions (`all` runs both). */
const PROJECTIONS_ROLE = 'projections' satisfies WorkerRole;
/**
 * The memory states the worker keeps between commands (`StreamStates`): the memories touched by
 * the last ~20,000 restatements, a few tens of MB; past that, a restated memory is read whole.
 */
const MEMORY_STATES = 20_000;
const PROCESS_MANAGERS_ROLE = 'process-managers' satisfies WorkerRole;

/**
 * Everything that runs in the background, connected as the projector role: every projection, the
 * process managers (extraction, rolling summary, memory cap) and the scheduled jobs, each a partition
 * that this worker runs only while it holds the partition's lease (several workers share them), or
 * only the projections or only the rest when ENGRAM_WORKER_ROLE says so.
 */
@Injectable()
export class BackgroundWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private readonly stop = new AbortController();
  private running: Promise<unknown> | undefined;
  private store: EventStore | undefined;
  private feed: SharedEventFeed | undefined;
  private committer: CheckpointCommitter | undefined;
  private dataSource: DataSource | undefined;
  private leaseDataSource: DataSource | undefined;
  private coordinator: LeaseCoordinator | undefined;
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

  constructor(
    @Inject(RUNTIME) private readonly runtime: Runtime,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LLM) private readonly llm: Llm,
    private readonly codec: EventCodec,
    private readonly keys: KeyStore,
    private readonly metrics: EngramMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const configuredInFlight = this.runtime.config.reactionsInFlight;
    const ownersInFlight =
      configuredInFlight ??
      defaultReactionsInFlight(
        this.llm.kind,
        this.runtime.config.workerRole !== 'process-managers',
      );
    // Offline beside the projections, one owner at a time while anyone else writes; more once the
    // feed brings only this worker's own appends (a backlog nobody waits for). A configured count holds.
    const catchUpInFlight =
      configuredInFlight ??
      (this.runtime.config.workerRole === PROJECTIONS_ROLE
        ? ownersInFlight // no process manager runs here
        : Math.max(ownersInFlight, 8));
    const inFlight = new CatchUpLimit(ownersInFlight, catchUpInFlight);
    // Process managers append events: the store connects with the API role, which may append.
    const appends = this.metrics.appends;
    this.store = createEventStore(this.runtime, this.runtime.appUrl, 'engram-worker', {
      appending: (events) => inFlight.appending(events),
      appended: (events) => appends.appended(events),
      failed: (error) => appends.failed(error),
      foreignEventSkipped: () => appends.foreignEventSkipped(),
    });
    this.dataSource = await createDataSource(
      this.runtime.projectorUrl,
      READ_MODEL_ENTITIES,
      8,
      'engram-worker',
    ).initialize();
    const partitionCount = await partitionCountFor(this.dataSource, this.runtime.config.partitions);
    const onParked = (parked: ParkedEvent) =>
      this.logger.error(
        `${parked.partition}: parked event ${parked.eventId} (${parked.eventType}, position ` +
          `${parked.position}) of ${parked.workspaceId}/${parked.userId} after ${parked.attempts} ` +
          `tries: ${parked.error}; that owner's later events wait, the others go on ` +
          `(engram parked list | retry | skip)`,
      );
    const onError = (name: string, error: unknown) =>
      this.logger.warn(
        `${name}: ${error instanceof Error ? error.message : String(error)}; retrying`,
      );
    const base = {
      store: this.store,
      codec: this.codec,
      dataSource: this.dataSource,
      onError,
      onParked,
    };
    // The projections and reactors this worker holds read and decode each event once; the
    // projections write together and tell the reactors waiting for them when they commit.
    this.feed = new SharedEventFeed(this.store, this.codec, {
      onRead: (events) => inFlight.read(events),
    });
    const committed = new CommittedCheckpoints();
    const runnerDeps = {
      ...base,
      feed: this.feed,
      committer: (this.committer = new CheckpointCommitter(this.dataSource)),
      committed,
    };
    const deps: ProcessManagerDependencies = {
      store: this.store,
      codec: this.codec,
      dataSource: this.dataSource,
      llm: this.llm,
      clock: this.clock,
      policies: cachedPolicies(readModelPolicies(this.dataSource), committed, partitionCount),
      memoryIdDigests: memoryIdDigests(this.keys),
      committed,
      partitions: partitionCount,
      memoryStates: new StreamStates(MEMORY_STATES),
    };
    // One timer and one statement a second for what every reactor partition passed without a reaction.
    // A reaction starts once the worker's projections have applied what the feed read (200 ms at most).
    const reactorDeps = {
      ...base,
      onSlowReaction: (name: string, slow: SlowReaction) =>
        this.logger.warn(
          `${name}: the reaction to ${slow.event.type} at position ${slow.event.globalPosition} ` +
            `(owner ${slow.key}) has run for ${Math.round(slow.ms / 1000)} s; the partition's ` +
            `checkpoint waits for it, ${slow.open} events open`,
        ),
      skipped: new SkippedCheckpoints(this.dataSource),
      // While only this worker writes, no owner waits to read back: the reactions need not wait.
      projectionsFirst: new ProjectionsFirst(committed, this.feed, PROJECTIONS_FIRST_MS, () =>
        inFlight.quiet(),
      ),
    };
    const identityCardDebounce = this.runtime.config.identityCardDebounceSeconds;
    const schedulerInterval = this.runtime.config.schedulerIntervalSeconds;
    const everyPartition: Partition[] = [
      ...PROJECTIONS.flatMap((projection) =>
        slices(partitionCount).map((slice) => {
          const name = `projection:${partitionName(projection.name, slice)}`;
          const runner = new ProjectionRunner(runnerDeps, projection, {
            fence: leaseTable.heldBy(this.workerId, name),
            slice,
          });
          return { name, role: PROJECTIONS_ROLE, run: (signal: AbortSignal) => runner.run(signal) };
        }),
      ),
      ...[
        extractionReactor(deps),
        supersessionReactor(deps),
        summaryReactor(deps),
        memoryCapReactor(deps),
        webhooksReactor(deps),
      ].flatMap((reactor) =>
        slices(partitionCount).map((slice) => {
          const runner = new ReactorRunner({ ...reactorDeps, feed: this.feed }, reactor, {
            slice,
            ownersInFlight: () => inFlight.current(),
          });
          return {
            name: runner.name,
            role: PROCESS_MANAGERS_ROLE,
            run: (signal: AbortSignal) => runner.run(signal),
          };
        }),
      ),
      this.job('identity-cards', Math.max(0.2, Math.min(1, identityCardDebounce)), (signal) =>
        regenerateIdentityCards(deps, identityCardDebounce, signal),
      ),
      this.job('memory-expiry', schedulerInterval, () => expirePendingMemories(deps)),
      this.job('action-expiry', schedulerInterval, () => expirePendingActions(deps)),
      this.job('deferred-llm-work', schedulerInterval, (signal) =>
        runDeferredLlmWork(deps, signal),
      ),
      // A dispatcher that runs as long as its lease is held (restarted after an error).
      this.job('webhook-deliveries', 1, (signal) =>
        runWebhookDeliveries(
          {
            dataSource: this.dataSource!,
            clock: this.clock,
            secrets: workspaceSecrets(this.keys),
            onError: (error) => onError('webhook-deliveries', error),
          },
          signal,
        ),
      ),
    ];
    const role = this.runtime.config.workerRole;
    const partitions = everyPartition.filter(
      (partition) => role === 'all' || partition.role === role,
    );
    // The leases have a connection of their own: behind the runners' queries in the shared pool, a
    // renewal could wait past the lease's end, and a newcomer took a minute to take its partitions.
    this.leaseDataSource = await createDataSource(
      this.runtime.projectorUrl,
      [],
      1,
      'engram-worker-leases',
    ).initialize();
    this.coordinator = new LeaseCoordinator(this.leaseDataSource, partitions, {
      workerId: this.workerId,
      ttlSeconds: this.runtime.config.leaseTtlSeconds,
      onChange: ({ partition, kind }) => this.logger.log(`${partition}: lease ${kind}`),
      onError: (error) => onError('leases', error),
      everyRole: [PROJECTIONS_ROLE, PROCESS_MANAGERS_ROLE],
      onUnrunRole: (unrun) =>
        this.logger.warn(
          `No live worker runs the ${unrun} partitions: they wait until one does ` +
            `(ENGRAM_WORKER_ROLE=${unrun} or all)`,
        ),
    });
    this.running = this.coordinator.run(this.stop.signal);
    this.logger.log(
      `Worker ${this.workerId} sharing ${partitions.length} partitions (${role}) through leases of ` +
        `${this.runtime.config.leaseTtlSeconds} s (LLM: ${this.llm.kind} ${this.llm.model}; ` +
        `owners in flight per process-manager partition: ${ownersInFlight}` +
        (catchUpInFlight > ownersInFlight
          ? `, ${catchUpInFlight} on a backlog once only this worker writes)`
          : ')'),
    );
  }

  /** The partitions this worker runs now. */
  get heldPartitions(): readonly string[] {
    return this.coordinator?.held ?? [];
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stop.abort();
    await this.running;
    this.feed?.close();
    await this.committer?.close();
    await this.store?.close();
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
    if (this.leaseDataSource?.isInitialized) await this.leaseDataSource.destroy();
  }

  /** A scheduled job: runs now (catching up after downtime), then every `seconds`, while leased. */
  private job(
    name: string,
    seconds: number,
    work: (signal: AbortSignal) => Promise<unknown>,
  ): Partition {
    return {
      name: `job:${name}`,
      role: PROCESS_MANAGERS_ROLE,
      run: (signal) => this.repeat(name, seconds, signal, work),
    };
  }

  private async repeat(
    name: string,
    seconds: number,
    signal: AbortSignal,
    job: (signal: AbortSignal) => Promise<unknown>,
  ): Promise<void> {
    while (!signal.aborted) {
      try {
        await job(signal);
      } catch (error) {
        this.logger.warn(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      await sleep(seconds * 1000, undefined, { signal }).catch(() => undefined);
    }
  }
}

function slices(count: number): PartitionSlice[] {
  return Array.from({ length: count }, (_, index) => ({ index, count }));
}
