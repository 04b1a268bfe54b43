import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { DataKeyCipher } from '@engram/crypto';
import { EVENT_CATALOG, deterministicId, messageDecider, userStream } from '@engram/domain';
import { EventCodec, PostgresEventStore, handleCommand } from '@engram/event-store';
import { BENCH_WORKSPACE, userId, type SeedPlan } from '../seed/seed-store';
import type { BenchDatabase } from './bench-database';
import { messageBody } from './message-bodies';
import { BENCH_MASTER_KEY } from './secrets';

/**
 * Records messages the way `POST …/messages` does once past HTTP: the same command, decider, codec
 * (personal fields sealed) and PostgreSQL store with its group commit, connected as the API's role.
 * Needs only the database's address, the users and the master key (this run's, unless a process of
 * its own is handed it), so that a process of its own can run one.
 */
export function messageWriter(
  store: Readonly<{ database: Pick<BenchDatabase, 'appUrl'>; plan: Pick<SeedPlan, 'users'> }>,
  masterKey: Buffer = BENCH_MASTER_KEY,
) {
  const keys = new Pool({ connectionString: store.database.appUrl, max: 4 });
  const events = new PostgresEventStore({
    connectionString: store.database.appUrl,
    applicationName: 'bench-writer',
  });
  const codec = new EventCodec(EVENT_CATALOG, new DataKeyCipher(keys, masterKey));
  return {
    async record(index: number): Promise<number> {
      const user = userId(index % store.plan.users);
      const body = messageBody(index);
      const result = await handleCommand(
        { store: events, codec },
        userStream(BENCH_WORKSPACE, user, 'message', body.messageId),
        messageDecider,
        { type: 'RecordMessage', data: body },
        {
          metadata: {
            workspaceId: BENCH_WORKSPACE,
            userId: user,
            traceId: deterministicId('message-trace', BENCH_WORKSPACE, user, body.messageId),
            channel: body.channel,
            causationId: body.messageId,
            correlationId: randomUUID(),
            occurredAt: new Date().toISOString(),
          },
          eventIds: () => [deterministicId('message', BENCH_WORKSPACE, user, body.messageId)],
          usuallyOpensStream: true,
        },
      );
      return Number(result.position);
    },
    async close(): Promise<void> {
      await events.close();
      await keys.end();
    },
  };
}
