import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { memoryUsageDecider, userStream, type Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import { Commands } from '../commands/commands';
import { PeriodicFlush } from '../commands/periodic-flush';

const FLUSH_EVERY_MS = 2000;

/**
 * Memories put in a context count as used (the LRU of the cap), without an event per read: ids are
 * gathered in memory and appended as one MemoriesUsed event per user every two seconds, to a daily
 * stream (so no stream grows without bound). A crash loses at most two seconds of usage, which only
 * makes a memory look a little less recently used.
 */
@Injectable()
export class MemoryUsageRecorder extends PeriodicFlush {
  private readonly logger = new Logger('MemoryUsage');
  private pending = new Map<string, { workspaceId: string; userId: string; ids: Set<string> }>();

  constructor(
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super(FLUSH_EVERY_MS);
  }

  record(workspaceId: string, userId: string, memoryIds: readonly string[]): void {
    if (memoryIds.length === 0) return;
    const key = `${workspaceId}/${userId}`;
    const entry = this.pending.get(key) ?? { workspaceId, userId, ids: new Set<string>() };
    for (const id of memoryIds) entry.ids.add(id);
    this.pending.set(key, entry);
  }

  /**
   * All users' events at once: the store's group commit writes them in one transaction (one commit,
   * one fsync). One after the other, they were a commit each, most of the machine's cost of serving a
   * context (BENCHMARKS.md, round 6).
   */
  async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const now = this.clock.now().toUTC();
    await Promise.all(
      batch.map(async ({ workspaceId, userId, ids }) => {
        try {
          await this.commands.decide(
            userStream(workspaceId, userId, 'memory-usage', now.toISODate()!),
            memoryUsageDecider,
            { type: 'RecordMemoryUsage', memoryIds: [...ids] },
            {
              workspaceId,
              userId,
              causationId: 'context',
              correlationId: randomUUID(),
              occurredAt: now.toISO()!,
            },
            undefined,
            { appendOnly: true },
          );
        } catch (error) {
          this.logger.warn(`could not record memory usage: ${String(error)}`);
        }
      }),
    );
  }
}
