import { Client, Pool, type ClientConfig, type PoolConfig } from 'pg';

/**
 * A pg connection whose death (PostgreSQL restarted, network cut) never crashes the process. pg
 * emits 'error' on a client that has no query running; a pool listens while the client is idle (and
 * TypeORM while a query runner holds it), but a client checked out between two queries has no
 * listener of its own: a PostgreSQL restart under the worker's load crashed it now and then
 * (`test/faults/postgres-restart.int.spec.ts`, one run in three, a TypeORM pool's client checked out
 * by a checkpoint statement). The query in flight still fails, and the pool drops the broken client
 * when it is released. Every pool of Engram's creates these: the event store's (below) and the
 * TypeORM data sources' (`createDataSource`).
 */
export class ResilientClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** A pg Pool of `ResilientClient`s, whose own 'error' events (an idle connection lost) are handled. */
export function createResilientPool(config: PoolConfig): Pool {
  const pool = new Pool({ ...config, Client: ResilientClient });
  pool.on('error', () => undefined);
  return pool;
}
