import { Pool } from 'pg';
import { DataKeyCipher } from '@engram/crypto';
import { EVENT_CATALOG } from '@engram/domain';
import { EventCodec, PostgresEventStore } from '@engram/event-store';
import type { MainStore } from './main-store';
import { BENCH_MASTER_KEY } from './secrets';

/**
 * What one Node thread needs just to read the whole log and decode it (parse, decrypt the personal
 * fields, upcast), pages of 2,000 as the worker reads them, without any projection: the floor under
 * a rebuild by one worker process.
 */
export async function readAndDecodeAll(
  store: MainStore,
): Promise<{ seconds: number; events: number }> {
  const keys = new Pool({ connectionString: store.database.projectorUrl, max: 2 });
  const events = new PostgresEventStore({ connectionString: store.database.projectorUrl });
  const codec = new EventCodec(EVENT_CATALOG, new DataKeyCipher(keys, BENCH_MASTER_KEY));
  try {
    const started = performance.now();
    let after = 0n;
    let count = 0;
    for (;;) {
      const page = await events.readAll({ after, maxCount: 2000 });
      if (page.length === 0) break;
      for (const event of page) await codec.decode(event);
      count += page.length;
      after = page[page.length - 1]!.globalPosition;
    }
    return { seconds: (performance.now() - started) / 1000, events: count };
  } finally {
    await events.close();
    await keys.end();
  }
}
