import { createResilientPool, statementName } from '@engram/event-store';
import type { Pool, PoolClient, PoolConfig } from 'pg';
import type { DataSource } from 'typeorm';

/** A statement of the code's own text (values only as parameters), run as a prepared statement. */
export type Statement = Readonly<{ text: string; values: readonly unknown[] }>;

/**
 * A pool beside the data source's own (same server, role and application name) whose connections
 * are in node-postgres's pipeline mode: the queries given to one connection are sent without
 * waiting for the answers of the ones before. Closed by its owner (`end()`).
 */
export function createPipelinePool(dataSource: DataSource, max: number): Pool {
  const options = (dataSource.driver as unknown as { master: { options: PoolConfig } }).master
    .options;
  return createResilientPool({ ...options, max, pipeline: true });
}

/**
 * Runs `statements` in one transaction, in one round trip: `BEGIN`, each statement as a named
 * prepared statement (PostgreSQL parses and plans it once per connection), `COMMIT`, all written to
 * the socket at once on a connection of a pipeline pool (`createPipelinePool`), and answers their
 * rows in order. If any statement fails, the transaction is rolled back (PostgreSQL answers the
 * `COMMIT` of a failed transaction with a rollback) and the first error is thrown.
 *
 * Why: several statements that must commit together cost a round trip each when sent one after the
 * other, and one statement made of them all has a new text each time, planned each time, whose
 * planning grows with its parts (BENCHMARKS.md, round 8).
 */
export async function pipelinedTransaction<Row extends object>(
  pool: Pool,
  statements: readonly Statement[],
): Promise<Row[][]> {
  const client = await pool.connect();
  let lost: Error | undefined;
  try {
    const sent = corked(client, () => [
      client.query('BEGIN'),
      ...statements.map(({ text, values }) =>
        client.query<Row>({ name: statementName(text), text, values: [...values] }),
      ),
      client.query('COMMIT'),
    ]);
    const settled = await Promise.allSettled(sent);
    const failure = settled.find((result) => result.status === 'rejected');
    if (failure) {
      // A statement refused is the caller's to handle; the connection itself is sound unless the
      // transaction is still open (its COMMIT never answered: the connection was lost).
      if (settled.at(-1)!.status === 'rejected') lost = asError(failure.reason);
      throw failure.reason;
    }
    const results = settled.map(
      (result) => (result as PromiseFulfilledResult<{ rows: Row[]; command: string }>).value,
    );
    if (results.at(-1)!.command !== 'COMMIT') {
      throw new Error(`the transaction was not committed (${results.at(-1)!.command})`);
    }
    return results.slice(1, -1).map((result) => result.rows);
  } finally {
    client.release(lost);
  }
}

/**
 * The queries `send` makes, written in one system call: node-postgres writes each query as it is
 * given (corked only around its own messages); corking the socket around all of them makes one
 * write of the whole pipeline. The socket is node-postgres's own; without it, the queries still go
 * in one round trip, each its own write.
 */
function corked<T>(client: PoolClient, send: () => T): T {
  const socket = (client as unknown as { connection?: { stream?: NodeJS.WritableStream } })
    .connection?.stream as { cork?: () => void; uncork?: () => void } | undefined;
  socket?.cork?.();
  try {
    return send();
  } finally {
    socket?.uncork?.();
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
