import { Global, Inject, Injectable, Module } from '@nestjs/common';
import { runAs } from '@engram/database';
import type { CallerIdentity } from '@engram/domain';
import { APP_DATA_SOURCE } from '@engram/platform';
import type { DataSource, EntityManager } from 'typeorm';

/** Every read-model query of the API goes through here: under the caller's identity, with RLS. */
@Injectable()
export class ReadModels {
  constructor(@Inject(APP_DATA_SOURCE) private readonly dataSource: DataSource) {}

  read<T>(identity: CallerIdentity, query: (manager: EntityManager) => Promise<T>): Promise<T> {
    return runAs(this.dataSource, identity, query);
  }
}

@Global()
@Module({ providers: [ReadModels], exports: [ReadModels] })
export class ReadModelsModule {}
