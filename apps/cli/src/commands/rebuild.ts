import { createDataSource } from '@engram/database';
import {
  PROJECTIONS,
  READ_MODEL_ENTITIES,
  ProjectionRunner,
  resetProjection,
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
    2,
    'engram-cli',
  ).initialize();
  // The projector role only reads data keys: decoding is all a rebuild does.
  const { codec, close } = createCodec(runtime, runtime.projectorUrl, 'engram-cli');
  try {
    for (const projection of selected) {
      const started = Date.now();
      await resetProjection(dataSource, projection);
      const position = await new ProjectionRunner(
        { store, codec, dataSource },
        projection,
      ).catchUp();
      process.stderr.write(
        `${projection.name}: rebuilt up to position ${position} in ${Date.now() - started} ms\n`,
      );
    }
  } finally {
    await store.close();
    await dataSource.destroy();
    await close();
  }
}
