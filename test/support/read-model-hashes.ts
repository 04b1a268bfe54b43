import { Client } from 'pg';
import { getMetadataArgsStorage } from 'typeorm';
import { PROJECTIONS } from '@engram/projections';

/** The table of every projection's read model, from the entities' metadata. */
export function readModelTables(): string[] {
  const tables = getMetadataArgsStorage().tables;
  return PROJECTIONS.map((projection) => {
    const table = tables.find((candidate) => candidate.target === projection.entity);
    if (!table?.name) throw new Error(`no table for the projection ${projection.name}`);
    return table.name;
  });
}

/**
 * An md5 of every read-model table's rows (as text, in a stable order), by table: two databases, or
 * one before and after a rebuild, hold the same read models when these are equal.
 */
export async function readModelHashes(ownerUrl: string): Promise<Record<string, string>> {
  const client = new Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const hashes: Record<string, string> = {};
    for (const table of readModelTables()) {
      const { rows } = await client.query<{ hash: string | null; count: string }>(
        `SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS hash, count(*) AS count FROM ${table} t`,
      );
      hashes[table] = `${rows[0]!.count}:${rows[0]!.hash ?? 'empty'}`;
    }
    return hashes;
  } finally {
    await client.end();
  }
}
