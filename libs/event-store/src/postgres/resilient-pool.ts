import { Pool, type PoolConfig } from 'pg';

/**
 * A pg Pool whose connections may die (PostgreSQL restarted, network cut) without crashing the
 * process: pg emits 'error' on an idle connection (handled by the pool's listener) and on a
 * checked-out one between queries (handled by each connection's own listener). The query in flight
 * still fails, and the broken connection is replaced on next use.
 */
export function createResilientPool(config: PoolConfig): Pool {
  const pool = new Pool(config);
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}
