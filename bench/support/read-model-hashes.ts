import { Client } from 'pg';
import { PROJECTIONS, READ_MODEL_ENTITIES } from '@engram/projections';
import { DataSource } from 'typeorm';

/**
 * One hash per read-model table over all its rows (as text, in a fixed order): two databases, or one
 * database before and after a rebuild, hold the same read models when the hashes are equal.
 */
export async function readModelHashes(ownerUrl: string): Promise<Record<string, string>> {
  const tables = await readModelTables(ownerUrl);
  const client = new Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const hashes: Record<string, string> = {};
    for (const table of tables) {
      const result = await client.query<{ hash: string | null; count: string }>(
        `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash, count(*) AS count
         FROM ${table} t`,
      );
      hashes[table] = `${result.rows[0]!.count}:${result.rows[0]!.hash}`;
    }
    return hashes;
  } finally {
    await client.end();
  }
}

async function readModelTables(ownerUrl: string): Promise<string[]> {
  const dataSource = new DataSource({
    type: 'postgres',
    url: ownerUrl,
    entities: READ_MODEL_ENTITIES,
  });
  await dataSource.initialize();
  try {
    return PROJECTIONS.map((projection) => dataSource.getMetadata(projection.entity).tableName);
  } finally {
    await dataSource.destroy();
  }
}
