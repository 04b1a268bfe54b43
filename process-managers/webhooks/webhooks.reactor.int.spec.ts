import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import {
  webhookDecider,
  workspaceStream,
  type EventMetadata,
  type MemoryCandidateDetected,
} from '@engram/domain';
import { handleCommand } from '@engram/event-store';
import {
  CommittedCheckpoints,
  WORKSPACE_OWNER,
  partitionNameFor,
  webhooksProjection,
} from '@engram/projections';
import { catchUpProjections, workerOnTestDatabase } from '../../test/support/worker-deps';
import { detectCandidate } from '../../test/support/user-events';
import { webhooksReactor } from './webhooks.reactor';

const WS = 'w1';

/**
 * Beside the webhooks projection run in the same worker (its commits published, as the worker's
 * runners publish them), the reactor reads a workspace's endpoints once per change of them: with
 * none, a memory event costs no read, not even of the candidate's stream; one registered is heard
 * from the next event on.
 */
describe('the webhooks reactor and the endpoints it keeps', () => {
  const deps = workerOnTestDatabase();
  const committed = new CommittedCheckpoints();
  const partition = partitionNameFor(
    webhooksProjection.name,
    { workspaceId: WS, userId: WORKSPACE_OWNER },
    1,
  );

  const metadata = (userId: string): EventMetadata => ({
    workspaceId: WS,
    userId,
    causationId: randomUUID(),
    correlationId: randomUUID(),
    occurredAt: DateTime.utc().toISO(),
  });

  /** The projections catch up; the webhooks partition's commit is published as its runner does. */
  async function project(rowsChanged: boolean): Promise<void> {
    await catchUpProjections(deps);
    committed.committed(partition, await deps.store.headPosition(), rowsChanged);
  }

  /** A candidate waiting for a reviewer: subscribers of memory.pending_review are told. */
  async function detect() {
    const { stream } = await detectCandidate(deps, metadata('alice'), 'admin');
    const [recorded] = await deps.store.readStream(stream);
    return deps.codec.decode<MemoryCandidateDetected>(recorded!);
  }

  const deliveries = async () =>
    (
      await deps.dataSource.query<{ event_type: string }[]>(
        'SELECT event_type FROM webhook_deliveries ORDER BY event_position',
      )
    ).map((row) => row.event_type);

  it('reads the endpoints once per change, and nothing else while there are none', async () => {
    committed.started(partition, 0n);
    const endpointReads = jest.spyOn(deps.dataSource.manager, 'find');
    const streamReads = jest.spyOn(deps.store, 'readStream');
    const reactor = webhooksReactor({ ...deps, committed, partitions: 1 });

    const first = await detect();
    const second = await detect();
    await project(false);
    streamReads.mockClear();
    await reactor.react(first);
    await reactor.react(second);
    expect(endpointReads).toHaveBeenCalledTimes(1);
    expect(streamReads).not.toHaveBeenCalled();
    expect(await deliveries()).toEqual([]);

    await handleCommand(
      deps,
      workspaceStream(WS, 'webhook', randomUUID()),
      webhookDecider,
      {
        type: 'RegisterWebhook',
        webhookId: randomUUID(),
        url: 'https://hooks.example.com/review',
        events: ['memory.pending_review'],
        sealedSecret: { v: 1, iv: 'aXY=', tag: 'dGFn', ct: 'Y3Q=' },
        registeredBy: 'root',
      },
      { metadata: metadata('root') },
    );
    const third = await detect();
    await project(true);
    await reactor.react(third);
    await reactor.react(third);
    expect(endpointReads).toHaveBeenCalledTimes(2);
    // Registered after the first two: told of the third only, once however often it is reacted to.
    expect(await deliveries()).toEqual(['memory.pending_review']);
  });
});
