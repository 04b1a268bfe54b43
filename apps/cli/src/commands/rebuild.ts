import { createDataSource } from '@engram/database';
import {
  PROJECTIONS,
  READ_MODEL_ENTITIES,
  CheckpointCommitter,
  catchUpAllPartitions,
  SharedEventFeed,
  resetProjection,
  type ParkedEvent,
} from '@engram/projections';
import { createCodec, createEventStore, type Runtime } from '@engram/platform';
import type { CliArgs } from '../args';

export const REBUILD_USAGE = `rebuild <projection>|--all   (projections: ${PROJECTIONS.map((p) => p.name).join(', ')})`;

/** Empties a projection and replays every event from position 0; running workers follow the reset. */
export async function rebuildCommand(runtime: Runtime, args: CliArgs): Promise<void> {
  const names = args.values.all ? PROJECTIONS.map((p) => p.name) : args.positionals;
  if (names.length === 0) throw new Error(`name a projection. Usage: ${REBUILD_USAGE}`);
  const selected = names.map((name) => {
    const projection = PROJECTIONS.find((p) => p.name === name);
    if (!projection) throw new Error(`unknown projection "${name}". Usage: ${REBUILD_USAGE}`);
    return projection;
  });
  const store = createEventStore(runtime, runtime.projectorUrl, 'engram-cli');
  const dataSource = await createDataSource(
    runtime.projectorUrl,
    READ_MODEL_ENTITIES,
    Math.min(selected.length + 1, 8),
    'engram-cli',
  ).initialize();
  // The projector role only reads data keys: decoding is all a rebuild does.
  const { codec, close } = createCodec(runtime, runtime.projectorUrl, 'engram-cli');
  // The projections replay side by side from one feed: each event is read and decoded once.
  const feed = new SharedEventFeed(store, codec);
  const committer = new CheckpointCommitter(dataSource);
  const onParked = (parked: ParkedEvent) =>
    process.stderr.write(
      `${parked.partition}: parked event ${parked.eventId} (${parked.eventType}) of ` +
        `${parked.workspaceId}/${parked.userId}: ${parked.error}\n`,
    );
  try {
    await Promise.all(
      selected.map(async (projection) => {
        const started = Date.now();
        await resetProjection(dataSource, projection);
        // One runner per partition the workers run, so that they share checkpoints with this rebuild.
        const position = await catchUpAllPartitions(
          { store, codec, dataSource, feed, committer, onParked },
          projection,
          { count: runtime.config.partitions },
        );
        process.stderr.write(
          `${projection.name}: rebuilt up to position ${position} in ${Date.now() - started} ms\n`,
        );
      }),
    );
  } finally {
    feed.close();
    await committer.close();
    await store.close();
    await dataSource.destroy();
    await close();
  }
}
