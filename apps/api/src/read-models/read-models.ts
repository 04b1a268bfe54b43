import { Global, Inject, Injectable, Module, ServiceUnavailableException } from '@nestjs/common';
import { runAs } from '@engram/database';
import type { CallerIdentity } from '@engram/domain';
import { APP_DATA_SOURCE, RUNTIME, type Runtime } from '@engram/platform';
import {
  allCheckpointsOf,
  checkpointsFor,
  recordedPartitionCount,
  waitForCheckpoints,
} from '@engram/projections';
import type { Pool, QueryResultRow } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { queryAs, type SqlValue } from './query-as';
import type { ReadQuery } from './read-query';

type Owner = Readonly<{ workspaceId: string; userId: string }>;

/** A read spanning every owner (the admin review queue): all partitions must reach the position. */
export const EVERY_OWNER = 'every owner';

/** How long a read waits for its `minPosition` before answering 503. */
const READ_YOUR_WRITES_MS = 2000;

/** Every read-model query of the API goes through here: under the caller's identity, with RLS. */
@Injectable()
export class ReadModels {
  private partitions: Promise<number> | undefined;

  constructor(
    @Inject(APP_DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(RUNTIME) private readonly runtime: Runtime,
  ) {}

  read<T>(identity: CallerIdentity, query: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runAs(this.dataSource, identity, query);
  }

  /**
   * One statement under the caller's identity, in one round trip (`queryAs`): for the hot reads
   * made of a single statement, such as the agent context.
   */
  query<T extends QueryResultRow>(
    identity: CallerIdentity,
    sql: string,
    params: readonly SqlValue[],
  ): Promise<T[]> {
    // TypeORM's PostgreSQL driver keeps its pg pool as `master`.
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    return queryAs<T>(pool, identity, sql, params);
  }

  /**
   * Read your own writes, the one rule of every read of a read model: when the request names a
   * `minPosition` (`ReadQuery`), wait until the read models `names` hold it for `owner` (the
   * partitions holding that user, or that workspace for workspace-level ones; every partition for
   * `EVERY_OWNER`), at most 2 s, then 503 with Retry-After rather than stale data. Without one,
   * nothing waits. Call it before `read`.
   */
  async catchUp(
    owner: Owner | typeof EVERY_OWNER,
    names: readonly string[],
    query: ReadQuery,
  ): Promise<void> {
    if (query.minPosition === undefined) return;
    const position = BigInt(query.minPosition);
    if (owner !== EVERY_OWNER) return this.awaitPosition(owner, names, position);
    await this.awaitCheckpoints(allCheckpointsOf(names, await this.partitionCount()), position);
  }

  /**
   * Read-your-writes: waits (bounded) until the partitions holding `owner` of the read models `names`
   * have applied `position`. Past the bound it answers 503 with Retry-After rather than stale data.
   */
  async awaitPosition(
    owner: Owner,
    names: readonly string[],
    position: bigint,
    timeoutMs = READ_YOUR_WRITES_MS,
  ): Promise<void> {
    const checkpoints = checkpointsFor(names, owner, await this.partitionCount());
    await this.awaitCheckpoints(checkpoints, position, timeoutMs);
  }

  private async awaitCheckpoints(
    checkpoints: readonly string[],
    position: bigint,
    timeoutMs = READ_YOUR_WRITES_MS,
  ): Promise<void> {
    const behind = await waitForCheckpoints(this.dataSource, checkpoints, position, timeoutMs);
    if (behind.length > 0) {
      throw new ServiceUnavailableException(
        `The read models have not reached position ${position} yet (${behind.join(', ')}); retry shortly`,
      );
    }
  }

  /** The database's partition count, once a worker recorded it (until then, the configured one). */
  private partitionCount(): Promise<number> {
    const configured = this.runtime.config.partitions;
    this.partitions ??= recordedPartitionCount(this.dataSource.manager)
      .then((recorded) => {
        // Until a worker records it, ask again next time.
        if (recorded === undefined) this.partitions = undefined;
        return recorded ?? configured;
      })
      .catch((error: unknown) => {
        this.partitions = undefined;
        throw error;
      });
    return this.partitions;
  }
}

@Global()
@Module({ providers: [ReadModels], exports: [ReadModels] })
export class ReadModelsModule {}
