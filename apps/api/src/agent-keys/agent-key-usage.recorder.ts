import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { agentKeyUsageDecider, agentKeyUsageStream, type Clock } from '@engram/domain';
import { CLOCK } from '@engram/platform';
import { Commands } from '../commands/commands';
import { PeriodicFlush } from '../commands/periodic-flush';

const FLUSH_EVERY_MS = 2000;
/** A key's last use is recorded at most this often per process: the admins' "last used" is that precise. */
export const USAGE_RESOLUTION_MS = 10 * 60_000;

type Use = { workspaceId: string; agentId: string; at: string };

/**
 * The last use of each service key, without an event per request: uses are gathered in memory and
 * the latest of each key is appended as AgentKeyUsed every two seconds (a daily log stream of the
 * workspace), at most once per key per ten minutes. An agent calling all day costs 144 small events,
 * not one per turn; a crash loses at most the uses of the last two seconds, which only makes a key
 * look used a little earlier than it was.
 */
@Injectable()
export class AgentKeyUsageRecorder extends PeriodicFlush {
  private readonly logger = new Logger('AgentKeyUsage');
  private pending = new Map<string, Use>();
  /** When each key's use was last written (this process's clock, in ms). */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly commands: Commands,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    super(FLUSH_EVERY_MS);
  }

  record(keyId: string, workspaceId: string, agentId: string): void {
    const now = this.clock.now();
    const last = this.written.get(keyId);
    if (last !== undefined && now.toMillis() - last < USAGE_RESOLUTION_MS) return;
    this.pending.set(keyId, { workspaceId, agentId, at: now.toUTC().toISO()! });
  }

  async flush(): Promise<void> {
    const batch = [...this.pending.entries()];
    this.pending = new Map();
    for (const [keyId, { workspaceId, agentId, at }] of batch) {
      try {
        await this.commands.decide(
          agentKeyUsageStream(workspaceId, at.slice(0, 10)),
          agentKeyUsageDecider,
          { type: 'RecordAgentKeyUse', keyId, agentId },
          {
            workspaceId,
            userId: agentId,
            causationId: keyId,
            correlationId: randomUUID(),
            occurredAt: at,
          },
          undefined,
          { appendOnly: true },
        );
        this.written.set(keyId, Date.parse(at));
      } catch (error) {
        this.logger.warn(`could not record the use of a service key: ${String(error)}`);
      }
    }
  }
}
