import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@engram/database';
import { handleCommand, PostgresEventStore } from '@engram/event-store';
import { createCodec, type CodecResources } from '@engram/platform';
import {
  PROJECTIONS,
  ProjectionRunner,
  READ_MODEL_ENTITIES,
  resetProjection,
} from '@engram/projections';
import { AGGREGATES, commandHistories } from '../support/command-histories';
import { defaultOccurredAt } from '../support/projection-spec';
import { propertyParameters } from '../support/property-parameters';
import { readModelHashes } from '../support/read-model-hashes';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { testRuntime } from '../support/test-runtime';

/** A generated history written through the real store and codec; rebuilt twice, the rows stay the same. */
describe('rebuild determinism', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  let codec: CodecResources;
  let projector: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore({ connectionString: database.appUrl, pollMs: 100 });
    codec = createCodec(testRuntime(database), database.appUrl, 'rebuild-test');
    projector = await createDataSource(
      database.projectorUrl,
      READ_MODEL_ENTITIES,
      4,
      'rebuild-test',
    ).initialize();
  });

  afterAll(async () => {
    await store?.close();
    await codec?.close();
    if (projector?.isInitialized) await projector.destroy();
    await database?.drop();
  });

  const runners = () =>
    PROJECTIONS.map(
      (projection) =>
        new ProjectionRunner({ store, codec: codec.codec, dataSource: projector }, projection),
    );

  async function catchUpAll(): Promise<void> {
    for (const runner of runners()) await runner.catchUp();
  }

  it('gives the same read-model rows after each of two rebuilds', async () => {
    const [steps] = fc.sample(
      commandHistories({ minLength: 120, maxLength: 150 }),
      propertyParameters(1),
    );
    let written = 0;
    for (const [index, step] of steps!.entries()) {
      const aggregate = AGGREGATES[step.aggregate]!;
      try {
        const result = await handleCommand(
          { store, codec: codec.codec },
          aggregate.stream(step.owner, step.id),
          aggregate.decider,
          step.command,
          {
            metadata: {
              ...step.owner,
              causationId: `cause-${index}`,
              correlationId: `correlation-${index}`,
              traceId: `trace-${step.id}`,
              occurredAt: defaultOccurredAt(index),
            },
          },
        );
        written += result.events.length;
      } catch (error) {
        // A refused command writes nothing, as through the API.
        if (!['DomainConflictError', 'DomainNotFoundError'].includes((error as Error).name)) {
          throw error;
        }
      }
    }
    expect(written).toBeGreaterThan(20);
    await catchUpAll();
    const built = await readModelHashes(database.ownerUrl);
    const filled = Object.values(built).filter((hash) => !hash.startsWith('0:'));
    expect(filled.length).toBeGreaterThanOrEqual(8);
    for (let rebuild = 1; rebuild <= 2; rebuild += 1) {
      for (const projection of PROJECTIONS) await resetProjection(projector, projection);
      await catchUpAll();
      expect(await readModelHashes(database.ownerUrl)).toEqual(built);
    }
  });
});
