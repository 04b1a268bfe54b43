import { DateTime } from 'luxon';
import type { Pool } from 'pg';
import { policyDecider, workspaceStream } from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import { CommittedCheckpoints, findSession } from '@engram/projections';
import { recordUserMessage } from '../../test/support/user-events';
import { catchUpProjections, workerOnTestDatabase } from '../../test/support/worker-deps';
import { summaryReactor } from './summary.reactor';

/**
 * A worker that runs the process managers only (the sessions projection is another worker's),
 * catching up on a backlog: the reactor reads a session once per checkpoint it has seen passed,
 * not at each message, and summarizes what a read at every message would.
 */
describe('the summary reactor beside the sessions projection of another worker', () => {
  const deps = workerOnTestDatabase();
  const owner = { workspaceId: 'w1', userId: 'u1' };

  it('reads a session again only past the position its last read covered', async () => {
    await handleCommand(
      deps,
      workspaceStream('w1', 'policy', 'memory'),
      policyDecider,
      {
        type: 'ChangeMemoryPolicy',
        changes: { liveWindow: 2, summaryBatch: 2 },
        changedBy: 'root',
      },
      {
        metadata: {
          workspaceId: 'w1',
          userId: 'root',
          causationId: 'c',
          correlationId: 'c',
          occurredAt: DateTime.utc().toISO(),
        },
      },
    );
    const messages = [];
    for (const text of [
      'Bonjour.',
      'Je suis à Lyon.',
      'Il pleut.',
      'Merci.',
      'Et demain ?',
      'Ok.',
    ]) {
      messages.push(await recordUserMessage(deps, owner, text));
    }
    // No projection runs in this worker: every wait polls the table, every read model is elsewhere.
    const reactor = summaryReactor({ ...deps, committed: new CommittedCheckpoints(60_000) });
    const pool = (deps.dataSource.driver as unknown as { master: Pool }).master;
    const query = jest.spyOn(pool, 'query');
    for (const message of messages) {
      await reactor.react(message);
      await catchUpProjections(deps); // the other worker projects what the reactor recorded
    }
    // The reactor's reads of the session (not the projection runner's loads of its rows).
    const sessionReads = query.mock.calls.filter(([config]) =>
      String((config as { text?: string }).text).includes('FROM "sessions" WHERE'),
    );
    query.mockRestore();

    // Six messages, two kept in the window at each step: the first reaction reads the session
    // (caught up: six messages) and summarizes four; the second reads it again, past that summary;
    // the last four decide on what that read said. Read at every message: six reads.
    const session = await findSession(deps.dataSource.manager, 'w1', 'u1', 's1');
    expect(session).toMatchObject({ messageCount: 6, summarizedCount: 4 });
    expect(sessionReads).toHaveLength(2);
    const summaries = (await deps.store.readAll({})).filter(
      (event) => event.type === 'RollingSummaryExtended',
    );
    expect(summaries).toHaveLength(1);
  });
});
