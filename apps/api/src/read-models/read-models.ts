import { Global, Inject, Injectable, Module, ServiceUnavailableException } from '@nestjs/common';
import { runAs } from '@engram/database';
import type { CallerIdentity } from '@engram/domain';
import { APP_DATA_SOURCE, RUNTIME, type Runtime } from '@engram/platform';
import { checkpointsFor, waitForCheckpoints } from '@engram/projections';
import type { DataSource, EntityManager } from 'typeorm';

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
   * Read-your-writes: waits (bounded) until the partitions holding `owner` of the read models `names`
   * have applied `position`. Past the bound it answers 503 with Retry-After rather than stale data.
   */
  async awaitPosition(
    owner: Readonly<{ workspaceId: string; userId: string }>,
    names: readonly string[],
    position: bigint,
    timeoutMs = 2000,
  ): Promise<void> {
    const checkpoints = checkpointsFor(names, owner, await this.partitionCount());
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
    this.partitions ??= this.dataSource
      .query<{ value: string }[]>(`SELECT value FROM engram_settings WHERE key = 'partitions'`)
      .then((rows) => {
        if (rows[0] === undefined) this.partitions = undefined;
        return Number(rows[0]?.value ?? configured);
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
