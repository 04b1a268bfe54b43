import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { DataKeyCipher } from '@engram/crypto';
import { EVENT_CATALOG, deterministicId, messageDecider, userStream } from '@engram/domain';
import { EventCodec, PostgresEventStore, handleCommand } from '@engram/event-store';
import type { Owner } from '@engram/projections';
import { BENCH_WORKSPACE, userId, type SeedPlan } from '../seed/seed-store';
import type { BenchDatabase } from './bench-database';
import { messageBody } from './message-bodies';
import { BENCH_MASTER_KEY } from './secrets';

/** Users whose keys are asked for in one turn (one statement of the key store). */
const WARM_PAGE = 1000;

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
  const cipher = new DataKeyCipher(keys, masterKey);
  const codec = new EventCodec(EVENT_CATALOG, cipher);
  return {
    /**
     * Reads every user's data key into the codec's cache, as a running API holds them after its
     * users' first messages (its cache keeps 100,000). A writer made for a measurement and used
     * cold looked up the key of nearly every message it wrote (users taken in turn: 3,777 lookups
     * for 10,100 messages in a lag round), work an API that has been up does not do.
     */
    async warm(): Promise<void> {
      const users = Array.from({ length: store.plan.users }, (_, i) => userId(i));
      for (let start = 0; start < users.length; start += WARM_PAGE) {
        await Promise.all(
          users
            .slice(start, start + WARM_PAGE)
            .map((user) => cipher.keys.keyForWriting(BENCH_WORKSPACE, user)),
        );
      }
    },
    /** Records message `index` (users taken in turn); its position, and whose it is. */
    async record(index: number): Promise<{ position: number; owner: Owner }> {
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
      return {
        position: Number(result.position),
        owner: { workspaceId: BENCH_WORKSPACE, userId: user },
      };
    },
    async close(): Promise<void> {
      await events.close();
      await keys.end();
    },
  };
}

export type MessageWriter = ReturnType<typeof messageWriter>;
